/// A verified document, typed by its kind.
public enum VerifiedDocument: Sendable, Hashable {
    case receipt(AppReceipt)
    case transaction(JWSTransaction)
    case renewalInfo(JWSRenewalInfo)
    case notification(ServerNotification)
    case appTransaction(AppTransaction)
    /// Every signed document an App Store Server API response (or a document holding several) carries, in order.
    case several([VerifiedDocument])

    /// The kind of the document.
    public var type: DocumentType {
        switch self {
        case .receipt: return .receipt
        case .transaction: return .transaction
        case .renewalInfo: return .renewalInfo
        case .notification: return .notification
        case .appTransaction: return .appTransaction
        case .several: return .other
        }
    }
}
