import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel

/// The creation date must be a date, not in the future, and not before the app was first bought.
struct CreationDateCheck: ReceiptCheck {
    func findings(_ content: ReceiptContent) -> [Finding] {
        Self.creationDate(content.receipt, content.payload, now: content.now)
    }

    static func creationDate(_ receipt: Receipt, _ payload: ReceiptPayload, now: Int64) -> [Finding] {
        // A receipt without one is reported as missing-required-attribute.
        guard let attribute = payload.first(.receiptCreationDate) else { return [] }
        let created: ReceiptDate
        switch attribute.value {
        case .date(_, let parsed?):
            created = parsed
        case .date(let text, nil) where !text.isEmpty:
            return []  // reported as value-invalid-date
        default:
            return [
                Finding(
                    .creationDateMissing, at: attribute.offset,
                    "receipt_creation_date holds no date, so nothing can be evaluated at it")
            ]
        }
        var findings: [Finding] = []
        if created.secondsSinceEpoch > now + 86_400 {
            findings.append(
                Finding(
                    .creationDateInFuture, at: attribute.offset,
                    "the receipt claims to be created at \(created.rfc3339UTC), after today"))
        }
        if case .date(_, let original?)? = payload.first(.originalPurchaseDate)?.value,
            original.secondsSinceEpoch > created.secondsSinceEpoch
        {
            findings.append(
                Finding(
                    .creationBeforeOriginalPurchase, at: attribute.offset,
                    "the receipt is created at \(created.rfc3339UTC), before the app's original purchase at \(original.rfc3339UTC)"
                ))
        }
        return findings
    }
}
