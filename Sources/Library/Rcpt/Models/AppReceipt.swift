import Foundation
import ReceiptModel

/// A verified App Store receipt, its fields by Apple's names (as verifyReceipt's JSON names them), dates as `Date`.
public struct AppReceipt: Sendable, Hashable {
    /// `receipt_type` as written (`Production`, `ProductionSandbox`, `Xcode` …).
    public var receiptType: String?
    /// The environment the receipt type names.
    public var environment: AppStoreEnvironment?
    public var appItemId: Int64?
    public var bundleId: String?
    public var applicationVersion: String?
    public var originalApplicationVersion: String?
    public var creationDate: Date?
    public var originalPurchaseDate: Date?
    public var expirationDate: Date?
    public var preorderDate: Date?
    /// The in-app purchase records, in the receipt's order.
    public var inApp: [InAppPurchase]

    init(_ receipt: Receipt) {
        receiptType = receipt.first(.receiptType)?.text
        environment = receiptType.flatMap(ReceiptEnvironment.init(receiptType:)).map {
            AppStoreEnvironment(rawValue: $0.rawValue)
        }
        appItemId = receipt.first(.appItemID)?.integer
        bundleId = receipt.first(.bundleID)?.text
        applicationVersion = receipt.first(.applicationVersion)?.text
        originalApplicationVersion = receipt.first(.originalApplicationVersion)?.text
        creationDate = receipt.first(.receiptCreationDate)?.date.map(Date.init(receiptDate:))
        originalPurchaseDate = receipt.first(.originalPurchaseDate)?.date.map(Date.init(receiptDate:))
        expirationDate = receipt.first(.expirationDate)?.date.map(Date.init(receiptDate:))
        preorderDate = receipt.first(.preorderDate)?.date.map(Date.init(receiptDate:))
        inApp = receipt.inAppRecords.map(InAppPurchase.init)
    }
}

/// One in-app purchase record of a receipt (type 17), its fields by Apple's names.
public struct InAppPurchase: Sendable, Hashable {
    public var quantity: Int64?
    public var productId: String?
    public var transactionId: String?
    public var originalTransactionId: String?
    public var purchaseDate: Date?
    public var originalPurchaseDate: Date?
    /// The subscription's expiry; nil for a product that does not renew.
    public var expiresDate: Date?
    /// When the App Store refunded it; nil when it was not.
    public var cancellationDate: Date?
    public var webOrderLineItemId: Int64?
    public var isTrialPeriod: Bool?
    public var isInIntroOfferPeriod: Bool?
    public var promotionalOfferId: String?

    init(_ record: InAppRecord) {
        func date(_ field: InAppField) -> Date? { record.first(field)?.date.map(Date.init(receiptDate:)) }
        quantity = record.first(.quantity)?.integer
        productId = record.first(.productID)?.text
        transactionId = record.first(.transactionID)?.text
        originalTransactionId = record.first(.originalTransactionID)?.text
        purchaseDate = date(.purchaseDate)
        originalPurchaseDate = date(.originalPurchaseDate)
        expiresDate = date(.expiresDate)
        cancellationDate = date(.cancellationDate)
        webOrderLineItemId = record.first(.webOrderLineItemID)?.integer
        isTrialPeriod = record.first(.isTrialPeriod)?.integer.map { $0 != 0 }
        isInIntroOfferPeriod = record.first(.isInIntroOfferPeriod)?.integer.map { $0 != 0 }
        promotionalOfferId = record.first(.promotionalOfferID)?.text
    }
}

extension Date {
    /// The instant a receipt's date names.
    init(receiptDate: ReceiptDate) {
        self.init(timeIntervalSince1970: Double(receiptDate.millisecondsSinceEpoch) / 1000)
    }
}
