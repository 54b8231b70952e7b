import ReceiptJSON
import ReceiptJWS

/// A payload object's claims read for people: names for Apple's numbered enumerations, currency units for prices,
/// UTC for millisecond dates. The one reader of claims, for the summary, the facts and `rcpt status`.
package struct Claims {
    package let document: JSONDocument
    package let object: Int

    package init(_ document: JSONDocument, object: Int? = nil) {
        self.document = document
        self.object = object ?? document.root
    }

    package func node(_ name: String) -> Int? { document.member(name, of: object) }

    package func string(_ name: String) -> String? {
        guard let node = node(name), document.nodes[node].kind == .string else { return nil }
        return document.string(node)
    }

    package func integer(_ name: String) -> Int64? {
        guard let node = node(name), document.nodes[node].kind == .number else { return nil }
        return Int64(document.text(node))
    }

    /// Whether the payload gives the claim a value: present and not null (null reads as absent, as Apple's
    /// libraries read it).
    package func isStated(_ name: String) -> Bool {
        node(name).map { document.nodes[$0].kind != .null } ?? false
    }

    package func bool(_ name: String) -> Bool? {
        guard let node = node(name) else { return nil }
        switch document.nodes[node].kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// A millisecond date claim rcpt's verifier reads as a date (not negative, within 2^53); nil otherwise.
    package func milliseconds(_ name: String) -> Int64? {
        guard let node = node(name), document.nodes[node].kind == .number,
            let value = JWSToken.milliseconds(document.text(node)), value > 0
        else { return nil }
        return value
    }

    /// The claim as a person reads it; nil when absent or null.
    package func display(_ name: String) -> String? {
        guard let node = node(name) else { return nil }
        switch document.nodes[node].kind {
        case .null, .object, .array: return nil
        case .string: return document.string(node)
        case .true: return "true"
        case .false: return "false"
        case .number:
            let text = document.text(node)
            if name == "price" || name == "renewalPrice" {
                return PurchaseSummaryPrice.text(text, currency: string("currency"))
            }
            if AppleEnumeration.isNumbered(name) {
                return Int64(text).flatMap { AppleEnumeration.name(of: name, value: $0) }.map { "\($0) (\(text))" }
                    ?? text
            }
            if name.hasSuffix("Date") { return MillisecondUTC.text(ofClaim: text) ?? "\(text) (no usable date)" }
            return text
        }
    }

    /// The fields of `names` the payload carries, in that order.
    package func fields(_ names: [String]) -> [PurchaseSummary.Field] {
        names.compactMap { name in display(name).map { PurchaseSummary.Field(name: name, value: $0) } }
    }
}

extension Claims {
    /// An identifier claim as text, whether Apple wrote it as a string or a number.
    package func identifier(_ name: String) -> String? {
        guard let node = node(name) else { return nil }
        switch document.nodes[node].kind {
        case .string: return document.string(node)
        case .number: return document.text(node)
        default: return nil
        }
    }

    /// Apple's name for a numbered enumeration claim, or its number when Apple defines no such value.
    package func enumeration(_ name: String) -> String? {
        integer(name).map { AppleEnumeration.name(of: name, value: $0) ?? String($0) }
    }
}
