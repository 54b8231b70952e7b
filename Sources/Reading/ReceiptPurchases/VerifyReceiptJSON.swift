import ReceiptJSON
import ReceiptJWS

/// Apple's verifyReceipt response JSON read for values: strings, numbers and booleans as their text, dates from
/// their `_ms` twins. The summary and `rcpt status` read it so.
package struct VerifyReceiptJSON {
    package let document: JSONDocument

    package init(document: JSONDocument) { self.document = document }

    /// The member `name` of `object` as text (a string's, a number or boolean as written); nil for anything else.
    package func text(_ name: String, in object: Int) -> String? {
        guard let node = document.member(name, of: object) else { return nil }
        switch document.nodes[node].kind {
        case .string: return document.string(node)
        case .number, .true, .false: return document.text(node)
        default: return nil
        }
    }

    /// The date `name` in milliseconds, from `name_ms` (positive, and read exactly within 2^53); nil otherwise.
    package func milliseconds(_ name: String, in object: Int) -> Int64? {
        text(name + "_ms", in: object).flatMap(JWSToken.milliseconds).flatMap { $0 > 0 ? $0 : nil }
    }
}
