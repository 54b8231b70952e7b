import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptPurchases
import ReceiptValidation

/// The summary of a JWS input, first in the dump and alone under `--brief`: each token's headline, nested tokens
/// under the token that carries them; the transactions of a document holding several (an API response), newest
/// first, one line each.
package enum PurchaseSummaryText {
    static func text(_ inspection: JWSInspection, style: TextStyle) -> String {
        guard !inspection.tokens.isEmpty else { return "" }
        var out = style.bold("Summary") + "\n"
        let top = inspection.tokens
        let table = top.count > 1 && top.allSatisfy { $0.binding.kind == .transaction }
        if table {
            out += "  " + style.dim("\(top.count) transactions, newest first") + "\n"
            let ordered = top.enumerated().sorted { lhs, rhs in
                let (a, b) = (purchased(lhs.element), purchased(rhs.element))
                return a != b ? a > b : lhs.offset < rhs.offset
            }.map(\.element)
            for token in ordered { out += line(token, indent: "  ", style: style) }
            return out
        }
        var pending = top.reversed().map { ($0, "  ") }
        while let (token, indent) = pending.popLast() {
            out += line(token, indent: indent, style: style)
            pending += token.nested.reversed().map { ($0, indent + "  ") }
        }
        return out
    }

    static func line(_ token: JWSVerification, indent: String, style: TextStyle) -> String {
        let summary = PurchaseSummary(token.token.payload, kind: token.binding.kind)
        let place = token.path.isEmpty ? "" : style.dim(TerminalText.safe(token.path) + "  ")
        let verdict = token.isValid ? "" : " " + style.red("(invalid)")
        return indent + place + TerminalText.safe(summary.headline) + verdict + "\n"
    }

    /// A transaction's purchaseDate in milliseconds, for ordering (Int64.min when it has none).
    static func purchased(_ token: JWSVerification) -> Int64 {
        guard let payload = token.token.payload, let node = payload.member("purchaseDate", of: payload.root) else {
            return Int64.min
        }
        return JWSToken.milliseconds(payload.text(node)) ?? Int64.min
    }

    /// Apple's verifyReceipt response, when that is what the input is: labelled as Apple's unsigned decoding.
    package static func response(_ document: JSONDocument, style: TextStyle) -> String {
        style.bold("Apple's verifyReceipt response")
            + style.dim(
                "  (Apple's unsigned decoding: nothing in it is signed; only the receipt in its latest_receipt can be verified)"
            )
            + "\n" + VerifyReceiptResponseSummary(document).lines.map { "  " + TerminalText.safe($0) + "\n" }.joined()
    }

    /// The `summary` object of a token: `kind`, `headline`, and `fields` (each claim's value as a person reads it).
    static func writeJSON(_ token: JWSVerification, to json: inout JSONWriter) {
        let summary = PurchaseSummary(token.token.payload, kind: token.binding.kind)
        json.object("summary") { json in
            json.member("kind", summary.kind)
            json.member("headline", summary.headline)
            json.object("fields") { json in
                for field in summary.fields {
                    json.key(named: field.name)
                    json.string(field.value)
                }
            }
        }
    }
}
