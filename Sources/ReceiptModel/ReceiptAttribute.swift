import ReceiptASN1

/// A decoded attribute value. What it was decoded from is in `ReceiptAttribute.valueTag`.
public enum AttributeValue: Sendable, Hashable {
    /// Text of a string type (UTF8String, IA5String, PrintableString, …).
    case text(String)
    /// A date field: the receipt's own string (it is evidence) and its parsed form when it is a valid date.
    case date(text: String, parsed: ReceiptDate?)
    case integer(Int64)
    /// An INTEGER too large for 64 bits: its two's-complement content in hex.
    case largeInteger(hex: String)
    case boolean(Bool)
    /// Opaque bytes (the raw value octets).
    case raw
    /// Type 17: the nested in-app record.
    case record
    /// The attribute has no readable value OCTET STRING.
    case absent
}

/// `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }` as it stands in the
/// payload: nothing normalised, offsets absolute, undocumented and malformed ones kept.
public struct ReceiptAttribute: Sendable, Hashable {
    /// Absolute offset of the attribute's SEQUENCE (or whatever element stands in its place).
    public var offset: Int
    /// Length of the attribute's whole encoding.
    public var length: Int
    /// The type number, when it is an INTEGER that fits in 64 bits.
    public var type: Int64?
    /// The type INTEGER's content in hex, when it is an INTEGER too large for 64 bits.
    public var typeHex: String?
    /// The version number, when it is an INTEGER that fits in 64 bits.
    public var version: Int64?
    /// Where the value OCTET STRING's content is, in the payload buffer.
    public var valueRange: Range<Int>?
    /// Absolute offset of the first value byte.
    public var valueOffset: Int?
    /// The tag of the ASN.1 element inside the value, when the value holds exactly one element.
    public var valueTag: ASN1Tag?
    public var value: AttributeValue
    /// For type 17 in the receipt: the in-app purchase record.
    public var record: InAppRecord?
    /// Whether this attribute stands in the receipt or inside an in-app record.
    public var scope: FieldScope

    /// An attribute with nothing decoded yet.
    public init(offset: Int, length: Int, scope: FieldScope) {
        self.offset = offset
        self.length = length
        self.scope = scope
        self.value = .absent
    }

    /// The field table's row for this type in this scope, if known.
    public var descriptor: FieldDescriptor? { type.flatMap { FieldTable.descriptor($0, in: scope) } }

    /// A name for people and JSON: the field name, or `type_N` / `unknown` when not in the table.
    public var name: String { FieldTable.displayName(of: type, in: scope) }

    /// The ASN.1 type name of the value, or "OCTET STRING" when the value bytes are not one ASN.1 element.
    public var asn1TypeName: String { valueTag?.name ?? "OCTET STRING" }

    /// Materialises a view: its text as Strings, its record as an `InAppRecord` over the same buffer.
    public init(_ view: AttributeView, context: PayloadContext, toleratesTruncation: Bool) {
        self.init(offset: view.offset, length: view.length, scope: view.scope)
        type = view.type
        version = view.version
        valueRange = view.valueRange
        valueOffset = view.valueOffset
        valueTag = view.valueTag
        let bytes = context.bytes
        func text(_ range: Range<Int>) -> String {
            guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return "" }
            return String(decoding: bytes[range], as: UTF8.self)
        }
        if let range = view.largeTypeRange { typeHex = ASN1Primitives.hex(bytes, range) }
        switch view.value {
        case .text(let range): value = .text(text(range))
        case .date(let range, let parsed): value = .date(text: text(range), parsed: parsed)
        case .integer(let number): value = .integer(number)
        case .largeInteger(let range): value = .largeInteger(hex: ASN1Primitives.hex(bytes, range))
        case .boolean(let flag): value = .boolean(flag)
        case .raw: value = .raw
        case .absent: value = .absent
        case .record(let node):
            value = .record
            record = InAppRecord(offset: context.map.fileOffset(node.offset), length: node.encodedLength, node: node,
                                 context: context, toleratesTruncation: toleratesTruncation)
        }
    }
}

/// One in-app purchase record: the SET of 1701–1722 attributes inside a type-17 attribute. Its attributes are
/// decoded when asked for, from the shared payload buffer; nothing is copied.
public struct InAppRecord: Sendable, Hashable {
    /// Absolute offset of the record's SET.
    public var offset: Int
    public var length: Int
    /// The record's SET as it stands in the payload buffer.
    let node: ASN1Node
    let context: PayloadContext
    let toleratesTruncation: Bool

    init(offset: Int, length: Int, node: ASN1Node, context: PayloadContext, toleratesTruncation: Bool) {
        self.offset = offset
        self.length = length
        self.node = node
        self.context = context
        self.toleratesTruncation = toleratesTruncation
    }

    /// The record's attributes, in order, decoded now.
    public var attributes: [ReceiptAttribute] {
        var result: [ReceiptAttribute] = []
        forEachView { view in
            result.append(ReceiptAttribute(view, context: context, toleratesTruncation: toleratesTruncation))
        }
        return result
    }

    /// Visits the record's attributes as views, in order, decoded now without allocating.
    public func forEachView(_ body: (AttributeView) -> Void) {
        context.bytes.withUnsafeBufferPointer { buffer in
            var decoder = AttributeDecoder(buffer: buffer, map: context.map, limits: context.limits, recording: false,
                                           toleratesTruncation: toleratesTruncation)
            decoder.forEachAttribute(ofRecord: node, body)
        }
    }

    /// The first attribute of `type`.
    public func first(_ type: Int64) -> ReceiptAttribute? { attributes.first { $0.type == type } }

    public static func == (lhs: InAppRecord, rhs: InAppRecord) -> Bool {
        lhs.offset == rhs.offset && lhs.length == rhs.length && lhs.node == rhs.node
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(offset)
        hasher.combine(length)
    }
}
