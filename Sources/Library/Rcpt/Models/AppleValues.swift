/// One of Apple's enumerations, as a value with a raw-value fallback: a value Apple adds after this release still
/// reads (`rawValue` holds it) and compares unequal to every named constant. The constants are named as Apple's App
/// Store Server Library names them; compare with `==`, or `switch` over the constants.
public protocol AppleValue: RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue: Hashable & Sendable & CustomStringConvertible {
    init(rawValue: RawValue)
}

extension AppleValue {
    public var description: String { rawValue.description }
}

/// The environment a document comes from: `Production`, `Sandbox`, `Xcode` or `LocalTesting`.
public struct AppStoreEnvironment: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let production = AppStoreEnvironment(rawValue: "Production")
    public static let sandbox = AppStoreEnvironment(rawValue: "Sandbox")
    public static let xcode = AppStoreEnvironment(rawValue: "Xcode")
    public static let localTesting = AppStoreEnvironment(rawValue: "LocalTesting")
}

/// A transaction's `type`.
public struct ProductType: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let autoRenewableSubscription = ProductType(rawValue: "Auto-Renewable Subscription")
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
    public static let consumable = ProductType(rawValue: "Consumable")
    public static let nonRenewingSubscription = ProductType(rawValue: "Non-Renewing Subscription")
}

/// A transaction's `inAppOwnershipType`.
public struct InAppOwnershipType: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let familyShared = InAppOwnershipType(rawValue: "FAMILY_SHARED")
    public static let purchased = InAppOwnershipType(rawValue: "PURCHASED")
}

/// A transaction's `transactionReason`.
public struct TransactionReason: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let purchase = TransactionReason(rawValue: "PURCHASE")
    public static let renewal = TransactionReason(rawValue: "RENEWAL")
}

/// `offerDiscountType`.
public struct OfferDiscountType: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let freeTrial = OfferDiscountType(rawValue: "FREE_TRIAL")
    public static let payAsYouGo = OfferDiscountType(rawValue: "PAY_AS_YOU_GO")
    public static let payUpFront = OfferDiscountType(rawValue: "PAY_UP_FRONT")
}

/// A server notification's `notificationType`.
public struct NotificationType: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let consumptionRequest = NotificationType(rawValue: "CONSUMPTION_REQUEST")
    public static let didChangeRenewalPref = NotificationType(rawValue: "DID_CHANGE_RENEWAL_PREF")
    public static let didChangeRenewalStatus = NotificationType(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    public static let didFailToRenew = NotificationType(rawValue: "DID_FAIL_TO_RENEW")
    public static let didRenew = NotificationType(rawValue: "DID_RENEW")
    public static let expired = NotificationType(rawValue: "EXPIRED")
    public static let externalPurchaseToken = NotificationType(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    public static let gracePeriodExpired = NotificationType(rawValue: "GRACE_PERIOD_EXPIRED")
    public static let offerRedeemed = NotificationType(rawValue: "OFFER_REDEEMED")
    public static let oneTimeCharge = NotificationType(rawValue: "ONE_TIME_CHARGE")
    public static let priceIncrease = NotificationType(rawValue: "PRICE_INCREASE")
    public static let refund = NotificationType(rawValue: "REFUND")
    public static let refundDeclined = NotificationType(rawValue: "REFUND_DECLINED")
    public static let refundReversed = NotificationType(rawValue: "REFUND_REVERSED")
    public static let renewalExtended = NotificationType(rawValue: "RENEWAL_EXTENDED")
    public static let renewalExtension = NotificationType(rawValue: "RENEWAL_EXTENSION")
    public static let revoke = NotificationType(rawValue: "REVOKE")
    public static let subscribed = NotificationType(rawValue: "SUBSCRIBED")
    public static let test = NotificationType(rawValue: "TEST")
    /// The customer withdrew consent to share the app's data (`appData` carries the app transaction).
    public static let rescindConsent = NotificationType(rawValue: "RESCIND_CONSENT")
}

/// A server notification's `subtype`.
public struct NotificationSubtype: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let initialBuy = NotificationSubtype(rawValue: "INITIAL_BUY")
    public static let resubscribe = NotificationSubtype(rawValue: "RESUBSCRIBE")
    public static let downgrade = NotificationSubtype(rawValue: "DOWNGRADE")
    public static let upgrade = NotificationSubtype(rawValue: "UPGRADE")
    public static let autoRenewEnabled = NotificationSubtype(rawValue: "AUTO_RENEW_ENABLED")
    public static let autoRenewDisabled = NotificationSubtype(rawValue: "AUTO_RENEW_DISABLED")
    public static let voluntary = NotificationSubtype(rawValue: "VOLUNTARY")
    public static let billingRetry = NotificationSubtype(rawValue: "BILLING_RETRY")
    public static let priceIncrease = NotificationSubtype(rawValue: "PRICE_INCREASE")
    public static let gracePeriod = NotificationSubtype(rawValue: "GRACE_PERIOD")
    public static let pending = NotificationSubtype(rawValue: "PENDING")
    public static let accepted = NotificationSubtype(rawValue: "ACCEPTED")
    public static let billingRecovery = NotificationSubtype(rawValue: "BILLING_RECOVERY")
    public static let productNotForSale = NotificationSubtype(rawValue: "PRODUCT_NOT_FOR_SALE")
    public static let summary = NotificationSubtype(rawValue: "SUMMARY")
    public static let failure = NotificationSubtype(rawValue: "FAILURE")
    public static let unreported = NotificationSubtype(rawValue: "UNREPORTED")
}

/// `offerType`: 1 introductory offer, 2 promotional offer, 3 offer code, 4 win-back offer.
public struct OfferType: AppleValue {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let introductoryOffer = OfferType(rawValue: 1)
    public static let promotionalOffer = OfferType(rawValue: 2)
    public static let offerCode = OfferType(rawValue: 3)
    public static let winBackOffer = OfferType(rawValue: 4)
}

/// `revocationReason`: 0 refunded for another reason, 1 refunded for an issue with the app.
public struct RevocationReason: AppleValue {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let refundedForOtherReason = RevocationReason(rawValue: 0)
    public static let refundedDueToIssue = RevocationReason(rawValue: 1)
}

/// Renewal info's `expirationIntent`.
public struct ExpirationIntent: AppleValue {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let customerCancelled = ExpirationIntent(rawValue: 1)
    public static let billingError = ExpirationIntent(rawValue: 2)
    public static let customerDidNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)
    public static let productNotAvailable = ExpirationIntent(rawValue: 4)
    public static let other = ExpirationIntent(rawValue: 5)
}

/// Renewal info's `autoRenewStatus`: 0 off, 1 on.
public struct AutoRenewStatus: AppleValue {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let off = AutoRenewStatus(rawValue: 0)
    public static let on = AutoRenewStatus(rawValue: 1)
}

/// Renewal info's `priceIncreaseStatus`.
public struct PriceIncreaseStatus: AppleValue {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let customerHasNotResponded = PriceIncreaseStatus(rawValue: 0)
    public static let customerConsentedOrWasNotifiedWithoutNeedingConsent = PriceIncreaseStatus(rawValue: 1)
}

/// A notification's `data.status`: Apple's state of the subscription when it signed.
public struct SubscriptionStatus: AppleValue {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let active = SubscriptionStatus(rawValue: 1)
    public static let expired = SubscriptionStatus(rawValue: 2)
    public static let billingRetry = SubscriptionStatus(rawValue: 3)
    public static let billingGracePeriod = SubscriptionStatus(rawValue: 4)
    public static let revoked = SubscriptionStatus(rawValue: 5)
}

/// A transaction's `revocationType`: how it was refunded or revoked.
public struct RevocationType: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let refundFull = RevocationType(rawValue: "REFUND_FULL")
    public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")
    public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")
}
