import ReceiptPurchases

/// What a customer owns at a time, from the signed documents given: the state of every product (Apple's
/// subscription states, or owned, consumed, refunded), each with the facts it rests on; where two statements about
/// one transaction disagree, the newer signed one decides and the conflict is kept; and how each document was used.
/// Only documents that verify count, unless `includeUnverified` adds the others (and Apple's unsigned verifyReceipt
/// decoding), marked — and what it adds never overrules a verified statement.
package struct CustomerStatus: Sendable {
    /// The time the states hold at, in milliseconds since 1970.
    package var at: Int64
    /// The apps the counted documents are about: one, unless a status per app was asked for.
    package var apps: [StatusApp]
    package var products: [ProductStatus]
    package var conflicts: [StatusConflict]
    package var documents: [DocumentUse]

    /// How one document was used.
    package struct DocumentUse: Sendable, Hashable {
        package var name: String
        package var description: String
        package var isValid: Bool
        package var problem: String?
        package var app: StatusApp
        package var use: Use
        /// Whether Apple's unsigned verifyReceipt decoding in it was counted (`--include-unverified`).
        package var unsignedCounted: Bool
        /// Whether it holds Apple's unsigned verifyReceipt decoding at all.
        package var hasUnsigned: Bool

        package enum Use: String, Sendable, Hashable {
            /// Verified, and its facts counted.
            case counted
            /// Not verified, but counted because `--include-unverified` asked; its facts are marked.
            case countedUnverified = "counted-unverified"
            /// Not verified, so not counted.
            case notCounted = "not-counted"
            /// Nothing could be read from it.
            case unreadable
        }
    }

    /// Counted documents about different apps or environments, given together without asking for a status per app.
    package struct MixedApps: Error, Sendable {
        /// Each counted document and the app it is about.
        package var documents: [(name: String, app: StatusApp)]
    }

    /// The status at `at` (milliseconds) from `documents`, in the order given.
    package static func resolve(_ documents: [StatusDocument], at: Int64, includeUnverified: Bool = false,
                                perApp: Bool = false) -> Result<CustomerStatus, MixedApps> {
        var uses: [DocumentUse] = []
        var counted: [(app: StatusApp, transactions: [TransactionFact], renewals: [RenewalFact])] = []
        for document in documents {
            let use: DocumentUse.Use = !document.isReadable ? .unreadable
                : document.isValid ? .counted : includeUnverified ? .countedUnverified : .notCounted
            let unsignedCounted = includeUnverified
                && !(document.unsignedTransactions.isEmpty && document.unsignedRenewals.isEmpty)
            uses.append(DocumentUse(name: document.name, description: document.description, isValid: document.isValid,
                                    problem: document.problem, app: document.app, use: use,
                                    unsignedCounted: unsignedCounted, hasUnsigned: document.unsignedApp != nil))
            if use == .counted || use == .countedUnverified {
                counted.append((document.app, document.transactions, document.renewals))
            }
            if unsignedCounted, let app = document.unsignedApp {
                counted.append((app, document.unsignedTransactions, document.unsignedRenewals))
            }
        }
        // One app and one environment, unless a status per app was asked for.
        let groups = Self.group(counted.map(\.app))
        if groups.count > 1 && !perApp {
            var named: [(name: String, app: StatusApp)] = []
            for use in uses where use.use == .counted || use.use == .countedUnverified { named.append((use.name, use.app)) }
            return .failure(MixedApps(documents: named))
        }
        var status = CustomerStatus(at: at, apps: groups.map(\.app), products: [], conflicts: [], documents: uses)
        for group in groups {
            let members = group.members.map { counted[$0] }
            let (transactions, conflicts) = Self.decided(members.flatMap(\.transactions))
            status.conflicts += conflicts
            let resolver = Resolver(app: group.app, at: at, transactions: transactions,
                                    renewals: members.flatMap(\.renewals))
            status.products += resolver.products()
        }
        return .success(status)
    }

    /// The apps of `apps` (in order), each with the indices of the documents about it. A document that names no
    /// bundle id (renewal info binds only an environment) joins every app of its environment: its statements are
    /// about a subscription, found by its original transaction id, so they never reach another app's products.
    static func group(_ apps: [StatusApp]) -> [(app: StatusApp, members: [Int])] {
        var groups: [(app: StatusApp, members: [Int])] = []
        func same(_ a: String?, _ b: String?) -> Bool { a == nil || b == nil || a == b }
        for (index, app) in apps.enumerated() where app.bundleID != nil {
            if let at = groups.firstIndex(where: { $0.app.bundleID == app.bundleID && $0.app.environment == app.environment
                                                 && same($0.app.appAppleID, app.appAppleID) }) {
                groups[at].members.append(index)
                if groups[at].app.appAppleID == nil { groups[at].app.appAppleID = app.appAppleID }
            } else {
                groups.append((app, [index]))
            }
        }
        let named = groups.count
        for (index, app) in apps.enumerated() where app.bundleID == nil {
            let joined = groups.indices.filter { $0 < named && same(groups[$0].app.environment, app.environment) }
            for at in joined { groups[at].members.append(index) }
            guard joined.isEmpty else { continue }
            if let at = groups.indices.first(where: { $0 >= named && groups[$0].app.environment == app.environment }) {
                groups[at].members.append(index)
            } else {
                groups.append((StatusApp(environment: app.environment), [index]))
            }
        }
        for index in groups.indices { groups[index].members.sort() }
        return groups
    }

    /// One statement per transaction: the newest signed (a verified one before any other), and the older ones that
    /// disagree with it as conflicts.
    static func decided(_ facts: [TransactionFact]) -> ([TransactionFact], [StatusConflict]) {
        var order: [String] = []
        var byKey: [String: [TransactionFact]] = [:]
        for (index, fact) in facts.enumerated() {
            let key = fact.transactionID.map { "id " + $0 } ?? "fact \(index)"
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(fact)
        }
        var decided: [TransactionFact] = []
        var conflicts: [StatusConflict] = []
        for key in order {
            guard let statements = byKey[key] else { continue }
            // Stable: among equals, the first given stands.
            let ranked = statements.enumerated().sorted { lhs, rhs in
                let (a, b) = (lhs.element.evidence, rhs.element.evidence)
                if (a.trust == .verified) != (b.trust == .verified) { return a.trust == .verified }
                if a.signedDate != b.signedDate { return (a.signedDate ?? Int64.min) > (b.signedDate ?? Int64.min) }
                return lhs.offset < rhs.offset
            }.map(\.element)
            guard let winner = ranked.first else { continue }
            decided.append(winner)
            var seen: Set<String> = []
            for other in ranked.dropFirst() {
                for (claim, used, overruled) in Self.differences(winner, other)
                where seen.insert("\(claim) \(overruled)").inserted {
                    conflicts.append(StatusConflict(
                        transactionID: winner.transactionID ?? "(none)", productID: winner.productID, claim: claim,
                        used: .init(value: used, evidence: winner.evidence),
                        overruled: .init(value: overruled, evidence: other.evidence)))
                }
            }
        }
        return (decided, conflicts)
    }

    /// The claims on which two statements about one transaction disagree: (claim, the first's value, the other's).
    static func differences(_ a: TransactionFact, _ b: TransactionFact) -> [(String, String, String)] {
        func date(_ value: Int64?) -> String { value.map { MillisecondUTC.text($0) } ?? "none" }
        var differences: [(String, String, String)] = []
        if a.revocationDate != b.revocationDate {
            differences.append(("revocation", date(a.revocationDate), date(b.revocationDate)))
        }
        if a.expiresDate != b.expiresDate, a.expiresDate != nil, b.expiresDate != nil {
            differences.append(("expiry", date(a.expiresDate), date(b.expiresDate)))
        }
        // Only a JWS transaction says whether it was upgraded; a receipt's record cannot.
        if a.isUpgraded != b.isUpgraded, a.evidence.kind == "transaction", b.evidence.kind == "transaction" {
            differences.append(("upgrade", String(a.isUpgraded), String(b.isUpgraded)))
        }
        return differences
    }
}
