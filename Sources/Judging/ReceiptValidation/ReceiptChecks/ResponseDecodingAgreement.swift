import ReceiptDiagnostics
import ReceiptModel

/// A verifyReceipt response read for its signed `latest_receipt`: Apple's unsigned decoding beside it
/// (`receipt.bundle_id`, `app_item_id`, `receipt_type`) must name what the signed receipt names. Anyone can wrap
/// another app's genuine receipt in a response whose decoding names theirs; a backend that takes the response from
/// its client and reads the decoding grants what the signature never said.
struct ResponseDecodingAgreement: ReceiptCheck {
    func findings(_ content: ReceiptContent) -> [Finding] {
        guard let decoding = content.responseDecoding else { return [] }
        return decoding.claims.compactMap { claim in
            // A receipt without the attribute is judged by the attribute checks: nothing to compare with.
            guard let attribute = content.payload.first(claim.field) else { return nil }
            let signed = attribute.text ?? attribute.integer.map(String.init)
            let agrees =
                signed == claim.text
                || (attribute.integer != nil && Int64(claim.text) == attribute.integer)
            guard !agrees else { return nil }
            let said = signed.map { "\"\($0)\"" } ?? "a value of another kind"
            return Finding(
                .responseDecodingMismatch, at: attribute.offset,
                "the verifyReceipt response's unsigned receipt.\(claim.member) (at offset \(claim.offset) of the response) is \"\(claim.text)\", the signed latest_receipt's is \(said): the response was put together around another receipt (anyone can), and a reader of its decoding takes another app's purchases",
                fields: [
                    FindingField("member", "receipt.\(claim.member)"), FindingField("unsigned", claim.text),
                    FindingField("signed", signed ?? ""),
                ])
        }
    }
}
