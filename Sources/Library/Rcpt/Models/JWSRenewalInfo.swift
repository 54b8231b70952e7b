import Foundation

/// Signed renewal info (`JWSRenewalInfoDecodedPayload`), with Apple's field names: whether and to what a
/// subscription renews, and why it stopped.
public struct JWSRenewalInfo: Sendable, Hashable {
    public var expirationIntent: ExpirationIntent?
    public var originalTransactionId: String?
    public var autoRenewProductId: String?
    public var productId: String?
    public var autoRenewStatus: AutoRenewStatus?
    public var isInBillingRetryPeriod: Bool?
    public var priceIncreaseStatus: PriceIncreaseStatus?
    public var gracePeriodExpiresDate: Date?
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var signedDate: Date?
    public var environment: AppStoreEnvironment?
    public var recentSubscriptionStartDate: Date?
    public var renewalDate: Date?
    public var currency: String?
    /// The renewal price in milliunits of `currency`.
    public var renewalPrice: Int64?
    public var offerDiscountType: OfferDiscountType?
    public var eligibleWinBackOfferIds: [String]?
    public var appAccountToken: UUID?
    public var appTransactionId: String?
    public var offerPeriod: String?

    init(_ claims: PayloadClaims) {
        expirationIntent = claims.value("expirationIntent")
        originalTransactionId = claims.identifier("originalTransactionId")
        autoRenewProductId = claims.string("autoRenewProductId")
        productId = claims.string("productId")
        autoRenewStatus = claims.value("autoRenewStatus")
        isInBillingRetryPeriod = claims.bool("isInBillingRetryPeriod")
        priceIncreaseStatus = claims.value("priceIncreaseStatus")
        gracePeriodExpiresDate = claims.date("gracePeriodExpiresDate")
        offerType = claims.value("offerType")
        offerIdentifier = claims.string("offerIdentifier")
        signedDate = claims.date("signedDate")
        environment = claims.value("environment")
        recentSubscriptionStartDate = claims.date("recentSubscriptionStartDate")
        renewalDate = claims.date("renewalDate")
        currency = claims.string("currency")
        renewalPrice = claims.integer("renewalPrice")
        offerDiscountType = claims.value("offerDiscountType")
        eligibleWinBackOfferIds = claims.strings("eligibleWinBackOfferIds")
        appAccountToken = claims.uuid("appAccountToken")
        appTransactionId = claims.identifier("appTransactionId")
        offerPeriod = claims.string("offerPeriod")
    }
}
