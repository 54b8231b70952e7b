import ReceiptASN1

/// What the one reading pass learns of a payload, kept: one compact entry per attribute (the receipt's and every
/// in-app record's). Checks, renderers, diff and mutation blueprints read it through `Attribute` and `InAppRecord`
/// views; nothing parses the payload a second time.
///
/// Entries are in reading order with each record's attributes right after the type-17 attribute that holds them,
/// so a record is a range of entries. Positions are kept in the payload buffer (the file itself, or the reassembled
/// segments of a BER-chunked content) and translated to file offsets only here, on the way out.
///
/// An entry is 16 bytes, less than the 20 or so an attribute of an in-app record takes in the receipt. What does
/// not fit it is kept apart: numbers beyond 32 bits (a web order line item id, a date after 2038) in `wideNumbers`;
/// a type beyond 65 533, a version other than 1 or 2, a tag number beyond 30, a date with a fraction or an offset,
/// an attribute that does not end with its value… in `unusual`, which an App Store receipt leaves empty.
public final class PayloadIndex: Sendable {
    /// The buffer the entries' positions index.
    let bytes: [UInt8]
    /// Translates buffer positions to file offsets.
    let map: SegmentMap
    let entries: [Entry]
    /// Numbers that do not fit an entry, by entry, in entry order.
    let wideEntries: [Int32]
    let wideNumbers: [Int64]
    /// Facts that do not fit an entry, by entry, in entry order.
    let unusualEntries: [Int32]
    let unusual: [Unusual]
    /// The entries of the top-level attributes, and of the type-17 attributes that hold a record, in order.
    let topLevel: [Int32]
    let records: [Int32]
    /// For receipt types 0–63: the entry of the first top-level attribute of that type, or -1.
    let firstByType: [Int32]

    /// One attribute, packed into 16 bytes.
    struct Entry: Sendable {
        /// Where the attribute's element starts in `bytes`.
        var start: UInt32
        /// Where its value octets end in `bytes` (and, unless `Unusual.end` says otherwise, the attribute too).
        var valueEnd: UInt32
        /// The parsed value: an integer, a flag (0 or 1), a UTC date's seconds since the epoch, or for a record the
        /// entry just past its last attribute. `Int32.min`: see `wideNumbers`.
        var number: Int32
        /// The type number; `noType` or `wideType` (see `Unusual.type`).
        var type: UInt16
        /// Where the value octets start, counted from `start` (high nibble), and the header length of the one
        /// element the value holds (low nibble, 0 when it holds none); 15 in either: see `Unusual`.
        var layout: UInt8
        var state: State

        static let noType = UInt16.max - 1
        static let wideType = UInt16.max
        static let wideNumber = Int32.min

        var valueDelta: Int { Int(layout >> 4) }
        var innerHeader: Int { Int(layout & 0x0F) }
    }

    /// The value kind (3 bits), the version (2 bits) and three flags, in one byte.
    struct State: Sendable {
        var rawValue: UInt8

        init(kind: ValueKind, version: VersionCode, inApp: Bool) {
            rawValue = kind.rawValue | version.rawValue << 3 | (inApp ? 1 << 5 : 0)
        }

        var kind: ValueKind { ValueKind(rawValue: rawValue & 0x07) ?? .absent }
        var version: VersionCode { VersionCode(rawValue: rawValue >> 3 & 0x03) ?? .none }
        var inApp: Bool { rawValue & 1 << 5 != 0 }
        /// A date value that parsed.
        var dateParsed: Bool {
            get { rawValue & 1 << 6 != 0 }
            set { rawValue = newValue ? rawValue | 1 << 6 : rawValue & ~(1 << 6) }
        }
        /// Some fact of this entry is in `unusual`.
        var unusual: Bool {
            get { rawValue & 1 << 7 != 0 }
            set { rawValue = newValue ? rawValue | 1 << 7 : rawValue & ~(1 << 7) }
        }
    }

    /// The versions Apple writes, and the rest.
    enum VersionCode: UInt8 {
        case none = 0
        case one = 1
        case two = 2
        /// See `Unusual.version`.
        case other = 3
    }

    /// What an entry cannot hold.
    struct Unusual: Sendable {
        var type: Int64?
        /// The type INTEGER's content when it does not fit in 64 bits.
        var largeTypeRange: Range<Int>?
        var version: Int64?
        var valueStart: Int?
        var innerHeader: Int?
        var end: Int?
        var tag: ASN1Tag?
        var date: ReceiptDate?
    }

    init(_ builder: Builder) {
        bytes = builder.bytes
        map = builder.map
        entries = builder.entries
        wideEntries = builder.wideEntries
        wideNumbers = builder.wideNumbers
        unusualEntries = builder.unusualEntries
        unusual = builder.unusual
        topLevel = builder.topLevel
        records = builder.records
        firstByType = builder.firstByType
    }

    /// How many entries there are (attributes of the receipt and of its records).
    public var entryCount: Int { entries.count }

    /// The bytes the index holds beyond the input: the entries, what did not fit them, and the lists.
    public var memoryCost: Int {
        entries.count * MemoryLayout<Entry>.stride + wideNumbers.count * 12
            + unusual.count * (MemoryLayout<Unusual>.stride + 4)
            + (topLevel.count + records.count + firstByType.count) * 4
    }

    @inline(__always)
    func fileOffset(_ position: Int) -> Int { map.fileOffset(position) }

    /// The position of `entry` in `keys` (sorted), if it is there.
    static func find(_ entry: Int, in keys: [Int32]) -> Int? {
        var low = 0
        var high = keys.count
        let key = Int32(truncatingIfNeeded: entry)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }

    /// The unusual facts of `entry`, when it has any.
    func unusualFacts(_ entry: Int) -> Unusual? {
        guard entries[entry].state.unusual, let position = Self.find(entry, in: unusualEntries) else { return nil }
        return unusual[position]
    }

    // MARK: Entry facts, in buffer positions

    @inline(__always)
    func start(_ entry: Int) -> Int { Int(entries[entry].start) }

    func end(_ entry: Int) -> Int {
        let packed = entries[entry]
        guard packed.state.unusual, let end = unusualFacts(entry)?.end else { return Int(packed.valueEnd) }
        return end
    }

    func kind(_ entry: Int) -> ValueKind { entries[entry].state.kind }

    /// The value octets' range in `bytes`, when the attribute has a value.
    @inline(__always)
    func valueRange(_ entry: Int) -> Range<Int>? {
        let packed = entries[entry]
        guard packed.state.kind != .absent else { return nil }
        let start = packed.valueDelta == 15 ? unusualFacts(entry)?.valueStart ?? Int(packed.start)
            : Int(packed.start) + packed.valueDelta
        return start..<Swift.max(start, Int(packed.valueEnd))
    }

    /// The header length of the one element the value holds (0 when it holds none).
    func innerHeader(_ entry: Int) -> Int {
        let packed = entries[entry]
        return packed.innerHeader == 15 ? unusualFacts(entry)?.innerHeader ?? 0 : packed.innerHeader
    }

    /// The content of the one element the value holds (text, a date's text, a large INTEGER).
    @inline(__always)
    func contentRange(_ entry: Int) -> Range<Int> {
        guard let value = valueRange(entry) else { return 0..<0 }
        return Swift.min(value.lowerBound + innerHeader(entry), value.upperBound)..<value.upperBound
    }

    func type(_ entry: Int) -> Int64? {
        let packed = entries[entry]
        switch packed.type {
        case Entry.noType: return nil
        case Entry.wideType: return unusualFacts(entry)?.type
        default: return Int64(packed.type)
        }
    }

    func version(_ entry: Int) -> Int64? {
        switch entries[entry].state.version {
        case .none: return nil
        case .one: return 1
        case .two: return 2
        case .other: return unusualFacts(entry)?.version
        }
    }

    func valueTag(_ entry: Int) -> ASN1Tag? {
        guard innerHeader(entry) != 0, let range = valueRange(entry), !range.isEmpty else { return nil }
        // The identifier octet of the element the value holds, as the reading pass found it.
        let octet = bytes[range.lowerBound]
        if octet & 0x1F == 0x1F { return unusualFacts(entry)?.tag }
        return ASN1Tag(ASN1TagClass(bits: octet >> 6), number: UInt64(octet & 0x1F), constructed: octet & 0x20 != 0)
    }

    func number(_ entry: Int) -> Int64 {
        let number = entries[entry].number
        guard number == Entry.wideNumber else { return Int64(number) }
        return Self.find(entry, in: wideEntries).map { wideNumbers[$0] } ?? Int64(number)
    }

    func date(_ entry: Int) -> ReceiptDate? {
        let state = entries[entry].state
        guard state.kind == .date, state.dateParsed else { return nil }
        if state.unusual, let date = unusualFacts(entry)?.date { return date }
        return ReceiptDate(utcSeconds: number(entry))
    }

    func dateSeconds(_ entry: Int) -> Int64? {
        let state = entries[entry].state
        guard state.kind == .date, state.dateParsed else { return nil }
        if state.unusual, let date = unusualFacts(entry)?.date { return date.secondsSinceEpoch }
        return number(entry)
    }

    func scope(_ entry: Int) -> FieldScope { entries[entry].state.inApp ? .inApp : .receipt }

    /// The entries of the record held by `entry` (empty when it holds none).
    func children(_ entry: Int) -> Range<Int> {
        guard entries[entry].state.kind == .record else { return entry..<entry }
        return (entry + 1)..<Swift.max(entry + 1, Int(number(entry)))
    }
}

extension PayloadIndex {
    /// What the reading pass appends to; `PayloadIndex(builder)` freezes it.
    struct Builder {
        let bytes: [UInt8]
        let map: SegmentMap
        var entries: [Entry] = []
        var wideEntries: [Int32] = []
        var wideNumbers: [Int64] = []
        var unusualEntries: [Int32] = []
        var unusual: [Unusual] = []
        var topLevel: [Int32] = []
        var records: [Int32] = []
        var firstByType = [Int32](repeating: -1, count: 64)

        /// `expectedBytes`: the payload's size, from which the entry count is estimated (an attribute of an in-app
        /// record takes about 20 bytes), so the entries rarely grow.
        init(bytes: [UInt8], map: SegmentMap, expectedBytes: Int) {
            self.bytes = bytes
            self.map = map
            entries.reserveCapacity(Swift.min(expectedBytes / 20 + 16, 1 << 24))
        }

        var count: Int { entries.count }

        /// The type of `entry`, as `PayloadIndex.type` reads it.
        func type(_ entry: Int) -> Int64? {
            let packed = entries[entry]
            switch packed.type {
            case Entry.noType: return nil
            case Entry.wideType:
                var position = unusualEntries.count - 1
                let key = Int32(truncatingIfNeeded: entry)
                while position >= 0, unusualEntries[position] > key { position -= 1 }
                return position >= 0 && unusualEntries[position] == key ? unusual[position].type : nil
            default: return Int64(packed.type)
            }
        }

        /// Appends `attribute` as the next entry; returns the entry.
        @discardableResult
        mutating func append(_ attribute: DecodedAttribute) -> Int {
            let entry = entries.count
            var isUnusual = false
            var type = Entry.noType
            if let value = attribute.type {
                if value >= 0, value < Int64(Entry.noType) {
                    type = UInt16(truncatingIfNeeded: value)
                } else {
                    type = Entry.wideType
                    isUnusual = true
                }
            } else if attribute.largeTypeRange != nil {
                isUnusual = true
            }
            let version: VersionCode
            switch attribute.version {
            case nil: version = .none
            case 1?: version = .one
            case 2?: version = .two
            default:
                version = .other
                isUnusual = true
            }
            var layout: UInt8 = 0
            var valueEnd = UInt32(truncatingIfNeeded: attribute.end)
            if let range = attribute.valueRange {
                let delta = range.lowerBound - attribute.start
                let valueNibble = delta >= 0 && delta < 15 ? UInt8(truncatingIfNeeded: delta) : 15
                let innerNibble = attribute.innerHeader < 15 ? UInt8(truncatingIfNeeded: attribute.innerHeader) : 15
                layout = valueNibble << 4 | innerNibble
                valueEnd = UInt32(truncatingIfNeeded: range.upperBound)
                if valueNibble == 15 || innerNibble == 15 || attribute.end != range.upperBound { isUnusual = true }
            }
            if attribute.valueTag.map({ $0.number >= 0x1F }) ?? false { isUnusual = true }
            var number = attribute.number
            var state = State(kind: attribute.kind, version: version, inApp: attribute.scope == .inApp)
            if attribute.kind == .date, let date = attribute.date {
                state.dateParsed = true
                if date.isWholeSecondUTC { number = date.secondsSinceEpoch } else { isUnusual = true }
            }
            var packedNumber = Entry.wideNumber
            if number > Int64(Int32.min), number <= Int64(Int32.max) {
                packedNumber = Int32(truncatingIfNeeded: number)
            } else {
                wideEntries.append(Int32(truncatingIfNeeded: entry))
                wideNumbers.append(number)
            }
            if isUnusual {
                state.unusual = true
                unusualEntries.append(Int32(truncatingIfNeeded: entry))
                unusual.append(Self.unusual(attribute, type: type, version: version, layout: layout))
            }
            entries.append(Entry(start: UInt32(truncatingIfNeeded: attribute.start), valueEnd: valueEnd,
                                 number: packedNumber, type: type, layout: layout, state: state))
            return entry
        }

        /// The facts of `attribute` that its entry cannot hold.
        static func unusual(_ attribute: DecodedAttribute, type: UInt16, version: VersionCode, layout: UInt8)
            -> Unusual
        {
            var facts = Unusual()
            if type == Entry.wideType { facts.type = attribute.type }
            facts.largeTypeRange = attribute.largeTypeRange
            if version == .other { facts.version = attribute.version }
            if layout >> 4 == 15 { facts.valueStart = attribute.valueRange?.lowerBound }
            if layout & 0x0F == 15 { facts.innerHeader = attribute.innerHeader }
            if let range = attribute.valueRange, attribute.end != range.upperBound { facts.end = attribute.end }
            if let tag = attribute.valueTag, tag.number >= 0x1F { facts.tag = tag }
            if let date = attribute.date, !date.isWholeSecondUTC { facts.date = date }
            return facts
        }

        /// Records that the record held by `entry` ends before entry `end`.
        mutating func closeRecord(_ entry: Int, end: Int) {
            entries[entry].number = Int32(truncatingIfNeeded: end)
        }

        /// Records `entry` as a top-level attribute.
        mutating func noteTopLevel(_ entry: Int) {
            let key = Int32(truncatingIfNeeded: entry)
            let packed = entries[entry]
            if packed.state.kind == .record { records.append(key) }
            if packed.type < 64, firstByType[Int(packed.type)] < 0 { firstByType[Int(packed.type)] = key }
            topLevel.append(key)
        }
    }
}

/// One attribute as the reading pass decodes it, in buffer positions, before it is appended to the index.
struct DecodedAttribute {
    var start: Int
    var end: Int
    var scope: FieldScope
    var type: Int64?
    var largeTypeRange: Range<Int>?
    var version: Int64?
    var valueRange: Range<Int>?
    var valueTag: ASN1Tag?
    /// The header length of the one element inside the value.
    var innerHeader = 0
    var kind: ValueKind = .absent
    var number: Int64 = 0
    var date: ReceiptDate?

    init(start: Int, end: Int, scope: FieldScope) {
        self.start = start
        self.end = end
        self.scope = scope
    }

    /// The field table's expectation for this type in this scope.
    var fieldKind: FieldKind { type.map { FieldTable.kind(of: $0, in: scope) } ?? .unknown }

    /// The content range of the value's one element.
    var contentRange: Range<Int> {
        guard let range = valueRange else { return 0..<0 }
        return Swift.min(range.lowerBound + innerHeader, range.upperBound)..<range.upperBound
    }
}
