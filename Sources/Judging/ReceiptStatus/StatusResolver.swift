import ReceiptPurchases

/// The states of one app's products at a time, from one decided statement per transaction and the renewal infos,
/// as Apple defines them (App Store Server API: one status per subscription, from its latest transaction). A
/// subscription (the transactions sharing an original transaction id) takes its state from its newest transaction
/// bought by then: revoked when that was refunded or revoked from Family Sharing by then; active until its
/// expiresDate; after that, in a grace period or billing retry when renewal info signed since then says so, else
/// expired (with the expirationIntent as the reason). A product the subscription moved away from (an upgrade, which
/// takes effect at once; a downgrade or crossgrade, at the next renewal) is expired from the purchase of the product
/// it moved to. A consumable is consumed, anything else owned, unless every purchase of it was refunded (or revoked
/// from Family Sharing).
struct Resolver {
    let app: StatusApp
    let at: Int64
    /// Every decided statement, bought by the time or later (a later purchase dates an upgrade).
    let all: [TransactionFact]
    /// The statements of purchases made by the time: a purchase made later did not exist then.
    let transactions: [TransactionFact]
    /// The renewal infos and Apple's signed word on subscriptions' states (notifications' `data.status`), by
    /// original transaction id: each subscription looks up its own, so many subscriptions stay linear.
    let renewals: [String: [RenewalFact]]
    let statuses: [String: [SubscriptionStatusFact]]

    /// Per subscription, product and purchase: when the subscription left that product, and for which product
    /// (`change`), worked out once, so that ordering a subscription's transactions stays n log n however many.
    let changes: [ChangeKey: Change]

    /// The first purchase of another product of the same subscription after a transaction.
    struct Change {
        var date: Int64
        var product: String
    }

    struct ChangeKey: Hashable {
        var chain: String
        var product: String
        var purchased: Int64
    }

    /// When each subscription (by original transaction id) was last spoken of by any statement of its transactions,
    /// decided or not (a history fetched later restates a transaction another document states), a page that says
    /// more follow left out.
    let lastSigned: [String: Int64]

    init(
        app: StatusApp, at: Int64, transactions: [TransactionFact], renewals: [RenewalFact],
        statuses: [SubscriptionStatusFact] = [], statements: [TransactionFact] = []
    ) {
        self.app = app
        self.at = at
        all = transactions
        self.transactions = transactions.filter { ($0.purchaseDate ?? Int64.min) <= at }
        self.renewals = Self.indexed(renewals, by: \.originalTransactionID)
        self.statuses = Self.indexed(statuses, by: \.originalTransactionID)
        changes = Self.changes(of: transactions)
        var lastSigned: [String: Int64] = [:]
        for fact in statements + transactions where !fact.evidence.fromPartialPage {
            guard let original = fact.originalTransactionID, let signed = fact.evidence.signedDate else { continue }
            lastSigned[original] = max(lastSigned[original] ?? Int64.min, signed)
        }
        self.lastSigned = lastSigned
    }

    func products() -> [ProductStatus] {
        let mixed = CustomerMixing.otherCustomers(in: all)
        var best: [String: ProductStatus] = [:]
        func offer(_ offered: ProductStatus) {
            var status = offered
            if status.kind == .autoRenewableSubscription, let original = status.originalTransactionID,
                status.otherCustomers.isEmpty
            {
                status.otherCustomers = mixed[original] ?? []
            }
            // One entry per product: the one to be granted, else the newest. Where the documents mix customers'
            // subscriptions of it, one per customer, so each one's state stands beside the other's (a trial saw
            // this customer's expired subscription vanish behind another customer's active one).
            let key =
                status.otherCustomers.isEmpty
                ? status.productID : status.productID + " original " + (status.originalTransactionID ?? "")
            guard let known = best[key] else {
                best[key] = status
                return
            }
            if (status.grantsService ? 1 : 0, status.purchaseDate ?? Int64.min)
                > (known.grantsService ? 1 : 0, known.purchaseDate ?? Int64.min)
            {
                best[key] = status
            }
        }
        for chain in Self.grouped(transactions.filter { $0.kind == .autoRenewableSubscription }, by: Self.chainKey) {
            subscription(chain).forEach(offer)
        }
        for facts in Self.grouped(transactions.filter { $0.kind != .autoRenewableSubscription }, by: \.productID) {
            if let status = purchase(facts) { offer(status) }
        }
        renewalOnlySubscriptions().forEach(offer)
        let statements = Dictionary(grouping: all.filter { signedByTheTime($0.evidence) }, by: \.productID)
        return best.keys.sorted().compactMap { best[$0] }.map { product in
            var noted = product
            noted.notes = notes(for: product, statements: statements[product.productID] ?? [])
            return noted
        }
    }

    /// A subscription's key: its original transaction id (a receipt record without one stands alone by product).
    static func chainKey(_ fact: TransactionFact) -> String {
        fact.originalTransactionID.map { "original " + $0 } ?? "product " + fact.productID
    }

    /// `facts` grouped by `key`, in the order of the keys.
    static func grouped(_ facts: [TransactionFact], by key: (TransactionFact) -> String) -> [[TransactionFact]] {
        var groups: [String: [TransactionFact]] = [:]
        for fact in facts { groups[key(fact), default: []].append(fact) }
        return groups.keys.sorted().compactMap { groups[$0] }
    }

    /// `facts` by the original transaction id each names (those naming none are about no subscription).
    static func indexed<Fact>(_ facts: [Fact], by original: (Fact) -> String?) -> [String: [Fact]] {
        var index: [String: [Fact]] = [:]
        for fact in facts {
            if let key = original(fact) { index[key, default: []].append(fact) }
        }
        return index
    }

    /// When the subscription left `fact`'s product, and for which: the first purchase of another product in the
    /// same subscription after it (Apple dates an upgrade by the new transaction, never on the upgraded one).
    func change(_ fact: TransactionFact) -> Change? {
        guard let purchased = fact.purchaseDate else { return nil }
        return changes[ChangeKey(chain: Self.chainKey(fact), product: fact.productID, purchased: purchased)]
    }

    /// When the subscription left `fact`'s product for another.
    func changeDate(_ fact: TransactionFact) -> Int64? { change(fact)?.date }

    /// Whether `fact` was upgraded by the time: it says `isUpgraded`, and the product it was upgraded to was bought
    /// by then, or the statement dates the upgrade by then (or neither is known, so the statement is all there is).
    func upgraded(_ fact: TransactionFact) -> Bool {
        fact.isUpgraded && ((changeDate(fact) ?? fact.upgradeDate).map { $0 <= at } ?? true)
    }

    /// Whether `fact` was refunded or revoked from Family Sharing by the time.
    func revoked(_ fact: TransactionFact) -> Bool { fact.revocationDate.map { $0 <= at } ?? false }

    /// The newest of `facts`: latest purchase, a transaction that was not upgraded before one that was; between
    /// equals, the greater transaction id, so the order the documents were given in never decides.
    func newest(_ facts: [TransactionFact]) -> TransactionFact? {
        facts.max { lhs, rhs in
            (lhs.purchaseDate ?? Int64.min, upgraded(lhs) ? 0 : 1, lhs.evidence.signedDate ?? Int64.min)
                < (rhs.purchaseDate ?? Int64.min, upgraded(rhs) ? 0 : 1, rhs.evidence.signedDate ?? Int64.min)
                || (lhs.purchaseDate, upgraded(lhs), lhs.evidence.signedDate)
                    == (rhs.purchaseDate, upgraded(rhs), rhs.evidence.signedDate)
                    && Self.idOrder(lhs.transactionID, rhs.transactionID)
        }
    }

    /// Transaction ids in order: by length, then text (they are decimal numbers), none first.
    static func idOrder(_ lhs: String?, _ rhs: String?) -> Bool {
        ((lhs ?? "").count, lhs ?? "") < ((rhs ?? "").count, rhs ?? "")
    }

    /// How long the App Store retries a failed renewal: up to 60 days after the expiry.
    static let billingRetryLimit: Int64 = 60 * 86_400_000

    /// Whether a subscription that expired at `expired` can still be in billing retry at `at`.
    static func stillRetrying(expired: Int64?, at: Int64) -> Bool {
        guard let expired else { return true }
        let (end, overflow) = expired.addingReportingOverflow(billingRetryLimit)
        return overflow || at < end
    }

    /// Whether a revocation took the product from a family member rather than refunding it: `revocationType`
    /// FAMILY_REVOKE, or (without one) a family-shared transaction revoked for a reason other than an issue (Apple
    /// gives a shared transaction the purchaser's reason when the purchaser is refunded, and 0 when sharing ends).
    static func isFamilyRevocation(_ fact: TransactionFact) -> Bool {
        if let type = fact.revocationType { return type == "FAMILY_REVOKE" }
        return fact.isFamilyShared && fact.revocationReason != "REFUNDED_DUE_TO_ISSUE"
    }

    /// The transaction of `chain` whose period runs at the time, neither refunded nor upgraded, nor left for another
    /// product by then: the one that ends last. A statement signed before an upgrade keeps the old period's expiry
    /// (a red team's trial: a yearly upgraded to premium in February came back ACTIVE once premium expired); the
    /// purchase of the product the subscription moved to ends it.
    func covering(_ chain: [TransactionFact]) -> TransactionFact? {
        chain.filter { fact in
            !revoked(fact) && !fact.isUpgraded && (changeDate(fact).map { $0 > at } ?? true)
                && ServicePeriod(purchased: fact.purchaseDate, expires: fact.expiresDate).grantsService(at: at)
        }.max { ($0.expiresDate ?? Int64.min) < ($1.expiresDate ?? Int64.min) }
    }

    /// Why `fact` was revoked, in Apple's words where it has them.
    static func revocationReason(_ fact: TransactionFact) -> String {
        let type = fact.revocationType.map { " (\($0))" } ?? ""
        if isFamilyRevocation(fact) {
            return fact.revocationType == nil
                ? "no longer shared by the family, or the family's purchaser was refunded"
                    + (fact.revocationReason.map { " (\($0))" } ?? "")
                : "no longer shared by the family" + type
        }
        return (fact.revocationReason ?? "refunded") + type
    }

    func status(_ fact: TransactionFact, _ state: ProductStatus.State, reason: String? = nil) -> ProductStatus {
        let revocation = fact.revocationDate.flatMap { $0 <= at ? $0 : nil }
        // A purchase with no usable date (absent, zero, negative) is taken as made before any time asked about.
        let reason =
            fact.purchaseDate != nil
            ? reason
            : [reason, "no usable purchaseDate: taken as bought before any date"].compactMap { $0 }.joined(
                separator: "; ")
        return ProductStatus(
            productID: fact.productID, kind: fact.kind, state: state, app: app,
            subscriptionGroup: fact.subscriptionGroup, originalTransactionID: fact.originalTransactionID,
            transactionID: fact.transactionID, purchaseDate: fact.purchaseDate,
            expiresDate: fact.expiresDate, revocationDate: revocation,
            endedDate: state.grantsService ? nil : revocation ?? fact.expiresDate,
            gracePeriodExpiresDate: nil, autoRenew: nil, renewsTo: nil, quantity: nil, reason: reason,
            evidence: [fact.evidence], familyShared: fact.isFamilyShared)
    }

    /// The newest renewal info about the subscription `original` signed by the time (a verified one before any
    /// other).
    func renewal(of original: String?) -> RenewalFact? {
        guard let original else { return nil }
        return (renewals[original] ?? []).filter { ($0.evidence.signedDate ?? Int64.min) <= at }
            .max { lhs, rhs in
                (lhs.evidence.trust == .verified ? 1 : 0, lhs.evidence.signedDate ?? Int64.min)
                    < (rhs.evidence.trust == .verified ? 1 : 0, rhs.evidence.signedDate ?? Int64.min)
            }
    }

    /// The products of one subscription: its current product's state, and the products it moved away from.
    func subscription(_ chain: [TransactionFact]) -> [ProductStatus] {
        guard let latest = newest(chain) else { return [] }
        // The newest purchase has ended, neither refunded nor upgraded, while one bought before it still runs (not a
        // shape Apple signs: its periods follow each other): that one was paid for and decides (a red team's trial).
        let ended = !revoked(latest) && !upgraded(latest) && latest.expiresDate.map { $0 <= at } == true
        let current = (ended ? covering(chain) : nil) ?? latest
        // Renewal info that did not verify (counted as asked) never changes what a verified transaction says.
        let renewal = renewal(of: current.originalTransactionID).flatMap {
            $0.evidence.trust == .verified || current.evidence.trust != .verified ? $0 : nil
        }
        // Revocation is judged first, below: the period's own dates decide the rest.
        let unexpired = ServicePeriod(purchased: nil, expires: current.expiresDate).grantsService(at: at)
        var main: ProductStatus
        if revoked(current) {
            main = status(current, .revoked, reason: Self.revocationReason(current))
        } else if upgraded(current) {
            // The product it was upgraded to grants the service, and its transaction is not among the documents.
            // Once a signed statement says `isUpgraded`, this product no longer does (as verify's purchase-upgraded
            // says): granting it would let a customer who had the new product refunded show the old one alone.
            // Stated by then, or dated by then (a history fetched later dates the upgrade before it was signed).
            let stated =
                (current.evidence.signedDate.map { $0 <= at } ?? true)
                || (current.upgradeDate.map { $0 <= at } ?? false)
            main = status(
                current, stated || !unexpired ? .expired : .active,
                reason: stated
                    ? "upgraded to another product of its group, whose transaction is not among the documents: this one no longer grants service, and whether that one does is not known (give the transaction history)"
                    : "upgraded to another product of its group after this time, by a statement signed later (give the transaction history)"
            )
            // It ended at the upgrade's date where the statement gives one, else by the statement's signing, if not
            // at its expiry before.
            if stated {
                main.endedDate =
                    current.upgradeDate.flatMap { $0 <= at ? $0 : nil }
                    ?? [current.evidence.signedDate, current.expiresDate].compactMap { $0 }.min()
            }
        } else if unexpired {
            main = status(current, .active)
            // Refunded or upgraded later, as the documents date it: this product's service ends then, not at its
            // expiry.
            if let revoked = current.revocationDate, revoked > at, revoked < current.expiresDate ?? Int64.max {
                (main.endedDate, main.reason) = (
                    revoked, Self.revocationReason(current) + " at \(MillisecondUTC.text(revoked)), stated later"
                )
            } else if current.isUpgraded, let change = change(current) {
                (main.endedDate, main.reason) = (
                    change.date, "upgraded to \(change.product) at \(MillisecondUTC.text(change.date))"
                )
            } else if current.isUpgraded, let upgrade = current.upgradeDate, upgrade < current.expiresDate ?? Int64.max
            {
                (main.endedDate, main.reason) = (
                    upgrade,
                    "upgraded to another product of its group at \(MillisecondUTC.text(upgrade)), stated later"
                )
            }
        } else {
            // Renewal info speaks of the failure only when signed after this transaction was bought.
            let since = renewal.flatMap {
                ($0.evidence.signedDate ?? Int64.max) >= (current.purchaseDate ?? Int64.min)
                    && Self.speaks($0, of: current) ? $0 : nil
            }
            let knownGrace = since.map { $0.isInBillingRetry && $0.inGracePeriod(at: at) } ?? false
            if let later = laterPeriod(of: current), let ends = later.renewalDate {
                // Renewed: its transaction is not among the documents, its renewal info dates the period.
                main = status(current, .active, on: later, besides: renewal) { signed in
                    "renewed: renewal info signed \(signed) says the most recent purchase expires then; its transaction is not among the documents"
                }
                main.endedDate = ends
            } else if !knownGrace, let later = laterGrace(of: current), let grace = later.gracePeriodExpiresDate {
                main = status(current, .gracePeriod, on: later, besides: renewal) { signed in
                    "the renewal failed; renewal info signed later, at \(signed), places this time in the billing grace period"
                }
                main.gracePeriodExpiresDate = grace
            } else if let since, since.isInBillingRetry, Self.stillRetrying(expired: current.expiresDate, at: at) {
                if let grace = since.gracePeriodExpiresDate, grace > at {
                    main = status(
                        current, .gracePeriod,
                        reason: "the renewal failed; service continues in the billing grace period")
                    main.gracePeriodExpiresDate = grace
                } else {
                    main = status(
                        current, .billingRetry, reason: "the renewal failed; the App Store is retrying to bill")
                }
            } else if let since, since.isInBillingRetry {
                main = retryEnded(current, since: since, chain: chain)
            } else if let intent = since?.expirationIntent {
                main = status(current, .expired, reason: intent)
            } else if current.expiresDate == nil {
                main = status(current, .expired, reason: "the transaction has no expiresDate")
            } else if let since, since.autoRenewOn == false {
                main = autoRenewOff(current, since: since, chain: chain)
            } else if let word = laterGrantingWord(current) {
                // Apple said after this period that the subscription granted service: a later period existed, and
                // whether it had begun by the time is not known (a support engineer's trial: a REFUND of an earlier
                // period with status 1 read EXPIRED before it, ACTIVE at it).
                let signed = word.evidence.signedDate.map { MillisecondUTC.text($0) } ?? "(no signedDate)"
                main = status(
                    current, .unknown,
                    reason:
                        "Apple signed status \(word.code) (\(word.state.rawValue)) at \(signed): a later period whose transaction is not among the documents; whether it had begun by this time is not known (give the transaction history)"
                )
                main.evidence.insert(word.evidence, at: 0)
            } else if let renewed = renewedLater(current) ?? laterFailure(current) {
                main = renewed
            } else if spokeSinceExpiry(current, chain: chain) {
                main = status(current, .expired, reason: "no renewal among the documents after its expiresDate")
            } else {
                // Nothing about the subscription was signed after its expiry: it renewed, failed or ended, and no
                // document says which (a support engineer's trial: "I paid" answered EXPIRED).
                main = status(
                    current, .unknown,
                    reason:
                        "whether it renewed at its expiresDate is not known: no document about the subscription was signed after it (give the transaction history or the subscription's status)"
                )
            }
            // Service went on through a billing grace period that has passed: it ended then, not at the expiry (a
            // support engineer's trial: billing retry after a grace period said "since" the expiry, 16 days early).
            if main.state == .expired || main.state == .billingRetry, let grace = since?.gracePeriodExpiresDate,
                let expires = current.expiresDate, grace > expires, grace <= at, main.revocationDate == nil
            {
                main.endedDate = grace
                main.gracePeriodExpiresDate = grace
                main.reason =
                    (main.reason.map { $0 + "; " } ?? "")
                    + "service continued in the billing grace period until \(MillisecondUTC.text(grace))"
            }
        }
        if let word = appleStatus(of: current) {
            if word.state != main.state || reach(word, current: current) == .unknownAfterSigning {
                main = overruled(main, by: word, current: current)
            } else {
                // Apple's word agrees: it is evidence too.
                main.evidence.append(word.evidence)
            }
        }
        // Renewal info of another product signed before this one was bought speaks of that product's period, not
        // this one's (a support engineer's trial: renewal info from before an upgrade to yearly invented a
        // downgrade back to monthly).
        let stale =
            renewal.map { renewal in
                renewal.productID.map { $0 != current.productID } ?? false
                    && (renewal.evidence.signedDate ?? Int64.min) < (current.purchaseDate ?? Int64.min)
            } ?? true
        if let renewal, !stale {
            main.evidence.append(renewal.evidence)
            main.autoRenew = renewal.autoRenewOn
            // The product of the next billing period: only for a subscription that is to renew.
            if renewal.autoRenewOn == true, [.active, .gracePeriod, .billingRetry].contains(main.state),
                let next = renewal.autoRenewProductID, next != current.productID
            {
                main.renewsTo = next
            }
        }
        if main.subscriptionGroup == nil {
            main.subscriptionGroup = chain.lazy.compactMap(\.subscriptionGroup).first
        }
        return [main] + movedAway(chain, current: current, main: main)
    }
}
