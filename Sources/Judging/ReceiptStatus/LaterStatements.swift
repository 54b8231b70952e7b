import ReceiptPurchases

/// What statements after a subscription's period say of it: the product it moved to (an upgrade, a downgrade or a
/// crossgrade, worked out once for every transaction), a later purchase renewal info dates, Apple's word that it
/// still granted service, or nothing at all (then whether it renewed is not known).
extension Resolver {
    /// For each transaction's (subscription, product, purchase), the first purchase at or after it of another product
    /// of the same subscription: from the latest purchase back, keeping the earliest purchase seen and the earliest
    /// of any other product.
    static func changes(of transactions: [TransactionFact]) -> [ChangeKey: Change] {
        var chains: [String: [(product: String, purchased: Int64)]] = [:]
        for fact in transactions where fact.kind == .autoRenewableSubscription {
            guard let purchased = fact.purchaseDate else { continue }
            chains[chainKey(fact), default: []].append((fact.productID, purchased))
        }
        var changes: [ChangeKey: Change] = [:]
        for (chain, entries) in chains {
            let sorted = entries.sorted { $0.purchased > $1.purchased }
            // The earliest purchase seen so far (at or after the current one) and the earliest of another product.
            var first: (product: String, purchased: Int64)?
            var second: (product: String, purchased: Int64)?
            var index = 0
            while index < sorted.count {
                // Purchases at the same instant are seen together: "at or after" includes them.
                var end = index
                while end < sorted.count, sorted[end].purchased == sorted[index].purchased { end += 1 }
                for entry in sorted[index..<end] {
                    if first == nil || entry.purchased <= (first?.purchased ?? Int64.max) {
                        if let previous = first, previous.product != entry.product { second = previous }
                        first = entry
                    } else if entry.product != first?.product,
                        second == nil || entry.purchased < (second?.purchased ?? Int64.max)
                    {
                        second = entry
                    }
                }
                for entry in sorted[index..<end] {
                    let other = first?.product != entry.product ? first : second
                    if let other {
                        changes[ChangeKey(chain: chain, product: entry.product, purchased: entry.purchased)] =
                            Change(date: other.purchased, product: other.product)
                    }
                }
                index = end
            }
        }
        return changes
    }

    /// Apple's word, signed after `current`'s period ended, that the subscription granted service then (status 1 or
    /// 4): it tells of a later period (the earliest such).
    func laterGrantingWord(_ current: TransactionFact) -> SubscriptionStatusFact? {
        guard let expires = current.expiresDate, let original = current.originalTransactionID else { return nil }
        return (statuses[original] ?? []).filter { word in
            // Active: a grace period (4) speaks of the failed renewal of this period, not of a later one.
            word.state == .active && (word.evidence.signedDate.map { $0 > expires } ?? false)
                && (word.evidence.trust == .verified || current.evidence.trust != .verified)
        }.min { ($0.evidence.signedDate ?? Int64.max) < ($1.evidence.signedDate ?? Int64.max) }
    }

    /// Renewal info of `current`'s product, signed after its period ended and speaking of no failure, whose
    /// `renewalDate` (when the most recent purchase expires) is after that period: a later purchase existed (the one
    /// that runs latest).
    func laterRenewal(_ current: TransactionFact) -> RenewalFact? {
        guard let expires = current.expiresDate, let original = current.originalTransactionID else { return nil }
        return (renewals[original] ?? []).filter { renewal in
            (renewal.evidence.signedDate.map { $0 > expires } ?? false)
                && (renewal.renewalDate.map { $0 > expires } ?? false) && !renewal.isInBillingRetry
                && renewal.expirationIntent == nil && renewal.productID.map { $0 == current.productID } ?? true
                && (renewal.evidence.trust == .verified || current.evidence.trust != .verified)
        }.max { ($0.renewalDate ?? Int64.min) < ($1.renewalDate ?? Int64.min) }
    }

    /// `current`'s subscription when renewal info signed after its period ended dates a later purchase
    /// (`laterRenewal`): `unknown` before that purchase expires (it renewed; whether the later period had begun by the
    /// time is not known: a red team's trial had it EXPIRED), `expired` after it with auto-renew off; nil otherwise.
    func renewedLater(_ current: TransactionFact) -> ProductStatus? {
        guard let later = laterRenewal(current), let ends = later.renewalDate else { return nil }
        let signed = later.evidence.signedDate.map { MillisecondUTC.text($0) } ?? "(no signedDate)"
        var found: ProductStatus
        if ends > at {
            found = status(
                current, .unknown,
                reason:
                    "renewal info signed \(signed) says a later purchase expires at \(MillisecondUTC.text(ends)); whether it had begun by this time is not known (give the transaction history)"
            )
        } else if later.autoRenewOn == false {
            found = status(
                current, .expired,
                reason: "auto-renew was off: renewal info signed \(signed) says the later purchase expired then")
            found.endedDate = ends
        } else {
            return nil
        }
        found.evidence.append(later.evidence)
        return found
    }

    /// Renewal info that speaks of a later period than `current`'s (`speaks`), signed after `current` expired: the
    /// subscription renewed after it. When the newest such signed by the time says a renewal failed and places the
    /// time in a grace period (no longer than Apple's longest after its signing), the time is in that grace period;
    /// newer renewal info that says otherwise (the customer cancelled) ends it. When one signed after the time says a
    /// renewal failed, whether the later period had begun by then is not known (the earliest such). A red team's
    /// trial: renewal info of a later failure, without a renewalDate, was taken for this period's (a grace of 76
    /// days), and then, when it was not, for nothing (EXPIRED though it said the customer was in grace); a
    /// reviewer's: newer renewal info saying the customer cancelled did not end that grace.
    func laterFailure(_ current: TransactionFact) -> ProductStatus? {
        guard let expires = current.expiresDate, let original = current.originalTransactionID else { return nil }
        let later = (renewals[original] ?? []).filter { renewal in
            (renewal.evidence.signedDate.map { $0 > expires } ?? false) && !Self.speaks(renewal, of: current)
                && (renewal.evidence.trust == .verified || current.evidence.trust != .verified)
        }
        func signed(_ renewal: RenewalFact) -> Int64 { renewal.evidence.signedDate ?? Int64.min }
        if let newest = later.filter({ signed($0) <= at }).max(by: { signed($0) < signed($1) }),
            newest.isInBillingRetry, let grace = newest.gracePeriodExpiresDate, grace > at,
            Self.withinLongestGrace(grace, after: signed(newest))
        {
            var found = status(
                current, .gracePeriod,
                reason:
                    "renewal info signed \(MillisecondUTC.text(signed(newest))) tells of a later period, whose transaction is not among the documents: its renewal failed, and service continues in the billing grace period"
            )
            found.gracePeriodExpiresDate = grace
            found.evidence.append(newest.evidence)
            return found
        }
        guard
            let failure = later.filter({ $0.isInBillingRetry && signed($0) > at }).min(by: { signed($0) < signed($1) })
        else { return nil }
        var found = status(
            current, .unknown,
            reason:
                "renewal info signed \(MillisecondUTC.text(signed(failure))) tells of a later period, whose transaction is not among the documents (its renewal failed then): the subscription renewed after this one expired, and whether it had by this time is not known (give the transaction history)"
        )
        found.evidence.append(failure.evidence)
        return found
    }

    /// Whether a statement about `current`'s subscription was signed after its last known period ended (its own, or
    /// the later one renewal info dates): a transaction of it, its renewal info, Apple's word on its status. The
    /// documents then know of any renewal by that time, and show none. A page of a history that says more pages
    /// follow is no such statement: the renewal may stand on a later page.
    func spokeSinceExpiry(_ current: TransactionFact, chain: [TransactionFact]) -> Bool {
        guard let own = current.expiresDate else { return true }
        return spoke(after: max(own, laterRenewal(current)?.renewalDate ?? Int64.min), of: current, chain: chain)
    }

    /// Whether a statement about `current`'s subscription (as `spokeSinceExpiry` counts them) was signed after
    /// `instant`.
    func spoke(after instant: Int64, of current: TransactionFact, chain: [TransactionFact]) -> Bool {
        let original = current.originalTransactionID ?? ""
        let dates =
            chain.filter { !$0.evidence.fromPartialPage }.compactMap(\.evidence.signedDate)
            + (renewals[original] ?? []).compactMap(\.evidence.signedDate)
            + (statuses[original] ?? []).compactMap(\.evidence.signedDate) + [lastSigned[original] ?? Int64.min]
        return dates.contains { $0 > instant }
    }

    /// `current`'s subscription when renewal info put it in billing retry and the 60 days of retry have passed:
    /// `expired` when a statement signed after them shows no recovery, else `unknown` (the retry may have succeeded:
    /// a support engineer's trial had it EXPIRED from a statement signed at the failure).
    func retryEnded(_ current: TransactionFact, since: RenewalFact, chain: [TransactionFact]) -> ProductStatus {
        let expires = current.expiresDate ?? Int64.min
        let (end, overflow) = expires.addingReportingOverflow(Self.billingRetryLimit)
        let retryEnd = overflow ? Int64.max : end
        if spoke(after: retryEnd, of: current, chain: chain) {
            return status(
                current, .expired,
                reason: "the App Store retries a failed renewal for at most 60 days; they have passed")
        }
        let signed = since.evidence.signedDate.map { MillisecondUTC.text($0) } ?? "(no signedDate)"
        return status(
            current, .unknown,
            reason:
                "renewal info signed \(signed) says the App Store was retrying to bill; it retries until \(MillisecondUTC.text(retryEnd)) at the latest, and no document signed since says whether it recovered (give the transaction history or the subscription's status)"
        )
    }

    /// `current`'s subscription, expired by the time, when renewal info said auto-renew was off: `expired` when
    /// that (or any statement) was signed after the expiry, else `unknown` (the customer may have turned auto-renew
    /// back on before it: a support engineer's trial).
    func autoRenewOff(_ current: TransactionFact, since: RenewalFact, chain: [TransactionFact]) -> ProductStatus {
        if spokeSinceExpiry(current, chain: chain) {
            return status(current, .expired, reason: "auto-renew was off")
        }
        let signed = since.evidence.signedDate.map { MillisecondUTC.text($0) } ?? "(no signedDate)"
        let expires = current.expiresDate.map { MillisecondUTC.text($0) } ?? "(no expiresDate)"
        return status(
            current, .unknown,
            reason:
                "auto-renew was off when renewal info was signed, \(signed): it expired at \(expires) unless the customer turned auto-renew back on before then, and no document signed since says (give the transaction history or the subscription's status)"
        )
    }
}
