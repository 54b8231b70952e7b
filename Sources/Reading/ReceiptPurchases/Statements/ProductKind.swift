/// What kind of product a purchase is: Apple's `type` of a JWS transaction; a receipt's in-app record says only
/// whether it expires (an auto-renewable subscription) or not (`in-app-purchase`, of a type the receipt omits).
package enum ProductKind: String, Sendable, Hashable {
    case autoRenewableSubscription = "auto-renewable-subscription"
    case nonRenewingSubscription = "non-renewing-subscription"
    case consumable
    case nonConsumable = "non-consumable"
    case inAppPurchase = "in-app-purchase"
    /// A JWS transaction whose `type` is none Apple documents (missing, another spelling) and that states no expiry:
    /// whether it is owned, used up or a subscription is not known, so it grants nothing (it was owned for ever).
    case unstated

    /// The kind Apple's `type` claim names; nil for any other text.
    package init?(appleType: String) {
        switch appleType {
        case "Auto-Renewable Subscription": self = .autoRenewableSubscription
        case "Non-Renewing Subscription": self = .nonRenewingSubscription
        case "Consumable": self = .consumable
        case "Non-Consumable": self = .nonConsumable
        default: return nil
        }
    }
}
