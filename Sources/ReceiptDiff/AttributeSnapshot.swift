import ReceiptASN1
import ReceiptModel

/// How an attribute is matched with its counterpart: its type, and which occurrence of that type it is (so
/// duplicates pair in order: the first with the first).
struct FieldKey: Hashable, Comparable {
    /// The type as read: a number, an INTEGER too large for 64 bits (hex), or nothing readable.
    enum TypeKey: Hashable, Comparable {
        case number(Int64)
        case hex(String)
        case none

        /// The type key of `attribute`.
        init(_ attribute: ReceiptAttribute) {
            if let type = attribute.type {
                self = .number(type)
            } else if let hex = attribute.typeHex {
                self = .hex(hex)
            } else {
                self = .none
            }
        }

        /// Numbers first (ascending), then oversized types, then attributes without a type.
        static func < (lhs: TypeKey, rhs: TypeKey) -> Bool {
            switch (lhs, rhs) {
            case let (.number(left), .number(right)): return left < right
            case let (.hex(left), .hex(right)):
                return left.count != right.count ? left.count < right.count : left < right
            case (.number, _): return true
            case (.hex, .none): return true
            default: return false
            }
        }
    }

    var type: TypeKey
    var occurrence: Int

    /// Type order, then occurrence order.
    static func < (lhs: FieldKey, rhs: FieldKey) -> Bool {
        lhs.type != rhs.type ? lhs.type < rhs.type : lhs.occurrence < rhs.occurrence
    }
}

/// Numbers occurrences of equal keys in order: 0 for the first, 1 for the second…
struct OccurrenceCounter<Key: Hashable> {
    private var seen: [Key: Int] = [:]

    /// The occurrence number of `key` here, counting it.
    mutating func next(_ key: Key) -> Int {
        let occurrence = seen[key, default: 0]
        seen[key] = occurrence + 1
        return occurrence
    }
}

/// What the diff compares of one attribute (top-level or in an in-app record), kept small: the raw value is a
/// slice of the payload buffer, not a copy.
struct AttributeSnapshot {
    var key: FieldKey
    /// The field table's name, `type_N` for unknown types, `type_0x…` for oversized ones, `untyped` without a type.
    var name: String
    var offset: Int
    /// The whole attribute's encoded length (encoding-level).
    var length: Int
    var version: Int64?
    var asn1: String
    var value: DiffValue
    /// The value OCTET STRING's content (encoding-level when the decoded value is equal).
    var raw: ArraySlice<UInt8>

    /// The snapshot of `attribute`, the `occurrence`-th of its type.
    init(_ attribute: ReceiptAttribute, payload: ReceiptPayload, occurrence: Int) {
        key = FieldKey(type: FieldKey.TypeKey(attribute), occurrence: occurrence)
        name = Self.name(attribute)
        offset = attribute.offset
        length = attribute.length
        version = attribute.version
        asn1 = attribute.asn1TypeName
        raw = payload.valueBytes(attribute)
        value = Self.value(attribute, raw: raw)
    }

    /// The name an attribute goes by in paths.
    static func name(_ attribute: ReceiptAttribute) -> String {
        if let descriptor = attribute.descriptor { return descriptor.name }
        if let type = attribute.type { return "type_\(type)" }
        if let hex = attribute.typeHex { return "type_0x\(hex)" }
        return "untyped"
    }

    /// The decoded value as the diff shows it: dates as the receipt wrote them (evidence), raw bytes as hex.
    static func value(_ attribute: ReceiptAttribute, raw: ArraySlice<UInt8>) -> DiffValue {
        switch attribute.value {
        case .text(let text): return .text(text)
        case .date(let text, _): return .text(text)
        case .integer(let number): return .number(number)
        case .largeInteger(let hex): return .word("0x" + hex)
        case .boolean(let flag): return .bool(flag)
        case .raw, .record: return .bytes(raw)
        case .absent: return .null
        }
    }

    /// The value as a matching key (a transaction id): its text, number or hex; nil when there is none.
    static func keyText(_ attribute: ReceiptAttribute, payload: ReceiptPayload) -> String? {
        switch attribute.value {
        case .text(let text), .date(let text, _): return text
        case .integer(let number): return String(number)
        case .largeInteger(let hex): return "0x" + hex
        case .boolean(let flag): return String(flag)
        case .raw, .record: return ASN1Primitives.hex(payload.valueBytes(attribute))
        case .absent: return nil
        }
    }

    /// The matching keys of a list of attributes, occurrences numbered per type.
    static func keys(_ attributes: [ReceiptAttribute]) -> [FieldKey] {
        // In-app types (1700–1763) are counted in a small table; anything else in a dictionary.
        var counts = [Int](repeating: 0, count: 64)
        var counter = OccurrenceCounter<FieldKey.TypeKey>()
        return attributes.map { attribute in
            let type = FieldKey.TypeKey(attribute)
            if case .number(let number) = type, number >= 1700, number < 1764 {
                let slot = Int(number - 1700)
                defer { counts[slot] += 1 }
                return FieldKey(type: type, occurrence: counts[slot])
            }
            return FieldKey(type: type, occurrence: counter.next(type))
        }
    }

    /// Whether two decoded attributes are the same in every respect the diff compares, encoding included, checked
    /// without building snapshots: most fields of two versions of a record are.
    static func identical(_ a: ReceiptAttribute, _ payloadA: ReceiptPayload, _ b: ReceiptAttribute,
                          _ payloadB: ReceiptPayload) -> Bool {
        a.version == b.version && a.length == b.length && a.valueTag == b.valueTag && a.value == b.value
            && (a.valueRange == nil) == (b.valueRange == nil) && payloadA.valueBytes(a) == payloadB.valueBytes(b)
    }

    /// Snapshots of a list of attributes, occurrences numbered per type.
    static func all(_ attributes: [ReceiptAttribute], payload: ReceiptPayload) -> [AttributeSnapshot] {
        var counter = OccurrenceCounter<FieldKey.TypeKey>()
        return attributes.map { AttributeSnapshot($0, payload: payload, occurrence: counter.next(.init($0))) }
    }

    /// Compares two matched attributes: value, version and ASN.1 type; when those are equal, the encoded length
    /// and raw value bytes (encoding-level). Returns whether anything other than the encoding differs.
    @discardableResult
    static func compare(_ a: AttributeSnapshot, _ b: AttributeSnapshot, valuePath: DiffPath, base: DiffPath,
                        label: String?, into sink: inout ChangeSink) -> Bool {
        sink.compare(valuePath, .receipt, a.value, b.value, offsetA: a.offset, offsetB: b.offset, label: label)
        sink.compare(base.appending("version"), .receipt, a.version.map(DiffValue.number) ?? .null,
                     b.version.map(DiffValue.number) ?? .null, offsetA: a.offset, offsetB: b.offset, label: label)
        sink.compare(base.appending("asn1"), .receipt, .word(a.asn1), .word(b.asn1), offsetA: a.offset,
                     offsetB: b.offset, label: label)
        guard a.value == b.value, a.version == b.version, a.asn1 == b.asn1 else { return true }
        sink.compare(base.appending("encodedLength"), .receipt, .number(Int64(a.length)), .number(Int64(b.length)),
                     offsetA: a.offset, offsetB: b.offset, isEncoding: true, label: label)
        sink.compare(base.appending("raw"), .receipt, .bytes(a.raw), .bytes(b.raw), offsetA: a.offset,
                     offsetB: b.offset, isEncoding: true, label: label)
        return false
    }
}
