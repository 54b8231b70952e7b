import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptPurchases

/// A transaction's quantity counts the units bought: a whole number in `RecordChecks.quantityRange`, as a receipt
/// record's must be (`quantity-out-of-range`). Apple never signs 0, a negative number or a fraction; a server that
/// multiplies by it credits nothing, or takes units back, and `rcpt status` cannot count the units.
struct TokenQuantity: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        guard judgement.binding.kind == .transaction, let payload = judgement.token.payload,
            payload.nodes.first?.kind == .object
        else { return }
        let claims = Claims(payload)
        // A quantity of another type is `jws-claim-type`'s.
        guard let node = claims.node("quantity"), payload.nodes[node].kind == .number else { return }
        if let quantity = claims.integer("quantity"), RecordChecks.quantityRange.contains(quantity) { return }
        let range = RecordChecks.quantityRange
        judgement.findings.append(
            Finding(
                .quantityOutOfRange, at: judgement.payloadOffset(payload.nodes[node].start),
                "quantity is \(payload.text(node).prefix(24)), not a whole number from \(range.lowerBound) to \(range.upperBound)",
                fields: [FindingField("path", "quantity")]))
    }
}
