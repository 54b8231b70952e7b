import ReceiptDiagnostics
import ReceiptPurchases

/// What a customer owns at a time, from the signed documents given: the state of every product (Apple's
/// subscription states, or owned, consumed, refunded), each with the facts it rests on; where two statements about
/// one transaction disagree, the newer signed one decides and the conflict is kept; and how each document was used.
/// Only documents that verify count, unless `includeUnverified` adds the others (and Apple's unsigned verifyReceipt
/// decoding), marked — and what it adds never overrules a verified statement.
package struct CustomerStatus: Sendable {
    /// The time the states hold at, in milliseconds since 1970.
    package var at: Int64
    /// The question answered: what the customer was entitled to at `at`, from every document (a statement signed
    /// later may say what was so then), or what a server could have known then (only statements signed by `at`).
    package var question: Question = .entitled

    package enum Question: String, Sendable, Hashable {
        case entitled
        case knownThen = "known-then"
    }
    /// The apps the counted documents are about: one, unless a status per app was asked for.
    package var apps: [StatusApp]
    package var products: [ProductStatus]
    package var conflicts: [StatusConflict]
    package var documents: [DocumentUse]
    /// The options that would bind the answer and were not given (`--bundle-id`, `--environment`): without them
    /// another app's documents, or this app's free Sandbox ones, count (set by the command).
    package var unboundBy: [String] = []

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
        /// The app Apple's unsigned decoding names, when it was counted: it joins the apps the status is about.
        package var unsignedApp: StatusApp?
        /// Whether Apple's unsigned decoding is all it holds (a verifyReceipt response without `latest_receipt`): no
        /// signed document to verify.
        package var isUnsignedOnly = false
        /// What else a reader should know of its use: it states nothing `rcpt status` uses, its transactions name
        /// no app.
        package var note: String?

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
        /// Every document given, and how it would have been used; the counted ones name the apps.
        package var documents: [DocumentUse]

        /// The counted documents, each with its app.
        package var counted: [DocumentUse] {
            documents.filter { $0.use == .counted || $0.use == .countedUnverified }
        }
    }

    /// The status at `at` (milliseconds) from `documents`, in the order given (a `Collector` that takes them all).
    package static func resolve(
        _ documents: [StatusDocument], at: Int64, includeUnverified: Bool = false,
        perApp: Bool = false, question: Question = .entitled
    ) -> Result<CustomerStatus, MixedApps> {
        var collector = Collector(at: at, includeUnverified: includeUnverified, question: question)
        for document in documents { collector.add(document) }
        return collector.resolve(perApp: perApp)
    }

    /// The apps of `apps` (in order), each with the indices of the documents about it. A document that names no
    /// bundle id (renewal info binds only an environment) joins the app of its environment whose documents name one
    /// of its subscriptions (`subscriptions`: original transaction ids, per document); when none does, the one app
    /// of its environment, or — among several — none: an app of its own, unnamed (renewal info alone would otherwise
    /// show a subscription under every app).
    static func group(_ apps: [StatusApp], subscriptions: [Set<String>]) -> [(app: StatusApp, members: [Int])] {
        var groups: [(app: StatusApp, members: [Int])] = []
        func same(_ a: String?, _ b: String?) -> Bool { a == nil || b == nil || a == b }
        for (index, app) in apps.enumerated() where app.bundleID != nil {
            if let at = groups.firstIndex(where: {
                $0.app.bundleID == app.bundleID && $0.app.environment == app.environment
                    && same($0.app.appAppleID, app.appAppleID)
            }) {
                groups[at].members.append(index)
                if groups[at].app.appAppleID == nil { groups[at].app.appAppleID = app.appAppleID }
            } else {
                groups.append((app, [index]))
            }
        }
        let named = groups.count
        func names(_ group: Int) -> Set<String> {
            groups[group].members.reduce(into: Set<String>()) { $0.formUnion(subscriptions[$1]) }
        }
        let namedSubscriptions = (0..<named).map(names)
        for (index, app) in apps.enumerated() where app.bundleID == nil {
            let sameEnvironment = groups.indices.filter {
                $0 < named && same(groups[$0].app.environment, app.environment)
            }
            let own = sameEnvironment.filter { !namedSubscriptions[$0].isDisjoint(with: subscriptions[index]) }
            let joined = !own.isEmpty ? own : sameEnvironment.count == 1 ? sameEnvironment : []
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

    /// One statement per transaction, as known at `at`. Verified statements decide when there are any (what
    /// `--include-unverified` adds never overrules them). Among them, the newest signed by `at` (the oldest signed
    /// after it when none was), then one that states a revocation, then the first by document and path (so the order
    /// the documents are given in changes nothing) — except that a statement signed after `at` that dates a refund
    /// or revocation by `at`, after the chosen one was signed, states what was so at `at`, and is taken; one that dates
    /// it after `at` gives the chosen one its date, when its service ends. The others that disagree with the one
    /// taken are the conflicts, for the transactions bought by then.
    static func decided(_ facts: [TransactionFact], at: Int64) -> ([TransactionFact], [StatusConflict]) {
        var order: [String] = []
        var byKey: [String: [TransactionFact]] = [:]
        for (index, fact) in facts.enumerated() {
            let key = fact.transactionID.map { "id " + $0 } ?? "fact \(index)"
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(fact)
        }
        func signed(_ fact: TransactionFact) -> Int64 { fact.evidence.signedDate ?? Int64.min }
        /// Newest signed first; then a revocation; then the one that grants less (the earlier expiry: two statements
        /// signed at one time that disagree cannot both be Apple's); then content, never the file's name or place.
        func before(_ a: TransactionFact, _ b: TransactionFact) -> Bool {
            if signed(a) != signed(b) { return signed(a) > signed(b) }
            if (a.revocationDate != nil) != (b.revocationDate != nil) { return a.revocationDate != nil }
            if a.expiresDate != b.expiresDate { return (a.expiresDate ?? Int64.max) < (b.expiresDate ?? Int64.max) }
            return (a.productID, a.kind.rawValue, a.purchaseDate ?? Int64.min, a.quantity ?? 0)
                < (b.productID, b.kind.rawValue, b.purchaseDate ?? Int64.min, b.quantity ?? 0)
        }
        /// `before`, then where the statement stands: statements alike in content are taken and listed in one
        /// order, whatever order the documents were given in.
        func ordered(_ a: TransactionFact, _ b: TransactionFact) -> Bool {
            if before(a, b) != before(b, a) { return before(a, b) }
            return a.evidence.placedBefore(b.evidence)
        }
        var decided: [TransactionFact] = []
        var conflicts: [StatusConflict] = []
        for key in order {
            guard let statements = byKey[key] else { continue }
            let verified = statements.filter { $0.evidence.trust == .verified }
            let pool = verified.isEmpty ? statements : verified
            let known = pool.filter { signed($0) <= at }.sorted(by: ordered)
            let later = pool.filter { signed($0) > at }.sorted { ordered($1, $0) }
            guard var winner = known.first ?? later.first else { continue }
            // A refund signed after `at` but dated by it, and after the chosen statement was signed, was in force.
            if winner.revocationDate.map({ $0 > at }) ?? true,
                let refund = later.first(where: { fact in
                    fact.revocationDate.map { $0 <= at && $0 > signed(winner) } ?? false
                })
            {
                winner = refund
            }
            let chosen = winner  // the statement taken, before what others add to it
            // The statement a revocation taken from another comes from: the evidence of that claim.
            var revocationSource: TransactionFact?
            if winner.revocationDate == nil, let refund = later.last,
                refund.revocationDate.map({ $0 > at }) ?? false
            {
                // A refund dated after `at`, stated by the newest statement (a reversal signed after it undoes it):
                // not in force then, it ends the service at its date.
                winner.revocationDate = refund.revocationDate
                winner.revocationReason = refund.revocationReason
                winner.revocationType = refund.revocationType
                revocationSource = refund
            }
            // What the chosen statement does not state (a receipt's record names no kind of product that does not
            // renew, nor its subscription group) is taken from the others: never left out for want of a word.
            if winner.kind == .inAppPurchase,
                let kind = (known + later).map(\.kind).first(where: { $0 != .inAppPurchase })
            {
                winner.kind = kind
            }
            if winner.subscriptionGroup == nil {
                winner.subscriptionGroup = (known + later).compactMap(\.subscriptionGroup).first
            }
            decided.append(winner)
            guard (winner.purchaseDate ?? Int64.min) <= at else { continue }
            var seen: Set<String> = []
            for other in statements.sorted(by: ordered) where other != chosen {
                for difference in Self.differences(winner, other)
                where seen.insert("\(difference.claim) \(difference.overruled ?? "none")").inserted {
                    conflicts.append(
                        StatusConflict(
                            transactionID: winner.transactionID ?? "(none)", productID: winner.productID,
                            claim: difference.claim,
                            used: .init(
                                value: difference.used,
                                evidence: difference.claim == "revocation"
                                    ? revocationSource?.evidence ?? winner.evidence : winner.evidence),
                            overruled: .init(value: difference.overruled, evidence: other.evidence)))
                }
            }
        }
        return (decided, conflicts)
    }

    /// The claims on which two statements about one transaction disagree, each with the first's value and the
    /// other's (nil: the statement has none). Dates are compared at the precision of the coarser statement: a
    /// receipt's record is written in whole seconds, a JWS in milliseconds, so 12:00:00 and 12:00:00.049 agree.
    static func differences(_ a: TransactionFact, _ b: TransactionFact)
        -> [(claim: String, used: String?, overruled: String?)]
    {
        func date(_ value: Int64?) -> String? { value.map { MillisecondUTC.text($0) } }
        let unit = max(a.dateUnit, b.dateUnit)
        /// Whether two dates differ in the units both statements are written in (rounded down, also before 1970).
        func differ(_ x: Int64?, _ y: Int64?) -> Bool {
            func units(_ value: Int64) -> Int64 { value >= 0 ? value / unit : (value &- (unit &- 1)) / unit }
            return x.map(units) != y.map(units)
        }
        var differences: [(claim: String, used: String?, overruled: String?)] = []
        if a.productID != b.productID { differences.append(("product", a.productID, b.productID)) }
        // A receipt's record cannot name the type: only two statements that name it can disagree on it.
        if a.kind != b.kind, a.kind != .inAppPurchase, b.kind != .inAppPurchase {
            differences.append(("kind", a.kind.rawValue, b.kind.rawValue))
        }
        if differ(a.purchaseDate, b.purchaseDate) {
            differences.append(("purchase", date(a.purchaseDate), date(b.purchaseDate)))
        }
        if differ(a.revocationDate, b.revocationDate) {
            differences.append(("revocation", date(a.revocationDate), date(b.revocationDate)))
        }
        if differ(a.expiresDate, b.expiresDate), a.expiresDate != nil, b.expiresDate != nil {
            differences.append(("expiry", date(a.expiresDate), date(b.expiresDate)))
        }
        // Only a JWS transaction says whether it was upgraded; a receipt's record cannot.
        if a.isUpgraded != b.isUpgraded, a.evidence.kind == "transaction", b.evidence.kind == "transaction" {
            differences.append(("upgrade", String(a.isUpgraded), String(b.isUpgraded)))
        }
        return differences
    }
}
