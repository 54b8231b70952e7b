import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel

/// The receipt's own expiration date (type 21, volume purchase receipts): passed at the time it is judged at, or
/// before the receipt's creation. Apple: "compare this date to the current date to determine whether the receipt is
/// expired" — so it is judged now, unless `--status-at` or a pinned `--at` names another time (a red team's trial: at
/// the default evaluation time, the creation date, an expired licence was valid, while `status` refused it).
struct ReceiptExpiry: ReceiptCheck {
    func findings(_ content: ReceiptContent) -> [Finding] {
        Self.expiry(content.receipt, content.payload, at: content.expiryAt)
    }

    static func expiry(_ receipt: Receipt, _ payload: ReceiptPayload, at time: Int64) -> [Finding] {
        var findings: [Finding] = []
        let instant = ReceiptDate.format(epochSeconds: time)
        if case .date(_, let parsed?)? = payload.first(.expirationDate)?.value, parsed.secondsSinceEpoch <= time {
            findings.append(
                Finding(
                    .receiptExpired, at: payload.first(.expirationDate)?.offset,
                    "the receipt expired at \(parsed.rfc3339UTC), before \(instant), the time its expiry is judged at (now, as Apple compares it with the current date; or --status-at, or a pinned --at)"
                ))
        }
        if let created = receipt.creationDate, case .date(_, let expires?)? = payload.first(.expirationDate)?.value,
            expires.secondsSinceEpoch < created.secondsSinceEpoch
        {
            findings.append(
                Finding(
                    .expirationBeforeCreation, at: payload.first(.expirationDate)?.offset,
                    "expiration_date \(expires.rfc3339UTC) precedes receipt_creation_date \(created.rfc3339UTC)"))
        }
        return findings
    }
}
