import ReceiptPurchases

/// Subscriptions of more than one customer among one app's documents. One Apple account has one subscription a
/// subscription group, whose original transaction id stays through renewals, upgrades, downgrades and
/// resubscribing; Family Sharing gives a family member one more (`FAMILY_SHARED`, another original; a member is in
/// one family). So two originals of one group (or of one product, where a receipt's record names no group), both
/// bought or both shared, are two customers' subscriptions: a replay of another customer's genuine token beside this customer's,
/// or documents gathered from two accounts. `appAccountToken` is not used: an app sets it as it likes (some make one
/// per purchase), so two tokens are not two customers.
enum CustomerMixing {
    /// The most other subscriptions named for one: enough to act on, bounded however many the documents hold.
    static let shownLimit = 8

    /// For each subscription (original transaction id) that has another customer's beside it, those others (sorted,
    /// at most `shownLimit`).
    static func otherCustomers(in facts: [TransactionFact]) -> [String: [String]] {
        var groups: [String: String] = [:]
        var products: [String: Set<String>] = [:]
        var shared: Set<String> = []
        for fact in facts where fact.kind == .autoRenewableSubscription {
            guard let original = fact.originalTransactionID else { continue }
            if groups[original] == nil, let group = fact.subscriptionGroup { groups[original] = group }
            products[original, default: []].insert(fact.productID)
            if fact.isFamilyShared { shared.insert(original) }
        }
        var sharing: [String: Set<String>] = [:]
        for (original, productIDs) in products {
            let ownership = shared.contains(original) ? "shared " : "bought "
            if let group = groups[original] { sharing[ownership + "group " + group, default: []].insert(original) }
            for product in productIDs { sharing[ownership + "product " + product, default: []].insert(original) }
        }
        var others: [String: Set<String>] = [:]
        for originals in sharing.values where originals.count > 1 {
            let sorted = originals.sorted()
            for original in sorted {
                let listed = others[original, default: []]
                guard listed.count < shownLimit else { continue }
                others[original] = listed.union(sorted.lazy.filter { $0 != original }.prefix(shownLimit))
            }
        }
        return others.mapValues { Array($0.sorted().prefix(shownLimit)) }
    }
}
