import ReceiptPurchases

/// When a subscription moved from one product to another (an upgrade, a downgrade or a crossgrade), worked out once
/// for every transaction, and whether anything about a subscription was said after its period ended.
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
            word.state.grantsService && (word.evidence.signedDate.map { $0 > expires } ?? false)
                && (word.evidence.trust == .verified || current.evidence.trust != .verified)
        }.min { ($0.evidence.signedDate ?? Int64.max) < ($1.evidence.signedDate ?? Int64.max) }
    }

    /// Whether a statement about `current`'s subscription was signed after its expiry (a transaction of it, its
    /// renewal info, Apple's word on its status): the documents then know of any renewal by that time, and show none.
    func spokeSinceExpiry(_ current: TransactionFact, chain: [TransactionFact]) -> Bool {
        guard let expires = current.expiresDate else { return true }
        let original = current.originalTransactionID ?? ""
        let dates =
            chain.compactMap(\.evidence.signedDate) + (renewals[original] ?? []).compactMap(\.evidence.signedDate)
            + (statuses[original] ?? []).compactMap(\.evidence.signedDate) + [lastSigned[original] ?? Int64.min]
        return dates.contains { $0 > expires }
    }
}
