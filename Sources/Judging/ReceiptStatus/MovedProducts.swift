import ReceiptPurchases

/// The products a subscription moved away from: each expired at the purchase of the product it moved to (an upgrade
/// at once, a downgrade or crossgrade at the renewal), or revoked.
extension Resolver {
    /// The states of `chain`'s products other than `current`'s, whose state is `main`.
    func movedAway(_ chain: [TransactionFact], current: TransactionFact, main: ProductStatus) -> [ProductStatus] {
        var states: [ProductStatus] = []
        // The purchases Apple notified as upgrades (DID_CHANGE_RENEWAL_PREF/UPGRADE), indexed once.
        let upgradeNotified = Set(
            chain.filter { $0.evidence.notification?.hasSuffix("/UPGRADE") == true }.map {
                UpgradeKey(product: $0.productID, purchased: $0.purchaseDate)
            })
        // The products this subscription moved away from: expired from the purchase of the product it moved to.
        for facts in Self.grouped(chain.filter { $0.productID != current.productID }, by: \.productID) {
            guard let last = newest(facts) else { continue }
            var moved: ProductStatus
            if revoked(last) {
                moved = status(last, .revoked, reason: Self.revocationReason(last))
            } else {
                // The product the subscription moved to next (not its latest, when it moved more than once).
                let change = self.change(last)
                let next = change?.product ?? current.productID
                // Apple's notification of the new product's purchase says an upgrade too (a support engineer's
                // trial: notifications alone read "changed to").
                let saysUpgrade = upgradeNotified.contains(UpgradeKey(product: next, purchased: change?.date))
                if upgraded(last) || saysUpgrade {
                    moved = status(last, .expired, reason: "upgraded to " + next)
                } else if let change, let expires = last.expiresDate, change.date > expires {
                    // Bought after the old product had expired: a lapse, then a new subscription, not a change.
                    moved = status(
                        last, .expired,
                        reason:
                            "expired; the subscription resumed with \(next) at \(MillisecondUTC.text(change.date)), "
                            + "after a gap (a resubscription, not a change of plan)")
                } else {
                    moved = status(last, .expired, reason: "the subscription changed to " + next)
                }
                moved.endedDate = [last.expiresDate, change?.date].compactMap { $0 }.min()
            }
            moved.subscriptionGroup = moved.subscriptionGroup ?? main.subscriptionGroup
            states.append(moved)
        }
        return states
    }

    /// A purchase of a product, as an upgrade's notification names it.
    struct UpgradeKey: Hashable {
        var product: String
        var purchased: Int64?
    }
}
