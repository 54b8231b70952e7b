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
        init(_ attribute: Attribute) {
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
            case (.number(let left), .number(let right)): return left < right
            case (.hex(let left), .hex(let right)):
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

/// An attribute of the index with the key it is matched by: what the diff compares (top-level or in an in-app
/// record). Values are read from the index when compared; nothing is copied.
struct KeyedAttribute {
    var key: FieldKey
    var attribute: Attribute

    /// `attribute`, the `occurrence`-th of its type.
    init(_ attribute: Attribute, occurrence: Int) {
        key = FieldKey(type: FieldKey.TypeKey(attribute), occurrence: occurrence)
        self.attribute = attribute
    }

    var offset: Int { attribute.offset }

    /// The field table's name, `type_N` for unknown types, `type_0x…` for oversized ones, `untyped` without a type.
    var name: String {
        if let descriptor = attribute.descriptor { return descriptor.name }
        if let type = attribute.type { return "type_\(type)" }
        if let hex = attribute.typeHex { return "type_0x\(hex)" }
        return "untyped"
    }

    /// The decoded value as the diff shows it: dates as the receipt wrote them (evidence), raw bytes as hex.
    var value: DiffValue { Self.value(attribute) }

    static func value(_ attribute: Attribute) -> DiffValue {
        switch attribute.kind {
        case .text, .date: return .text(attribute.text ?? "")
        case .integer: return .number(attribute.integer ?? 0)
        case .largeInteger: return .word("0x" + ASN1Primitives.hex(attribute.contentBytes))
        case .boolean: return .bool(attribute.boolean ?? false)
        case .raw, .record: return .bytes(attribute.valueBytes)
        case .absent: return .null
        }
    }

    /// The value as a matching key (a transaction id): its text, number or hex; nil when there is none.
    static func keyText(_ attribute: Attribute) -> String? {
        switch attribute.kind {
        case .text, .date: return attribute.text
        case .integer: return attribute.integer.map { String($0) }
        case .largeInteger: return "0x" + ASN1Primitives.hex(attribute.contentBytes)
        case .boolean: return attribute.boolean.map { String($0) }
        case .raw, .record: return ASN1Primitives.hex(attribute.valueBytes)
        case .absent: return nil
        }
    }

    /// The matching keys of a list of attributes, occurrences numbered per type.
    static func keys(_ attributes: AttributeList) -> [FieldKey] {
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

    /// Whether two attributes are the same in every respect the diff compares, encoding included.
    static func identical(_ a: Attribute, _ b: Attribute) -> Bool {
        a.version == b.version && a.length == b.length && a.valueTag == b.valueTag && a.kind == b.kind
            && (a.valueOffset == nil) == (b.valueOffset == nil) && a.valueBytes == b.valueBytes
            && a.date == b.date
    }

    /// A list of attributes keyed, occurrences numbered per type.
    static func all(_ attributes: AttributeList) -> [KeyedAttribute] {
        var counter = OccurrenceCounter<FieldKey.TypeKey>()
        return attributes.map { KeyedAttribute($0, occurrence: counter.next(.init($0))) }
    }

    /// Compares two matched attributes: value, version and ASN.1 type; when those are equal, the encoded length
    /// and raw value bytes (encoding-level). Returns whether anything other than the encoding differs.
    @discardableResult
    static func compare(
        _ a: KeyedAttribute, _ b: KeyedAttribute, valuePath: DiffPath, base: DiffPath,
        label: String?, into sink: inout ChangeSink
    ) -> Bool {
        let valueA = a.value
        let valueB = b.value
        let versionA = a.attribute.version
        let versionB = b.attribute.version
        let asn1A = a.attribute.asn1TypeName
        let asn1B = b.attribute.asn1TypeName
        sink.compare(valuePath, .receipt, valueA, valueB, offsetA: a.offset, offsetB: b.offset, label: label)
        sink.compare(
            base.appending("version"), .receipt, versionA.map(DiffValue.number) ?? .null,
            versionB.map(DiffValue.number) ?? .null, offsetA: a.offset, offsetB: b.offset, label: label)
        sink.compare(
            base.appending("asn1"), .receipt, .word(asn1A), .word(asn1B), offsetA: a.offset,
            offsetB: b.offset, label: label)
        guard valueA == valueB, versionA == versionB, asn1A == asn1B else { return true }
        sink.compare(
            base.appending("encodedLength"), .receipt, .number(Int64(a.attribute.length)),
            .number(Int64(b.attribute.length)), offsetA: a.offset, offsetB: b.offset, isEncoding: true,
            label: label)
        sink.compare(
            base.appending("raw"), .receipt, .bytes(a.attribute.valueBytes), .bytes(b.attribute.valueBytes),
            offsetA: a.offset, offsetB: b.offset, isEncoding: true, label: label)
        return false
    }
}
