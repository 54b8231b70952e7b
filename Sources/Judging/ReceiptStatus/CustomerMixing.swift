import ReceiptPurchases

/// Subscriptions of more than one customer among one app's documents. One Apple account has one subscription a
/// subscription group, whose original transaction id stays through renewals, upgrades, downgrades and
/// resubscribing; Family Sharing gives a family member one more (`FAMILY_SHARED`, another original). So two
/// originals of one group (or of one product, where a receipt's record names no group), both bought, are two
/// customers' subscriptions: a replay of another customer's genuine token beside this customer's, or documents
/// gathered from two accounts. Shared ones never are: a member of a family where two purchasers share one group
/// holds both at once (Apple's subscription statuses list every one of a group; a red team's trial had a genuine
/// member "another customer's"), and one who changes family gets another original. Originals that one receipt holds
/// together are one account's (a receipt is signed for one; it names no ownership, so a family's record sits beside
/// the customer's own). `appAccountToken` is not used: an app sets it as it likes (some make one per
/// purchase), so two tokens are not two customers.
enum CustomerMixing {
    /// The most other subscriptions named for one: enough to act on, bounded however many the documents hold.
    static let shownLimit = 8

    /// What the documents say of one subscription.
    struct Subscription {
        var group: String?
        var products: Set<String> = []
        var shared = false
        /// The receipts holding a record of it.
        var receipts: Set<String> = []
    }

    /// For each subscription (original transaction id) that has another customer's beside it, those others (sorted,
    /// at most `shownLimit`).
    static func otherCustomers(in facts: [TransactionFact]) -> [String: [String]] {
        var subscriptions: [String: Subscription] = [:]
        for fact in facts where fact.kind == .autoRenewableSubscription {
            guard let original = fact.originalTransactionID else { continue }
            var subscription = subscriptions[original] ?? Subscription()
            if subscription.group == nil { subscription.group = fact.subscriptionGroup }
            subscription.products.insert(fact.productID)
            subscription.shared = subscription.shared || fact.isFamilyShared
            if fact.evidence.kind == "receipt-record" { subscription.receipts.insert(fact.evidence.document) }
            subscriptions[original] = subscription
        }
        // The bought subscriptions of each group and product (shared ones are never another customer's).
        var sharing: [String: Set<String>] = [:]
        for (original, subscription) in subscriptions where !subscription.shared {
            if let group = subscription.group { sharing["group " + group, default: []].insert(original) }
            for product in subscription.products { sharing["product " + product, default: []].insert(original) }
        }
        /// Whether `a` and `b` cannot be one customer's: no receipt holds both.
        func apart(_ a: String, _ b: String) -> Bool {
            guard let x = subscriptions[a], let y = subscriptions[b] else { return false }
            return x.receipts.isDisjoint(with: y.receipts)
        }
        var others: [String: Set<String>] = [:]
        for originals in sharing.values where originals.count > 1 {
            let sorted = originals.sorted()
            for original in sorted where (others[original]?.count ?? 0) < shownLimit {
                let found = sorted.lazy.filter { $0 != original && apart(original, $0) }.prefix(shownLimit)
                if !found.isEmpty { others[original, default: []].formUnion(found) }
            }
        }
        return others.mapValues { Array($0.sorted().prefix(shownLimit)) }
    }
}
