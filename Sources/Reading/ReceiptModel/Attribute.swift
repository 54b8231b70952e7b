import ReceiptASN1

/// What an attribute's value decoded to (the field table's expectation reconciled with the bytes).
public enum ValueKind: UInt8, Sendable, Hashable {
    /// The attribute has no readable value OCTET STRING.
    case absent
    /// Text of a string type (UTF8String, IA5String, PrintableString, …), checked.
    case text
    /// A date field: the receipt's own text, and its parsed form when it is a valid date.
    case date
    case integer
    /// An INTEGER too large for 64 bits.
    case largeInteger
    case boolean
    /// Opaque bytes (the raw value octets).
    case raw
    /// Type 17: the in-app record.
    case record
}

/// A decoded value, materialised (text as a String). Hot consumers read `Attribute.kind` and the typed accessors
/// instead, which allocate nothing.
public enum AttributeValue: Sendable, Hashable {
    case text(String)
    /// A date field: the receipt's own string (it is evidence) and its parsed form when it is a valid date.
    case date(text: String, parsed: ReceiptDate?)
    case integer(Int64)
    /// An INTEGER too large for 64 bits: its two's-complement content in hex.
    case largeInteger(hex: String)
    case boolean(Bool)
    case raw
    case record
    case absent
}

/// `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }` as it stands in the
/// payload: nothing normalised, offsets in the file, undocumented and malformed ones kept. A read-only view of one
/// entry of the payload's `PayloadIndex`: everything here was decoded by the reading pass.
public struct Attribute: Sendable {
    package let index: PayloadIndex
    package let entry: Int

    init(_ index: PayloadIndex, _ entry: Int) {
        self.index = index
        self.entry = entry
    }

    /// Offset of the attribute's SEQUENCE (or whatever element stands in its place) in the file.
    public var offset: Int { index.table.offset(entry) }
    /// Length of the attribute's whole encoding.
    public var length: Int { index.table.length(entry) }
    /// The type number, when it is an INTEGER that fits in 64 bits.
    public var type: Int64? { index.table.type(entry) }
    /// The type INTEGER's content in hex, when it is an INTEGER too large for 64 bits.
    package var typeHex: String? { index.table.typeHex(entry) }
    /// The version number, when it is an INTEGER that fits in 64 bits.
    public var version: Int64? { index.table.version(entry) }
    /// Where the value octets start in the file, when there is a value.
    public var valueOffset: Int? { index.table.valueOffset(entry) }
    /// The tag of the ASN.1 element inside the value, when the value holds exactly one element.
    package var valueTag: ASN1Tag? { index.table.valueTag(entry) }
    /// What the value decoded to.
    public var kind: ValueKind { index.table.kind(entry) }
    /// Whether this attribute stands in the receipt or inside an in-app record.
    public var scope: FieldScope { index.table.scope(entry) }

    /// The raw value octets (the OCTET STRING's content); empty when there is no value.
    public var valueBytes: ArraySlice<UInt8> { index.table.valueBytes(entry) }

    /// The text of a text or date value, the content of a large INTEGER: the element's content octets, as they
    /// stand in the receipt. Empty for other kinds.
    public var contentBytes: ArraySlice<UInt8> { index.table.bytes[index.table.shownContentRange(entry)] }

    /// Calls `body` with the raw value octets borrowed from the payload (empty when there is no value): no copy and
    /// no slice, for writers that copy them straight into their output.
    package func withValueBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        index.table.withValueBytes(entry, body)
    }

    /// Calls `body` with `contentBytes` borrowed from the payload.
    package func withContentBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        index.table.withContentBytes(entry, body)
    }

    /// The length of the value element's header (tag and length), 0 when the value octets are not one element.
    package var valueHeaderLength: Int {
        guard let value = index.table.valueRange(entry) else { return 0 }
        return max(0, index.table.contentRange(entry).lowerBound - value.lowerBound)
    }

    /// The text of a text or date value.
    public var text: String? {
        switch kind {
        case .text, .date: return String(decoding: contentBytes, as: UTF8.self)
        default: return nil
        }
    }

    /// The number of an integer value.
    public var integer: Int64? { index.table.integer(entry) }

    /// The flag of a boolean value.
    public var boolean: Bool? { index.table.boolean(entry) }

    /// The parsed date of a date value that is a valid date.
    public var date: ReceiptDate? { index.table.date(entry) }

    /// The seconds since the epoch of a date value that is a valid date (without building the date).
    package var dateSeconds: Int64? { index.table.dateSeconds(entry) }

    /// The in-app record this type-17 attribute holds.
    public var record: InAppRecord? { kind == .record ? InAppRecord(index, entry) : nil }

    /// The value, materialised.
    public var value: AttributeValue {
        switch kind {
        case .text: return .text(String(decoding: contentBytes, as: UTF8.self))
        case .date: return .date(text: String(decoding: contentBytes, as: UTF8.self), parsed: date)
        case .integer: return .integer(index.table.number(entry))
        case .largeInteger: return .largeInteger(hex: ASN1Primitives.hex(contentBytes))
        case .boolean: return .boolean(index.table.number(entry) != 0)
        case .raw: return .raw
        case .record: return .record
        case .absent: return .absent
        }
    }

    /// The field table's row for this type in this scope, if known.
    package var descriptor: FieldDescriptor? { type.flatMap { FieldTable.descriptor($0, in: scope) } }

    /// A name for people and JSON: the field name, or `type_N` / `unknown` when not in the table.
    public var name: String { FieldTable.displayName(of: type, in: scope) }

    /// The ASN.1 type name of the value, or "OCTET STRING" when the value bytes are not one ASN.1 element.
    package var asn1TypeName: String { DecodedAttribute.asn1TypeName(of: valueTag) }
}

extension Attribute: Hashable {
    /// The same entry of the same index.
    public static func == (lhs: Attribute, rhs: Attribute) -> Bool { lhs.index === rhs.index && lhs.entry == rhs.entry }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(index))
        hasher.combine(entry)
    }
}

extension Attribute: CustomStringConvertible {
    public var description: String {
        "\(name) (type \(type.map(String.init) ?? "?"), v\(version.map(String.init) ?? "?")) at \(offset): \(value)"
    }
}

/// One in-app purchase record: the SET of 1701–1722 attributes inside a type-17 attribute, a view of the entries
/// that follow that attribute in the index.
public struct InAppRecord: Sendable, Hashable {
    let index: PayloadIndex
    /// The entry of the type-17 attribute holding the record.
    let entry: Int

    init(_ index: PayloadIndex, _ entry: Int) {
        self.index = index
        self.entry = entry
    }

    /// Offset of the record's SET in the file.
    public var offset: Int { index.table.recordOffset(entry) }
    /// Length of the record's SET encoding.
    public var length: Int { index.table.valueRange(entry)?.count ?? 0 }

    /// The type-17 attribute holding the record.
    package var attribute: Attribute { Attribute(index, entry) }

    /// The record's attributes, in order. When the read dropped the record's entries (`InspectionOptions.keepsRecords`
    /// false), they are read again from the record's bytes, into an index of their own.
    public var attributes: AttributeList {
        if index.table.entries[entry].state.entriesDropped,
            let reread = RecordRereader.index(ofDroppedRecord: entry, in: index)
        {
            return AttributeList(reread, entries: 0..<reread.entryCount)
        }
        return AttributeList(index, entries: index.table.children(entry))
    }

    /// The record's first attribute named `field`.
    public func first(_ field: InAppField) -> Attribute? { first(field.rawValue) }

    /// The first attribute of `type`, found by scanning the record's entries' types.
    package func first(_ type: Int64) -> Attribute? {
        guard type >= 0, type < Int64(PayloadIndex.Entry.noType), !index.table.entries[entry].state.entriesDropped
        else { return attributes.first { $0.type == type } }
        let wanted = UInt16(truncatingIfNeeded: type)
        for child in index.table.children(entry) where index.table.entries[child].type == wanted {
            return Attribute(index, child)
        }
        return nil
    }

    /// The record's SET encoding as it stands in the receipt.
    public var bytes: ArraySlice<UInt8> {
        guard let range = index.table.valueRange(entry) else { return [] }
        return index.table.bytes[range]
    }

    public static func == (lhs: InAppRecord, rhs: InAppRecord) -> Bool {
        lhs.index === rhs.index && lhs.entry == rhs.entry
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(index))
        hasher.combine(entry)
    }
}

/// Attributes of the index in order: a payload's top-level ones, or one record's.
public struct AttributeList: RandomAccessCollection, Sendable {
    let index: PayloadIndex
    /// A record's contiguous entries; nil for the top level, listed in `index.topLevel`.
    let entries: Range<Int>?

    init(_ index: PayloadIndex, entries: Range<Int>?) {
        self.index = index
        self.entries = entries
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries?.count ?? index.topLevel.count }

    public subscript(position: Int) -> Attribute {
        if let entries { return Attribute(index, entries.lowerBound + position) }
        return Attribute(index, Int(index.topLevel[position]))
    }
}

/// A payload's in-app records, in order.
public struct RecordList: RandomAccessCollection, Sendable {
    let index: PayloadIndex

    public var startIndex: Int { 0 }
    public var endIndex: Int { index.records.count }

    public subscript(position: Int) -> InAppRecord { InAppRecord(index, Int(index.records[position])) }
}
