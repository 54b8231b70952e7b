import Foundation

/// A signed app transaction (`AppTransaction`), with Apple's field names: the customer's purchase of the app itself.
public struct AppTransaction: Sendable, Hashable {
    public var receiptType: AppStoreEnvironment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var applicationVersion: String?
    public var versionExternalIdentifier: Int64?
    public var receiptCreationDate: Date?
    public var originalPurchaseDate: Date?
    public var originalApplicationVersion: String?
    public var deviceVerification: String?
    public var deviceVerificationNonce: UUID?
    public var preorderDate: Date?
    public var appTransactionId: String?
    public var originalPlatform: String?

    init(_ claims: PayloadClaims) {
        receiptType = claims.value("receiptType")
        appAppleId = claims.integer("appAppleId")
        bundleId = claims.string("bundleId")
        applicationVersion = claims.string("applicationVersion")
        versionExternalIdentifier = claims.integer("versionExternalIdentifier")
        receiptCreationDate = claims.date("receiptCreationDate")
        originalPurchaseDate = claims.date("originalPurchaseDate")
        originalApplicationVersion = claims.string("originalApplicationVersion")
        deviceVerification = claims.string("deviceVerification")
        deviceVerificationNonce = claims.uuid("deviceVerificationNonce")
        preorderDate = claims.date("preorderDate")
        appTransactionId = claims.identifier("appTransactionId")
        originalPlatform = claims.string("originalPlatform")
    }
}
