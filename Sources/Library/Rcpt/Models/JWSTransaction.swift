import Foundation

/// A signed transaction (`JWSTransactionDecodedPayload`), with Apple's field names: what a customer bought, when,
/// and whether it was refunded or upgraded. Only a verified token becomes one.
public struct JWSTransaction: Sendable, Hashable {
    public var originalTransactionId: String?
    public var transactionId: String?
    public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: Date?
    public var originalPurchaseDate: Date?
    public var expiresDate: Date?
    public var quantity: Int64?
    public var type: ProductType?
    public var appAccountToken: UUID?
    public var inAppOwnershipType: InAppOwnershipType?
    public var signedDate: Date?
    public var revocationReason: RevocationReason?
    public var revocationDate: Date?
    public var revocationType: RevocationType?
    /// The share of the purchase refunded, in thousandths of a percent (`REFUND_PRORATED`).
    public var revocationPercentage: Int64?
    public var isUpgraded: Bool?
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var environment: AppStoreEnvironment?
    public var storefront: String?
    public var storefrontId: String?
    public var transactionReason: TransactionReason?
    public var currency: String?
    /// The price in milliunits of `currency`.
    public var price: Int64?
    public var offerDiscountType: OfferDiscountType?
    public var appTransactionId: String?
    public var offerPeriod: String?
    /// Base64 of SHA-384 over `deviceVerificationNonce` and the device's id (tokens StoreKit gives a device):
    /// checked when a verifier is given the device id.
    public var deviceVerification: String?
    public var deviceVerificationNonce: UUID?

    init(_ claims: PayloadClaims) {
        originalTransactionId = claims.identifier("originalTransactionId")
        transactionId = claims.identifier("transactionId")
        webOrderLineItemId = claims.identifier("webOrderLineItemId")
        bundleId = claims.string("bundleId")
        productId = claims.string("productId")
        subscriptionGroupIdentifier = claims.identifier("subscriptionGroupIdentifier")
        purchaseDate = claims.date("purchaseDate")
        originalPurchaseDate = claims.date("originalPurchaseDate")
        expiresDate = claims.date("expiresDate")
        quantity = claims.integer("quantity")
        type = claims.value("type")
        appAccountToken = claims.uuid("appAccountToken")
        inAppOwnershipType = claims.value("inAppOwnershipType")
        signedDate = claims.date("signedDate")
        revocationReason = claims.value("revocationReason")
        revocationDate = claims.date("revocationDate")
        revocationType = claims.value("revocationType")
        revocationPercentage = claims.integer("revocationPercentage")
        isUpgraded = claims.bool("isUpgraded")
        offerType = claims.value("offerType")
        offerIdentifier = claims.string("offerIdentifier")
        environment = claims.value("environment")
        storefront = claims.string("storefront")
        storefrontId = claims.string("storefrontId")
        transactionReason = claims.value("transactionReason")
        currency = claims.string("currency")
        price = claims.integer("price")
        offerDiscountType = claims.value("offerDiscountType")
        appTransactionId = claims.identifier("appTransactionId")
        offerPeriod = claims.string("offerPeriod")
        deviceVerification = claims.string("deviceVerification")
        deviceVerificationNonce = claims.uuid("deviceVerificationNonce")
    }
}
