import ReceiptPurchases

/// What Apple signs about a subscription beside its transactions, read by the resolver: renewal info standing alone
/// (no transaction of its subscription among the documents) and a notification's `data.status`, Apple's own word on
/// the subscription's state.
extension Resolver {
    /// The subscriptions known only from their renewal info, each in the state its newest renewal info states
    /// (`renewalOnly`). Beside a subscription of the same product that the documents hold transactions of, one is
    /// another customer's: renewal info names no ownership, so only it is held back (a red team's trial had another
    /// customer's renewal info granted, and this customer's own expired subscription gone from the answer).
    func renewalOnlySubscriptions() -> [ProductStatus] {
        var found: [ProductStatus] = []
        let known = Set(all.compactMap(\.originalTransactionID))
        // Each product's subscriptions, indexed once (a scan per renewal info was quadratic: a hostile-bytes trial's
        // verifyReceipt body of 30 000 records took over a minute).
        var originalsByProduct: [String: Set<String>] = [:]
        for fact in all where fact.kind == .autoRenewableSubscription {
            if let original = fact.originalTransactionID {
                originalsByProduct[fact.productID, default: []].insert(original)
            }
        }
        for original in Set(renewals.keys).subtracting(known).sorted() {
            guard let renewal = renewal(of: original), var status = renewalOnly(renewal) else { continue }
            let products = Set([renewal.productID, renewal.autoRenewProductID].compactMap { $0 })
            let others = products.reduce(into: Set<String>()) { $0.formUnion(originalsByProduct[$1] ?? []) }
            status.otherCustomers = Array(others.sorted().prefix(CustomerMixing.shownLimit))
            found.append(status)
        }
        return found
    }

    /// The state of a subscription no transaction of which is among the documents, as its newest renewal info
    /// signed by the time states it: in billing retry or its grace period; expired with Apple's `expirationIntent`;
    /// active until its `renewalDate` (the end of the period it was signed in); expired after that with auto-renew
    /// off when signed after it; unknown when it states none of these, or billing retry or auto-renew off long
    /// before the time (either may have changed since). Nil when it names no product.
    func renewalOnly(_ renewal: RenewalFact) -> ProductStatus? {
        guard let product = renewal.productID ?? renewal.autoRenewProductID else { return nil }
        let state: ProductStatus.State
        var reason: String
        if renewal.isInBillingRetry, Self.stillRetrying(expired: renewal.evidence.signedDate, at: at) {
            let inGrace = renewal.inGracePeriod(at: at)
            state = inGrace ? .gracePeriod : .billingRetry
            reason =
                inGrace
                ? "the renewal failed; service continues in the billing grace period"
                : "the renewal failed; the App Store is retrying to bill"
        } else if renewal.isInBillingRetry {
            // The newest renewal info was signed in the retry: whether it recovered is not stated.
            (state, reason) = (
                .unknown,
                "the App Store retries a failed renewal for at most 60 days; they have passed, and no document signed since says whether it recovered (give the transaction history or the subscription's status)"
            )
        } else if let intent = renewal.expirationIntent {
            (state, reason) = (.expired, intent)
        } else if let ends = renewal.renewalDate, ends > at {
            state = .active
            reason =
                renewal.autoRenewOn == false
                ? "auto-renew is off: ends at \(MillisecondUTC.text(ends))" : "renews at \(MillisecondUTC.text(ends))"
        } else if let ends = renewal.renewalDate, renewal.autoRenewOn == false {
            // Said before the period ended, auto-renew off may have been turned back on.
            (state, reason) =
                (renewal.evidence.signedDate ?? Int64.min) >= ends
                ? (.expired, "auto-renew was off")
                : (
                    .unknown,
                    "auto-renew was off when the renewal info was signed: the subscription ended at \(MillisecondUTC.text(ends)) unless the customer turned auto-renew back on before then, and no document signed since says (give the transaction history or the subscription's status)"
                )
        } else if let ends = renewal.renewalDate {
            // Its period ended with auto-renew on (or not stated): it renewed or failed, and nothing here says which.
            (state, reason) = (
                .unknown,
                "the renewal info's period ended at its renewalDate \(MillisecondUTC.text(ends)) with auto-renew on: whether it renewed is not stated; add the subscription's transactions"
            )
        } else {
            // Older renewal info dates no period; nothing says whether the subscription still runs.
            (state, reason) = (
                .unknown,
                "the renewal info dates no period (no renewalDate) and states no expiry or billing retry: add the subscription's transactions"
            )
        }
        reason += " (renewal info alone: no transaction of the subscription is among the documents)"
        return ProductStatus(
            productID: product, kind: .autoRenewableSubscription, state: state, app: app, subscriptionGroup: nil,
            originalTransactionID: renewal.originalTransactionID, transactionID: nil, purchaseDate: nil,
            expiresDate: renewal.renewalDate, revocationDate: nil,
            endedDate: state == .expired ? renewal.renewalDate : nil,
            gracePeriodExpiresDate: state == .gracePeriod ? renewal.gracePeriodExpiresDate : nil,
            autoRenew: renewal.autoRenewOn,
            renewsTo: renewal.autoRenewOn == true && renewal.autoRenewProductID != product
                ? renewal.autoRenewProductID : nil,
            quantity: nil, reason: reason, evidence: [renewal.evidence])
    }

    /// Apple's newest signed word on the subscription of `current` by the time (a notification's `data.status`),
    /// when it was signed no earlier than `current` was: then it knows of every period the documents show, and of
    /// any they lack. A verified one before any other; an unverified one never over a verified `current`. A word
    /// whose reach (`reach`) has ended is not taken; one whose end is unknown is taken, and the state it gives
    /// then is `unknown` (`overruled`).
    func appleStatus(of current: TransactionFact) -> SubscriptionStatusFact? {
        guard let original = current.originalTransactionID else { return nil }
        // Apple's word speaks for the time it was signed: newer renewal info of the subscription supersedes it (a
        // red team's trial: a grace period's status 4 outweighed renewal info signed later saying the customer
        // cancelled, unless the transaction happened to be re-signed after it).
        let since = max(
            current.evidence.signedDate ?? Int64.min,
            renewal(of: original).flatMap { $0.evidence.trust == .verified ? $0.evidence.signedDate : nil }
                ?? Int64.min)
        return (statuses[original] ?? []).filter { word in
            guard let signed = word.evidence.signedDate, signed <= at, signed >= since else { return false }
            if word.evidence.trust != .verified && current.evidence.trust == .verified { return false }
            return reach(word, current: current) != .ended
        }.max { lhs, rhs in
            (lhs.evidence.trust == .verified ? 1 : 0, lhs.evidence.signedDate ?? Int64.min)
                < (rhs.evidence.trust == .verified ? 1 : 0, rhs.evidence.signedDate ?? Int64.min)
        }
    }

    /// How far Apple's word on a subscription speaks of the time after it was signed.
    enum StatusReach {
        /// It speaks of the time.
        case holds
        /// It spoke of a period that has ended by the time: the documents decide.
        case ended
        /// It spoke of a period the documents do not date, and the time is after it was signed: what the state is
        /// now is unknown.
        case unknownAfterSigning
    }

    /// How far `word`, on `current`'s subscription, speaks of the time. Every status is a snapshot of the moment it
    /// was signed. One that grants service, signed while `current`'s period ran, holds to that period's
    /// expiresDate; signed in a billing grace period, while the grace does (as the subscription's renewal info dates
    /// it, and no longer than billing retry); signed after `current` expired, it tells of a later period the documents
    /// lack, whose end is unknown unless renewal info dates it, so it holds only at its signing. Billing retry ends 60 days after the expiry at the
    /// latest. The others (expired, revoked) hold.
    func reach(_ word: SubscriptionStatusFact, current: TransactionFact) -> StatusReach {
        let signed = word.evidence.signedDate ?? Int64.min
        switch word.state {
        case .billingRetry:
            return Self.stillRetrying(expired: current.expiresDate ?? signed, at: at) ? .holds : .ended
        case _ where !word.state.grantsService:
            return .holds
        default:
            break
        }
        if let expires = current.expiresDate, signed < expires { return at < expires ? .holds : .ended }
        // Renewal info signed by the time dates the later period Apple spoke of past it: the word holds through
        // it (a support engineer's trial: status 1 beside renewal info dating March made "active" unknown).
        if word.state == .active, laterPeriod(of: current) != nil { return .holds }
        // Only renewal info of `current`'s period dates its grace: a later period's grace is that period's (a red
        // team's trial: a status 4 signed at this period's failure held past its grace, on a later one's).
        if word.state == .gracePeriod, let original = current.originalTransactionID,
            let graceEnds = (renewals[original] ?? []).filter({ Self.speaks($0, of: current) })
                .compactMap(\.gracePeriodExpiresDate).max()
        {
            // A grace period lies inside billing retry, which ends 60 days after the expiry at the latest (a red
            // team's trial: a gracePeriodExpiresDate in 2032 held in 2026).
            return at < graceEnds && Self.stillRetrying(expired: current.expiresDate ?? signed, at: at)
                ? .holds : .ended
        }
        return at <= signed ? .holds : .unknownAfterSigning
    }

    /// `main` in the state Apple signed: the subscription's newest transaction is not among the documents when
    /// Apple says it grants service and the documents' newest does not (a refund of an earlier period), so its
    /// dates are unknown; the state the documents gave is said in the reason.
    func overruled(_ main: ProductStatus, by word: SubscriptionStatusFact, current: TransactionFact)
        -> ProductStatus
    {
        var stated = main
        let unknownSince = reach(word, current: current) == .unknownAfterSigning
        stated.state = unknownSince ? .unknown : word.state
        let signed = word.evidence.signedDate.map { MillisecondUTC.text($0) } ?? "(no signedDate)"
        let carrier = word.evidence.notification.map { " in notification \($0)" } ?? ""
        stated.reason =
            "Apple signed status \(word.code) (\(word.state.rawValue)) at \(signed)\(carrier); the documents' newest transaction, \(current.transactionID ?? "(no id)"), is \(main.state.rawValue)"
            + (main.reason.map { " (\($0))" } ?? "")
            + (unknownSince
                ? ": the period Apple spoke of is not among the documents, so whether service continues after \(signed) is unknown (give the transaction history)"
                : word.state.grantsService && !main.state.grantsService
                    ? ": a later period's transaction is not among the documents, so its dates are unknown" : "")
        if word.state.grantsService {
            stated.expiresDate = main.state.grantsService ? main.expiresDate : nil
            stated.revocationDate = nil
            stated.endedDate = nil
        } else if main.state.grantsService {
            // Apple says it grants no service, at its signing: it ended by then ("since" its expiry was a date after
            // the time asked, a red team's trial).
            stated.endedDate = [word.evidence.signedDate, main.expiresDate].compactMap { $0 }.min()
        }
        stated.evidence.insert(word.evidence, at: 0)
        return stated
    }

    /// Renewal info signed after the time whose billing grace period, begun by `current`'s expiry at or before the
    /// time, runs past it: the customer was owed service then, though a server could not yet have known it (the
    /// earliest such, a verified one before any other). Only renewal info about `current`'s period counts
    /// (`speaksOf`): one of a later period lapsed since is no grace for this one.
    func laterGrace(of current: TransactionFact) -> RenewalFact? {
        guard let original = current.originalTransactionID, let expires = current.expiresDate, expires <= at else {
            return nil
        }
        return (renewals[original] ?? []).filter { renewal in
            (renewal.evidence.signedDate ?? Int64.min) > at && Self.speaks(renewal, of: current)
                && (renewal.evidence.trust == .verified || current.evidence.trust != .verified)
                && (renewal.gracePeriodExpiresDate.map { $0 > at && $0 > expires } ?? false)
                && Self.stillRetrying(expired: expires, at: at)
        }.min { lhs, rhs in
            (lhs.evidence.trust == .verified ? 0 : 1, lhs.evidence.signedDate ?? Int64.max)
                < (rhs.evidence.trust == .verified ? 0 : 1, rhs.evidence.signedDate ?? Int64.max)
        }
    }

    /// `fact` in `state` on the word of renewal info `later` (its evidence beside, unless it is `renewal`, added
    /// anyway), for the reason `reason` gives with the time it was signed.
    func status(
        _ fact: TransactionFact, _ state: ProductStatus.State, on later: RenewalFact, besides renewal: RenewalFact?,
        reason: (String) -> String
    ) -> ProductStatus {
        let signed = later.evidence.signedDate.map { MillisecondUTC.text($0) } ?? "(no signedDate)"
        var product = status(fact, state, reason: reason(signed))
        if later != renewal { product.evidence.append(later.evidence) }
        return product
    }

    /// Renewal info that tells of a purchase after `current` covering the time: signed at or before the time, its
    /// `renewalDate` (Apple: when the most recent purchase expires) after both `current`'s expiry and the time. That
    /// purchase existed when it was signed and runs to its renewalDate, so the time, between the two, is inside its
    /// period (before the signing, the subscription may have lapsed: that is not said). Only renewal info that
    /// speaks of no failure (not in billing retry, no expiration intent) and of `current`'s product: one that does
    /// tells of a period it did not pay for, or of another product's (a red team's trial: a billing-retry renewal
    /// info with a later renewalDate made a failed subscription "renewed"). The latest signed, a verified one before
    /// any other; none for a `current` that has not expired.
    func laterPeriod(of current: TransactionFact) -> RenewalFact? {
        guard let original = current.originalTransactionID, let expires = current.expiresDate, expires <= at else {
            return nil
        }
        return (renewals[original] ?? []).filter { renewal in
            (renewal.evidence.signedDate.map { $0 <= at } ?? false)
                && (renewal.renewalDate.map { $0 > at && $0 > expires } ?? false)
                && !renewal.isInBillingRetry && renewal.expirationIntent == nil
                && renewal.gracePeriodExpiresDate == nil && renewal.productID == current.productID
                && (renewal.evidence.trust == .verified || current.evidence.trust != .verified)
        }.max { lhs, rhs in
            (lhs.evidence.trust == .verified ? 1 : 0, lhs.evidence.signedDate ?? Int64.min)
                < (rhs.evidence.trust == .verified ? 1 : 0, rhs.evidence.signedDate ?? Int64.min)
        }
    }

    /// Whether `renewal` speaks of `current`'s period: its `renewalDate` (Apple: when the subscription's most recent
    /// purchase expires) is not after `current`'s expiry. A later one tells of a period whose transaction is not
    /// among the documents, and its billing retry, grace period or expiration intent are that period's (a red team's
    /// trial, session 27: renewal info of April placed a subscription lapsed since February in a grace period).
    /// Renewal info that dates no period speaks of the newest one, unless, signed after its expiry, it places the
    /// subscription in a grace period ending more than the longest grace Apple offers after that expiry: that grace
    /// is a later period's (a red team's trial, session 39: renewal info signed 70 days after the expiry, without a
    /// renewalDate, put the lapsed period in a 76-day grace).
    static func speaks(_ renewal: RenewalFact, of current: TransactionFact) -> Bool {
        guard let expires = current.expiresDate else { return true }
        if let renewalDate = renewal.renewalDate { return renewalDate <= expires }
        if let grace = renewal.gracePeriodExpiresDate, let signed = renewal.evidence.signedDate, signed > expires {
            return withinLongestGrace(grace, after: expires)
        }
        return true
    }

    /// Whether a grace period ending at `grace` can have begun at `start` or after: it ends no more than Apple's
    /// longest grace after it.
    static func withinLongestGrace(_ grace: Int64, after start: Int64) -> Bool {
        let (length, overflow) = grace.subtractingReportingOverflow(start)
        return !overflow && length <= longestGracePeriod
    }

    /// The longest billing grace period Apple offers (App Store Connect: 3, 16 or 28 days), and a day for the
    /// clocks.
    static let longestGracePeriod: Int64 = 29 * 86_400_000
}
