/// The receipt attributes Apple names, by name: `receipt.first(.bundleID)`, never `first(2)`. Each case's number
/// and name are the field table's row for it (a test holds them together); the table also has the undocumented types.
public enum ReceiptField: Int64, Sendable, CaseIterable {
    case receiptType = 0
    case appItemID = 1
    case bundleID = 2
    case applicationVersion = 3
    case opaqueValue = 4
    case sha1Hash = 5
    case ageRating = 10
    case receiptCreationDate = 12
    case downloadID = 15
    case versionExternalIdentifier = 16
    case inApp = 17
    case originalPurchaseDate = 18
    case originalApplicationVersion = 19
    case expirationDate = 21
    case preorderDate = 32
}

/// The attributes of an in-app purchase record (type 17) Apple names, by name: `record.first(.productID)`.
public enum InAppField: Int64, Sendable, CaseIterable {
    case quantity = 1701
    case productID = 1702
    case transactionID = 1703
    case purchaseDate = 1704
    case originalTransactionID = 1705
    case originalPurchaseDate = 1706
    case productType = 1707
    case expiresDate = 1708
    case webOrderLineItemID = 1711
    case cancellationDate = 1712
    case isTrialPeriod = 1713
    case isInIntroOfferPeriod = 1719
    case promotionalOfferID = 1721
}
