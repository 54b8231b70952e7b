import ReceiptPurchases

/// Subscriptions of more than one customer among one app's documents. One Apple account has one subscription a
/// subscription group, whose original transaction id stays through renewals, upgrades, downgrades and
/// resubscribing; Family Sharing gives a family member one more (`FAMILY_SHARED`, another original). So two
/// originals of one group (or of one product, where a receipt's record names no group), both bought, are two
/// customers' subscriptions: a replay of another customer's genuine token beside this customer's, or documents
/// gathered from two accounts. Two shared ones are two customers' only while both run (a member who changes family,
/// or whose purchaser changes, gets another original after the first ended). Originals that one receipt holds
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
        /// When it began and ended (a revocation, else the latest expiry; nil: not ended).
        var start = Int64.max
        var end: Int64? = Int64.min
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
            subscription.start = min(subscription.start, fact.purchaseDate ?? Int64.min)
            let end = fact.revocationDate ?? fact.expiresDate
            subscription.end = subscription.end.flatMap { known in end.map { max(known, $0) } }
            if fact.evidence.kind == "receipt-record" { subscription.receipts.insert(fact.evidence.document) }
            subscriptions[original] = subscription
        }
        var sharing: [String: Set<String>] = [:]
        for (original, subscription) in subscriptions {
            let ownership = subscription.shared ? "shared " : "bought "
            if let group = subscription.group { sharing[ownership + "group " + group, default: []].insert(original) }
            for product in subscription.products {
                sharing[ownership + "product " + product, default: []].insert(original)
            }
        }
        /// Whether `a` and `b` cannot be one customer's.
        func apart(_ a: String, _ b: String) -> Bool {
            guard let x = subscriptions[a], let y = subscriptions[b], x.receipts.isDisjoint(with: y.receipts) else {
                return false
            }
            guard x.shared else { return true }
            return x.start < (y.end ?? Int64.max) && y.start < (x.end ?? Int64.max)
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
