import Foundation

/// A signed App Store Server Notification V2 (`ResponseBodyV2DecodedPayload`), with Apple's field names. Its signed
/// transaction and renewal info are verified with it and given decoded (`data.transaction`, `data.renewalInfo`).
public struct ServerNotification: Sendable, Hashable {
    public var notificationType: NotificationType?
    public var subtype: NotificationSubtype?
    public var notificationUUID: String?
    public var version: String?
    public var signedDate: Date?
    /// About one customer's purchase (most notifications).
    public var data: NotificationData?
    /// About every subscriber of a product (`RENEWAL_EXTENSION` / `SUMMARY`): about no one customer.
    public var summary: NotificationSummary?
    /// An external purchase token (`EXTERNAL_PURCHASE_TOKEN`).
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// The app and its app transaction (`RESCIND_CONSENT`).
    public var appData: NotificationAppData?

    init(_ claims: PayloadClaims, nested: (String) -> PayloadClaims?) {
        notificationType = claims.value("notificationType")
        subtype = claims.value("subtype")
        notificationUUID = claims.string("notificationUUID")
        version = claims.string("version")
        signedDate = claims.date("signedDate")
        data = claims.object("data").map { NotificationData($0, nested: nested) }
        summary = claims.object("summary").map(NotificationSummary.init)
        externalPurchaseToken = claims.object("externalPurchaseToken").map(ExternalPurchaseToken.init)
        appData = claims.object("appData").map { NotificationAppData($0, nested: nested) }
    }
}

/// A notification's `appData`: the app, the environment, and the customer's app transaction.
public struct NotificationAppData: Sendable, Hashable {
    public var appAppleId: Int64?
    public var bundleId: String?
    public var environment: AppStoreEnvironment?
    /// `signedAppTransactionInfo`, verified and decoded.
    public var appTransaction: AppTransaction?

    init(_ claims: PayloadClaims, nested: (String) -> PayloadClaims?) {
        appAppleId = claims.integer("appAppleId")
        bundleId = claims.string("bundleId")
        environment = claims.value("environment")
        appTransaction = nested("appData.signedAppTransactionInfo").map(AppTransaction.init)
    }
}

/// A notification's `externalPurchaseToken`.
public struct ExternalPurchaseToken: Sendable, Hashable {
    public var externalPurchaseId: String?
    public var tokenCreationDate: Date?
    public var appAppleId: Int64?
    public var bundleId: String?

    init(_ claims: PayloadClaims) {
        externalPurchaseId = claims.string("externalPurchaseId")
        tokenCreationDate = claims.date("tokenCreationDate")
        appAppleId = claims.integer("appAppleId")
        bundleId = claims.string("bundleId")
    }
}

/// A notification's `data`: the app, the environment, and the customer's transaction and renewal info.
public struct NotificationData: Sendable, Hashable {
    public var environment: AppStoreEnvironment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var bundleVersion: String?
    /// Apple's state of the subscription when it signed.
    public var status: SubscriptionStatus?
    public var consumptionRequestReason: String?
    /// `signedTransactionInfo`, verified and decoded.
    public var transaction: JWSTransaction?
    /// `signedRenewalInfo`, verified and decoded.
    public var renewalInfo: JWSRenewalInfo?

    init(_ claims: PayloadClaims, nested: (String) -> PayloadClaims?) {
        environment = claims.value("environment")
        appAppleId = claims.integer("appAppleId")
        bundleId = claims.string("bundleId")
        bundleVersion = claims.string("bundleVersion")
        status = claims.value("status")
        consumptionRequestReason = claims.string("consumptionRequestReason")
        transaction = nested("data.signedTransactionInfo").map(JWSTransaction.init)
        renewalInfo = nested("data.signedRenewalInfo").map(JWSRenewalInfo.init)
    }
}

/// A notification's `summary`: how a renewal-date extension for every subscriber of a product went.
public struct NotificationSummary: Sendable, Hashable {
    public var requestIdentifier: String?
    public var environment: AppStoreEnvironment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var productId: String?
    public var storefrontCountryCodes: [String]?
    public var failedCount: Int64?
    public var succeededCount: Int64?

    init(_ claims: PayloadClaims) {
        requestIdentifier = claims.string("requestIdentifier")
        environment = claims.value("environment")
        appAppleId = claims.integer("appAppleId")
        bundleId = claims.string("bundleId")
        productId = claims.string("productId")
        storefrontCountryCodes = claims.strings("storefrontCountryCodes")
        failedCount = claims.integer("failedCount")
        succeededCount = claims.integer("succeededCount")
    }
}
