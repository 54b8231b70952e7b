/// The state of a product at a time: Apple's subscription states (active, expired, billing retry, grace period,
/// revoked; the App Store Server API's `status`) and, for products that do not renew, owned, consumed or refunded;
/// unknown where the documents state none (renewal info alone that dates no period).
package enum PurchaseState: String, Sendable, Hashable, CaseIterable {
    case active
    case expired
    case billingRetry = "billing-retry"
    case gracePeriod = "grace-period"
    case revoked
    case owned
    case consumed
    case refunded
    case unknown

    /// Apple's subscription state numbered `code` (1 active, 2 expired, 3 in billing retry, 4 in the billing grace
    /// period, 5 revoked); nil for a number Apple does not define.
    package init?(appleStatusCode code: Int64) {
        let states: [Int64: PurchaseState] = [1: .active, 2: .expired, 3: .billingRetry, 4: .gracePeriod, 5: .revoked]
        guard let state = states[code] else { return nil }
        self = state
    }

    /// Whether the state grants the customer the product's service.
    package var grantsService: Bool { [.active, .gracePeriod, .owned, .consumed].contains(self) }
}
