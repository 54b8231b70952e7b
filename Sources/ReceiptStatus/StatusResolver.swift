import ReceiptPurchases

/// The states of one app's products at a time, from one decided statement per transaction and the renewal infos,
/// as Apple defines them. A subscription (the transactions sharing an original transaction id) takes its state from
/// its newest transaction: revoked when that was refunded or revoked from Family Sharing by then; active until its
/// expiresDate; after that, in a grace period or billing retry when renewal info signed since then says so, else
/// expired (with the expirationIntent as the reason). A product the subscription moved away from (an upgrade, a
/// downgrade or crossgrade that took effect) is expired, naming the product it moved to. A consumable is consumed,
/// anything else owned, unless every purchase of it was refunded (or revoked from Family Sharing).
struct Resolver {
    let app: StatusApp
    let at: Int64
    let transactions: [TransactionFact]
    let renewals: [RenewalFact]

    init(app: StatusApp, at: Int64, transactions: [TransactionFact], renewals: [RenewalFact]) {
        self.app = app
        self.at = at
        // A purchase made after the time did not exist then.
        self.transactions = transactions.filter { ($0.purchaseDate ?? Int64.min) <= at }
        self.renewals = renewals
    }

    func products() -> [ProductStatus] {
        var best: [String: ProductStatus] = [:]
        func offer(_ status: ProductStatus) {
            guard let known = best[status.productID] else { best[status.productID] = status; return }
            // One entry per product: the one that grants service, else the newest.
            if (status.state.grantsService ? 1 : 0, status.purchaseDate ?? Int64.min)
                > (known.state.grantsService ? 1 : 0, known.purchaseDate ?? Int64.min) {
                best[status.productID] = status
            }
        }
        var chains: [String: [TransactionFact]] = [:]
        for fact in transactions where fact.kind == .autoRenewableSubscription {
            chains[fact.originalTransactionID.map { "original " + $0 } ?? "product " + fact.productID, default: []]
                .append(fact)
        }
        for key in chains.keys.sorted() {
            guard let chain = chains[key] else { continue }
            subscription(chain).forEach(offer)
        }
        var purchases: [String: [TransactionFact]] = [:]
        for fact in transactions where fact.kind != .autoRenewableSubscription {
            purchases[fact.productID, default: []].append(fact)
        }
        for product in purchases.keys.sorted() {
            guard let facts = purchases[product], let status = purchase(facts) else { continue }
            offer(status)
        }
        return best.keys.sorted().compactMap { best[$0] }
    }

    /// The newest of `facts`: latest purchase, a transaction that was not upgraded before one that was.
    func newest(_ facts: [TransactionFact]) -> TransactionFact? {
        facts.max { lhs, rhs in
            (lhs.purchaseDate ?? Int64.min, upgraded(lhs) ? 0 : 1, lhs.evidence.signedDate ?? Int64.min)
                < (rhs.purchaseDate ?? Int64.min, upgraded(rhs) ? 0 : 1, rhs.evidence.signedDate ?? Int64.min)
        }
    }

    /// Whether `fact` was refunded or revoked by the time (and not by an upgrade).
    func revoked(_ fact: TransactionFact) -> Bool {
        !fact.isUpgraded && (fact.revocationDate.map { $0 <= at } ?? false)
    }

    /// Whether `fact` was upgraded by the time: a transaction says so after the upgrade, dated by its
    /// revocationDate.
    func upgraded(_ fact: TransactionFact) -> Bool {
        fact.isUpgraded && (fact.revocationDate.map { $0 <= at } ?? true)
    }

    /// Why `fact` was revoked, in Apple's words where it has them.
    static func revocationReason(_ fact: TransactionFact) -> String {
        fact.isFamilyShared ? "no longer shared by the family" + (fact.revocationReason.map { " (\($0))" } ?? "")
            : fact.revocationReason ?? "refunded"
    }

    func status(_ fact: TransactionFact, _ state: ProductStatus.State, reason: String? = nil,
                evidence: [StatusEvidence] = []) -> ProductStatus {
        ProductStatus(productID: fact.productID, kind: fact.kind, state: state, app: app,
                      subscriptionGroup: fact.subscriptionGroup, originalTransactionID: fact.originalTransactionID,
                      transactionID: fact.transactionID, purchaseDate: fact.purchaseDate, expiresDate: fact.expiresDate,
                      revocationDate: fact.revocationDate.flatMap { $0 <= at ? $0 : nil },
                      gracePeriodExpiresDate: nil, autoRenew: nil, renewsTo: nil, quantity: nil, reason: reason,
                      evidence: [fact.evidence] + evidence)
    }

    /// The newest renewal info about the subscription `original` signed by the time (a verified one before any
    /// other).
    func renewal(of original: String?) -> RenewalFact? {
        guard let original else { return nil }
        return renewals.filter { $0.originalTransactionID == original && ($0.evidence.signedDate ?? Int64.min) <= at }
            .max { lhs, rhs in
                (lhs.evidence.trust == .verified ? 1 : 0, lhs.evidence.signedDate ?? Int64.min)
                    < (rhs.evidence.trust == .verified ? 1 : 0, rhs.evidence.signedDate ?? Int64.min)
            }
    }

    /// The products of one subscription: its current product's state, and the products it moved away from.
    func subscription(_ chain: [TransactionFact]) -> [ProductStatus] {
        guard let current = newest(chain) else { return [] }
        var statuses: [ProductStatus] = []
        let renewal = renewal(of: current.originalTransactionID)
        var main: ProductStatus
        if revoked(current) {
            main = status(current, .revoked, reason: Self.revocationReason(current))
        } else if upgraded(current) {
            main = status(current, .expired, reason: "upgraded; the transaction of the product it was upgraded to is not among the documents")
        } else if let expires = current.expiresDate, expires > at {
            main = status(current, .active)
        } else {
            // Renewal info speaks of the failure only when signed after this transaction was bought.
            let since = renewal.flatMap { ($0.evidence.signedDate ?? Int64.max) >= (current.purchaseDate ?? Int64.min) ? $0 : nil }
            if let since, since.isInBillingRetry {
                if let grace = since.gracePeriodExpiresDate, grace > at {
                    main = status(current, .gracePeriod, reason: "the renewal failed; service continues in the billing grace period")
                    main.gracePeriodExpiresDate = grace
                } else {
                    main = status(current, .billingRetry, reason: "the renewal failed; the App Store is retrying to bill")
                }
            } else if let intent = since?.expirationIntent {
                main = status(current, .expired, reason: intent)
            } else if current.expiresDate == nil {
                main = status(current, .expired, reason: "the transaction has no expiresDate")
            } else if since?.autoRenewOn == false {
                main = status(current, .expired, reason: "auto-renew was off")
            } else {
                main = status(current, .expired, reason: "no renewal among the documents after its expiresDate")
            }
        }
        if let renewal {
            main.evidence.append(renewal.evidence)
            main.autoRenew = renewal.autoRenewOn
            if let next = renewal.autoRenewProductID, next != current.productID, main.state != .revoked {
                main.renewsTo = next
            }
        }
        if main.subscriptionGroup == nil {
            main.subscriptionGroup = chain.lazy.compactMap(\.subscriptionGroup).first
        }
        statuses.append(main)
        // The products this subscription moved away from.
        var others: [String: [TransactionFact]] = [:]
        for fact in chain where fact.productID != current.productID { others[fact.productID, default: []].append(fact) }
        for product in others.keys.sorted() {
            guard let facts = others[product], let last = newest(facts) else { continue }
            var moved: ProductStatus
            if upgraded(last) {
                // Apple dates the upgrade as the upgraded transaction's revocationDate.
                moved = status(last, .expired, reason: "upgraded to \(current.productID)")
            } else if revoked(last) {
                moved = status(last, .revoked, reason: Self.revocationReason(last))
            } else if let expires = last.expiresDate, expires > at {
                moved = status(last, .active, reason: "the subscription's newest transaction is for \(current.productID)")
            } else {
                moved = status(last, .expired, reason: "the subscription changed to \(current.productID)")
            }
            moved.subscriptionGroup = moved.subscriptionGroup ?? main.subscriptionGroup
            statuses.append(moved)
        }
        return statuses
    }

    /// A product that does not renew: consumed or owned while any purchase of it stands, else refunded or revoked.
    func purchase(_ facts: [TransactionFact]) -> ProductStatus? {
        // The most specific kind any statement gives (a JWS transaction names it; a receipt record cannot).
        let kind = facts.map(\.kind).first { $0 != .inAppPurchase } ?? .inAppPurchase
        let standing = facts.filter { !revoked($0) }
        if let last = newest(standing) {
            var owned = status(last, kind == .consumable ? .consumed : .owned,
                               reason: kind == .nonRenewingSubscription ? "a non-renewing subscription: the app decides how long it lasts" : nil)
            owned.kind = kind
            owned.revocationDate = nil
            if kind == .consumable {
                owned.quantity = standing.reduce(Int64(0)) { total, fact in
                    let (sum, overflow) = total.addingReportingOverflow(max(fact.quantity, 0))
                    return overflow ? Int64.max : sum
                }
                owned.evidence = standing.map(\.evidence)
            }
            return owned
        }
        guard let last = newest(facts) else { return nil }
        var gone = status(last, last.isFamilyShared ? .revoked : .refunded, reason: Self.revocationReason(last))
        gone.kind = kind
        return gone
    }
}
