import ReceiptDiagnostics
import ReceiptPurchases

extension CustomerStatus {
    /// The documents of one `rcpt status` question, taken one at a time in the order given, so that none needs to be
    /// held once it is taken: how each is used, and the statements of those that count. A document that states
    /// exactly what an earlier counted one states (the same token saved twice, a folder of copies) adds its use but
    /// not its statements again: what is kept grows with what the documents say, not with how often they say it.
    /// The answer is the one a single copy gives; the place it names is, for a transaction, the copy first by
    /// document, path and offset (as `decided` orders statements alike in content), for a renewal or Apple's status
    /// word the first given (as the resolution picks among equals).
    package struct Collector: Sendable {
        package let at: Int64
        package let includeUnverified: Bool
        package let question: Question
        /// How each document taken was used, in the order taken.
        package private(set) var uses: [DocumentUse] = []
        /// The statements counted, one entry a counting document (two for a verifyReceipt response whose unsigned
        /// decoding counts), duplicates left out.
        private var counted: [Statements] = []
        /// The indices in `counted` by the hash of what each states, wherever it stands.
        private var byContent: [Int: [Int]] = [:]

        /// How many documents' statements are kept: each copy of an earlier one's adds none.
        package var keptStatements: Int { counted.count }

        /// What one document states about one app.
        struct Statements: Sendable, Hashable {
            var app: StatusApp
            var transactions: [TransactionFact]
            var renewals: [RenewalFact]
            var statuses: [SubscriptionStatusFact]

            /// The same statements with no place: no document, path or offset (for finding copies).
            var unplaced: Statements {
                var copy = self
                for index in copy.transactions.indices { copy.transactions[index].evidence.unplace() }
                for index in copy.renewals.indices { copy.renewals[index].evidence.unplace() }
                for index in copy.statuses.indices { copy.statuses[index].evidence.unplace() }
                return copy
            }
        }

        package init(at: Int64, includeUnverified: Bool = false, question: Question = .entitled) {
            self.at = at
            self.includeUnverified = includeUnverified
            self.question = question
        }

        /// Makes room for the uses of `count` documents to come (a folder's files, counted before they are read): the
        /// list then grows once, not by doubling copies of itself.
        package mutating func expect(_ count: Int) { uses.reserveCapacity(uses.count + count) }

        /// What a server could have known then: the statements signed by then (one without a signing time never is).
        private func known<Fact>(_ facts: [Fact], _ evidence: (Fact) -> StatusEvidence) -> [Fact] {
            guard question == .knownThen else { return facts }
            return facts.filter { fact in evidence(fact).signedDate.map { $0 <= at } ?? false }
        }

        /// Takes the next document: how it is used, and its statements when they count.
        package mutating func add(_ document: StatusDocument) {
            var problem = document.problem
            var note: String?
            let use: DocumentUse.Use
            if !document.isReadable {
                // A verifyReceipt response without its receipt still holds Apple's (unsigned) decoding.
                use = document.unsignedApp == nil ? .unreadable : includeUnverified ? .countedUnverified : .notCounted
            } else if !document.transactions.isEmpty, document.app.bundleID == nil {
                // A transaction that names no app could be any app's: never counted.
                use = .notCounted
                problem = problem ?? ErrorCode.noBundleId.rawValue
                note = "its transactions name no app (no bundleId)"
            } else if let expires = document.expires, expires <= at {
                // An expired receipt (a Volume Purchase licence revoked or lapsed) grants nothing from then on.
                use = .notCounted
                problem = problem ?? FindingCode.receiptExpired.rawValue
                note =
                    "the receipt expired at \(MillisecondUTC.text(expires)) (expiration_date): its purchases count only before"
            } else {
                use = document.isValid ? .counted : includeUnverified ? .countedUnverified : .notCounted
            }
            // Apple's unsigned decoding counts only when asked, and when it names its app (else it would join every
            // app).
            let unsignedCounted =
                includeUnverified && document.unsignedApp?.bundleID != nil
                && !(document.unsignedTransactions.isEmpty && document.unsignedRenewals.isEmpty)
            let states = !document.transactions.isEmpty || !document.renewals.isEmpty || unsignedCounted
            if note == nil, use == .counted || use == .countedUnverified, !states {
                note = "it states no purchase or renewal"
            }
            // What the reader said of a document it could not read: what to do (paste one document, join a token
            // broken over lines), not only a code (a support engineer's trial).
            if note == nil, use == .unreadable { note = document.readMessage }
            var documentUse = DocumentUse(
                name: document.name, description: document.description, isValid: document.isValid,
                problem: problem, app: document.app, use: use,
                unsignedCounted: unsignedCounted, hasUnsigned: document.unsignedApp != nil,
                note: note)
            documentUse.isUnsignedOnly = !document.isReadable && document.unsignedApp != nil
            if unsignedCounted { documentUse.unsignedApp = document.unsignedApp }
            uses.append(documentUse)
            if document.isReadable, use == .counted || use == .countedUnverified {
                count(
                    Statements(
                        app: document.app, transactions: known(document.transactions, \.evidence),
                        renewals: known(document.renewals, \.evidence), statuses: known(document.statuses, \.evidence)
                    ))
            }
            if unsignedCounted, let app = document.unsignedApp {
                count(
                    Statements(
                        app: app, transactions: known(document.unsignedTransactions, \.evidence),
                        renewals: known(document.unsignedRenewals, \.evidence), statuses: []))
            }
        }

        /// Counts `statements`, unless an earlier document stated the same: then only a transaction's place that
        /// comes first by document, path and offset replaces the one kept.
        private mutating func count(_ statements: Statements) {
            let unplaced = statements.unplaced
            let key = unplaced.hashValue
            if let earlier = byContent[key]?.first(where: { counted[$0].unplaced == unplaced }) {
                for index in statements.transactions.indices {
                    let offered = statements.transactions[index].evidence
                    if offered.placedBefore(counted[earlier].transactions[index].evidence) {
                        counted[earlier].transactions[index].evidence = offered
                    }
                }
                return
            }
            byContent[key, default: []].append(counted.count)
            counted.append(statements)
        }

        /// The status from the documents taken; refused when they are about different apps or environments and
        /// `perApp` does not ask for a status per app.
        package func resolve(perApp: Bool = false) -> Result<CustomerStatus, MixedApps> {
            // One app and one environment, unless a status per app was asked for.
            let groups = CustomerStatus.group(
                counted.map(\.app),
                subscriptions: counted.map { member in
                    Set(
                        member.transactions.compactMap(\.originalTransactionID)
                            + member.renewals.compactMap(\.originalTransactionID)
                            + member.statuses.compactMap(\.originalTransactionID))
                })
            if groups.count > 1 && !perApp { return .failure(MixedApps(documents: uses)) }
            var status = CustomerStatus(
                at: at, apps: groups.map(\.app), products: [], conflicts: [], documents: uses)
            status.question = question
            for group in groups {
                let members = group.members.map { counted[$0] }
                let statements = members.flatMap(\.transactions)
                let (transactions, conflicts) = CustomerStatus.decided(statements, at: at)
                status.conflicts += conflicts
                let resolver = Resolver(
                    app: group.app, at: at, transactions: transactions,
                    renewals: members.flatMap(\.renewals), statuses: members.flatMap(\.statuses),
                    statements: statements)
                status.products += resolver.products()
            }
            return .success(status)
        }
    }
}

extension StatusEvidence {
    /// Forgets where the statement stands (document, path, offset): what is left is what it states and how.
    mutating func unplace() {
        document = ""
        path = ""
        offset = nil
    }

    /// Whether this place comes before `other`'s, by document, path and offset (as `decided` orders statements
    /// alike in content).
    func placedBefore(_ other: StatusEvidence) -> Bool {
        (document, path, offset ?? -1) < (other.document, other.path, other.offset ?? -1)
    }
}
