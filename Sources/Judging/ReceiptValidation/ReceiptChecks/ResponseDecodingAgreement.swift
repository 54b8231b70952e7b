import ReceiptDiagnostics
import ReceiptModel

/// A verifyReceipt response read for its signed `latest_receipt`: what it says beside it, unsigned — Apple's
/// decoding (`receipt.bundle_id`, `app_item_id`, `receipt_type`), the environment it answered from, its status —
/// must agree with the signed receipt. Anyone can wrap another app's genuine receipt in a response whose decoding
/// names theirs; a backend that takes the response from its client and reads the decoding grants what the
/// signature never said.
struct ResponseDecodingAgreement: ReceiptCheck {
    func findings(_ content: ReceiptContent) -> [Finding] {
        guard let decoding = content.responseDecoding else { return [] }
        var findings: [Finding] = decoding.claims.compactMap { claim in
            // A receipt without the attribute is judged by the attribute checks: nothing to compare with.
            guard let attribute = content.payload.first(claim.field) else { return nil }
            let signed = attribute.text ?? attribute.integer.map(String.init)
            let agrees =
                claim.signed != nil
                && (signed == claim.signed
                    || (attribute.integer != nil && claim.signed.flatMap { Int64($0) } == attribute.integer))
            guard !agrees else { return nil }
            let said = signed.map { "\"\($0)\"" } ?? "a value of another kind"
            let means =
                switch claim.signed {
                case nil: " (not a string: a reader that compares loosely takes it for one)"
                case claim.text: ""
                case let type?: " (a receipt type of \"\(type)\")"
                }
            return Finding(
                .responseDecodingMismatch, at: attribute.offset,
                "the verifyReceipt response's unsigned \(claim.member) (at offset \(claim.offset) of the response) is \"\(claim.text)\"\(means), the signed latest_receipt's \(Self.name(claim.field)) is \(said): the response was put together around another receipt (anyone can), and a reader of it takes another app's or environment's purchases",
                fields: [
                    FindingField("member", claim.member), FindingField("unsigned", claim.text),
                    FindingField("signed", signed ?? ""),
                ])
        }
        if let refusal = decoding.refusal {
            findings.append(
                Finding(
                    .responseDecodingMismatch, at: content.payload.offset,
                    "the verifyReceipt response's unsigned status (at offset \(refusal.offset) of the response) is \(refusal.status), beside a signed latest_receipt: Apple answers with a receipt only with status 0 (or 21006, an expired subscription), so the response was put together (anyone can), and a reader of its status or of the receipt is misled",
                    fields: [
                        FindingField("member", "status"), FindingField("unsigned", refusal.status),
                        FindingField("signed", ""),
                    ]))
        }
        return findings
    }

    static func name(_ field: ReceiptField) -> String {
        switch field {
        case .bundleID: return "bundle id"
        case .appItemID: return "app item id"
        case .receiptType: return "receipt type"
        default: return "attribute \(field.rawValue)"
        }
    }
}
