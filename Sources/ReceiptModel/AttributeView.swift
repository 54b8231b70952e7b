import ReceiptASN1

/// An attribute's value as decoded in place: numbers and dates parsed, text checked and left in the payload
/// buffer (ranges index `PayloadContext.bytes`). Nothing here allocates or holds a reference.
public enum DecodedValue: Sendable, Hashable {
    /// Text of a string type, checked (valid UTF-8 for UTF8String, ASCII for the others).
    case text(Range<Int>)
    /// A date field: the receipt's own string and its parsed form when it is a valid date.
    case date(Range<Int>, ReceiptDate?)
    case integer(Int64)
    /// An INTEGER too large for 64 bits: where its two's-complement content is.
    case largeInteger(Range<Int>)
    case boolean(Bool)
    /// Opaque bytes (the raw value octets).
    case raw
    /// Type 17: the in-app record's SET (or the constructed element standing in its place).
    case record(ASN1Node)
    /// The attribute has no readable value OCTET STRING.
    case absent
}

/// One attribute as the payload's single pass decodes it: `ReceiptAttribute`'s facts without its Strings, so
/// visiting every attribute of a receipt costs no allocation. `ReceiptAttribute(view, context:)` materialises it.
public struct AttributeView: Sendable, Hashable {
    /// Absolute offset of the attribute's SEQUENCE (or whatever element stands in its place).
    public var offset: Int
    /// Length of the attribute's whole encoding.
    public var length: Int
    /// The type number, when it is an INTEGER that fits in 64 bits.
    public var type: Int64?
    /// Where the type INTEGER's content is, when it is too large for 64 bits.
    public var largeTypeRange: Range<Int>?
    /// The version number, when it is an INTEGER that fits in 64 bits.
    public var version: Int64?
    /// Where the value OCTET STRING's content is, in the payload buffer.
    public var valueRange: Range<Int>?
    /// Absolute offset of the first value byte.
    public var valueOffset: Int?
    /// The tag of the ASN.1 element inside the value, when the value holds exactly one element.
    public var valueTag: ASN1Tag?
    public var value: DecodedValue
    /// Whether this attribute stands in the receipt or inside an in-app record.
    public var scope: FieldScope

    /// An attribute with nothing decoded yet.
    @inlinable
    public init(offset: Int, length: Int, scope: FieldScope) {
        self.offset = offset
        self.length = length
        self.scope = scope
        self.value = .absent
    }

    /// The field table's expectation for this type in this scope.
    public var kind: FieldKind { type.map { FieldTable.kind(of: $0, in: scope) } ?? .unknown }

    /// The field table's row for this type in this scope, if known.
    public var descriptor: FieldDescriptor? { type.flatMap { FieldTable.descriptor($0, in: scope) } }

    /// The field name, `type_N`, or `unknown` (see `FieldTable.displayName`).
    public var name: String { FieldTable.displayName(of: type, in: scope) }

    /// The ASN.1 type name of the value, or "OCTET STRING" when the value bytes are not one ASN.1 element.
    public var asn1TypeName: String { valueTag?.name ?? "OCTET STRING" }
}
