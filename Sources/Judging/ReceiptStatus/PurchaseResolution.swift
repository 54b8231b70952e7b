import ReceiptPurchases

/// The state of a product that does not renew (a consumable, a non-consumable, a non-renewing subscription), from
/// its purchases: consumed or owned while any purchase stands, else refunded or revoked.
extension Resolver {
    /// The units `facts` bought together; nil when one states a quantity that is not a count, or the sum passes
    /// 2^63 − 1: unknown, never a number that was not stated.
    static func units(_ facts: [TransactionFact]) -> Int64? {
        facts.reduce(Int64(0)) { total, fact in
            guard let total, let quantity = fact.quantity else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(quantity)
            return overflow ? nil : sum
        }
    }

    /// A consumable's purchase refunded in part (`revocationType` REFUND_PRORATED, a `revocationPercentage` below
    /// 100 %) as two: the units kept, never revoked, and the units refunded (rounded up), revoked. Apple's
    /// percentage is of the whole transaction, in milliunits. Any other purchase as it is.
    static func splitProrated(_ fact: TransactionFact) -> [TransactionFact] {
        guard fact.revocationDate != nil, fact.revocationType == "REFUND_PRORATED",
            let share = fact.revocationPercentage, share < 100_000, let quantity = fact.quantity
        else { return [fact] }
        let (product, overflow) = quantity.multipliedReportingOverflow(by: share)
        guard !overflow else { return [fact] }
        let refunded = (product + 99_999) / 100_000
        var kept = fact
        (kept.revocationDate, kept.revocationReason, kept.revocationType, kept.quantity) = (
            nil, nil, nil, quantity - refunded
        )
        var gone = fact
        gone.quantity = refunded
        return [kept, gone].filter { ($0.quantity ?? 0) > 0 }
    }

    /// A product that does not renew: consumed or owned while any purchase of it stands, else refunded or revoked.
    func purchase(_ stated: [TransactionFact]) -> ProductStatus? {
        // The most specific kind any statement gives (a JWS transaction names it; a receipt record cannot).
        let kind = stated.map(\.kind).first { $0 != .inAppPurchase } ?? .inAppPurchase
        // A consumable refunded in part keeps the units not refunded (a support engineer's trial: 500 gems, 40 %
        // refunded, read as all 500 refunded).
        let facts = kind == .consumable ? stated.flatMap(Self.splitProrated) : stated
        // A restore is the purchase it restores (Apple: original_transaction_id is "the original's, for a restore"):
        // the refund of one refunds every transaction of that purchase (a red team's trial: a refunded
        // non-consumable stayed OWNED through its restore record). Each consumable is a purchase of its own.
        func purchase(_ fact: TransactionFact) -> String? { fact.originalTransactionID ?? fact.transactionID }
        let refundedPurchases =
            kind == .consumable ? [] : Set(facts.filter { revoked($0) }.compactMap(purchase))
        let standing = facts.filter { fact in
            !revoked(fact) && !(purchase(fact).map { refundedPurchases.contains($0) } ?? false)
        }
        if kind == .unstated, let last = newest(facts) {
            var unknown = status(
                last, .unknown,
                reason:
                    "its type is none Apple documents (Auto-Renewable Subscription, Non-Renewing Subscription, Consumable, Non-Consumable) and it states no expiry: whether it grants service is not known"
            )
            unknown.kind = kind
            return unknown
        }
        if let last = newest(standing) {
            var owned: ProductStatus
            switch kind {
            case .consumable:
                owned = status(
                    last, .consumed,
                    reason: "units bought among the documents; receipts and History V1 leave finished consumables out")
                owned.quantity = Self.units(standing)
                if owned.quantity == nil {
                    owned.reason =
                        "a document states a quantity that is not a count of units (not a whole number from 1 up), so how many were bought is unknown"
                }
                owned.evidence = standing.map(\.evidence)
                // Purchases refunded by then are said beside the count (they showed only among the conflicts).
                let refunded = facts.filter { revoked($0) }
                if !refunded.isEmpty {
                    let units = Self.units(refunded).map { "×\($0)" } ?? "units unknown"
                    let dates = refunded.compactMap(\.revocationDate).map(MillisecondUTC.text).sorted()
                    owned.reason =
                        (owned.reason ?? "") + "; \(units) more refunded or revoked"
                        + (dates.isEmpty ? "" : " (\(dates.joined(separator: ", ")))")
                    owned.evidence += refunded.map(\.evidence)
                }
            case .nonRenewingSubscription:
                owned = status(last, .owned, reason: "a non-renewing subscription: the app decides how long it lasts")
            default:
                owned = status(last, .owned)
            }
            owned.kind = kind
            return owned
        }
        guard let last = newest(facts.filter { revoked($0) }) ?? newest(facts) else { return nil }
        var gone = status(
            last, Self.isFamilyRevocation(last) ? .revoked : .refunded, reason: Self.revocationReason(last))
        gone.kind = kind
        return gone
    }
}
