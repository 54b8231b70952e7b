import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel

/// A readable receipt's content being judged: its payload, what is expected of it, and the times it is judged at.
struct ReceiptContent {
    let receipt: Receipt
    let payload: ReceiptPayload
    let expectations: Expectations
    /// The chain's evaluation time.
    let evaluatedAt: Int64
    /// When the receipt's own expiration_date is judged: Apple compares it with the current date.
    let expiryAt: Int64
    /// When subscriptions are judged active or expired.
    let statusAt: Int64
    let now: Int64
    /// The record checks the reading pass ran, if it ran them.
    let streamed: StreamedRecordChecks?
    /// A verifyReceipt response's unsigned decoding beside the receipt, when the receipt was read from one.
    let responseDecoding: VerifyReceiptDecoding?
}

/// One check of a receipt's content, in the manner of swift-certificates' `VerifierPolicy`: every outcome is a
/// finding. `ReceiptChecks.all` lists them in the order they run.
protocol ReceiptCheck: Sendable {
    func findings(_ content: ReceiptContent) -> [Finding]
}

/// Checks of the receipt's content: required attributes, the expected app and device, its dates, expiry and the
/// in-app records at the evaluation time. Adding a check is one type conforming to `ReceiptCheck`, in a file of
/// its own, and one line in `all`.
enum ReceiptChecks {
    static let all: [any ReceiptCheck] = [
        RequiredAttributes(),  // what every App Store receipt carries, and a 20-byte device hash
        ExpectedValues(),  // the bundle id, version, environment, app id and device expected
        ResponseDecodingAgreement(),  // a verifyReceipt response's unsigned decoding names the signed receipt's app
        CreationDateCheck(),  // a date, not in the future, not before the app's original purchase
        ReceiptExpiry(),  // expired by the current time (or --status-at, or a pinned --at), or before its creation
        InAppRecordChecks(),  // every in-app record, at the status time
    ]

    /// `time`: the chain's evaluation time; `statusAt`: when subscriptions are judged active or expired;
    /// `expiryAt`: when the receipt's own expiration_date is (nil: at `time`). `streamed`: the record checks the
    /// reading pass ran, if it ran them. `responseDecoding`: what the verifyReceipt response the receipt came in says
    /// of it, unsigned.
    static func check(
        _ receipt: Receipt, expectations: Expectations, at time: Int64, statusAt: Int64, expiryAt: Int64? = nil,
        now: Int64, streamed: StreamedRecordChecks? = nil, responseDecoding: VerifyReceiptDecoding? = nil
    ) -> [Finding] {
        guard let payload = receipt.payload, receipt.error == nil else { return [] }
        let content = ReceiptContent(
            receipt: receipt, payload: payload, expectations: expectations, evaluatedAt: time,
            expiryAt: expiryAt ?? time, statusAt: statusAt, now: now, streamed: streamed,
            responseDecoding: responseDecoding)
        return all.flatMap { $0.findings(content) }
    }
}
