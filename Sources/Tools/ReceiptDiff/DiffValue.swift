/// One side of a change, typed the way JSON shows it.
package enum DiffValue: Sendable, Hashable {
    /// A string from the receipt (a bundle id, a date as written): quoted in text output.
    case text(String)
    /// A name, a status or a formatted fact (an algorithm, `valid`, a certificate date): bare in text output.
    case word(String)
    case number(Int64)
    /// A JWS date claim: epoch milliseconds as the payload writes them (JSON output keeps them as they are; text
    /// output adds the UTC time, as `dump` does).
    case epochMilliseconds(String)
    case bool(Bool)
    /// Raw bytes, shown as lowercase hex. A slice of the input: nothing is copied.
    case bytes(ArraySlice<UInt8>)
    indirect case list([DiffValue])
    /// A whole item that was added or removed (an in-app record, a certificate), field by field.
    indirect case fields([DiffField])
    /// Present but without a value (an attribute whose value OCTET STRING is missing).
    case null
}

/// One named field of a `DiffValue.fields` value.
package struct DiffField: Sendable, Hashable {
    package var name: String
    package var value: DiffValue
}

extension DiffValue {
    /// An optional string as a bare word, or nil.
    static func word(_ text: String?) -> DiffValue? { text.map(DiffValue.word) }

    /// An optional number, or nil.
    static func number(_ value: Int64?) -> DiffValue? { value.map(DiffValue.number) }
}
