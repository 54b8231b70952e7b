import ReceiptASN1

/// What the one reading pass learns of a payload, kept: one compact entry per attribute (the receipt's and every
/// in-app record's). Checks, renderers, diff and mutation blueprints read it through `Attribute` and `InAppRecord`
/// views; nothing parses the payload a second time.
///
/// Entries are in reading order with each record's attributes right after the type-17 attribute that holds them,
/// so a record is a range of entries. Positions are kept in the payload buffer (the file itself, or the reassembled
/// segments of a BER-chunked content) and translated to file offsets only here, on the way out.
///
/// An entry is 16 bytes, less than the 20 or so an attribute of an in-app record takes in the receipt. A fact that
/// does not fit it (a number beyond 32 bits such as a web order line item id, a type beyond 65 533, a version other
/// than 1 or 2, a date with a fraction or a UTC offset, an attribute with fields after its value…) is a 16-byte
/// `WideFact` beside it, so the index stays linear in the input whatever the input holds.
public final class PayloadIndex: Sendable {
    /// The buffer the entries' positions index.
    package let bytes: [UInt8]
    /// Translates buffer positions to file offsets.
    let map: SegmentMap
    let entries: [Entry]
    /// The facts that do not fit their entry, in entry order.
    let wide: [WideFact]
    /// The entries of the top-level attributes, and of the type-17 attributes that hold a record, in order.
    let topLevel: [Int32]
    package let records: [Int32]
    /// For receipt types 0–63: the entry of the first top-level attribute of that type, or -1.
    let firstByType: [Int32]

    /// One attribute, packed into 16 bytes.
    struct Entry: Sendable {
        /// Where the attribute's element starts in `bytes`.
        var start: UInt32
        /// Where its value octets end in `bytes` (and, unless a `.end` fact says otherwise, the attribute too).
        var valueEnd: UInt32
        /// The parsed value: an integer, a flag (0 or 1), a UTC date's seconds since the epoch, or for a record the
        /// entry just past its last attribute. `wideNumber`: see the `.number` fact.
        var number: Int32
        /// The type number; `noType`, or `wideType` (see the `.type` fact).
        var type: UInt16
        /// Where the value octets start, counted from `start` (high nibble), and the header length of the one
        /// element the value holds (low nibble, 0 when it holds none); 15 in either: see the facts.
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
        /// Some fact of this entry is in `wide`.
        var hasWideFacts: Bool {
            get { rawValue & 1 << 7 != 0 }
            set { rawValue = newValue ? rawValue | 1 << 7 : rawValue & ~(1 << 7) }
        }
    }

    /// The versions Apple writes, and the rest.
    enum VersionCode: UInt8 {
        case none = 0
        case one = 1
        case two = 2
        /// See the `.version` fact.
        case other = 3
    }

    /// One fact of one entry that its 16 bytes cannot hold.
    struct WideFact: Sendable {
        var value: Int64
        var entry: Int32
        var field: Field

        enum Field: UInt8, Sendable {
            case number, type, version, valueStart, innerHeader, end
            /// The INTEGER content of a type too large for 64 bits: its start and end.
            case largeTypeStart, largeTypeEnd
            /// A tag number beyond 30 of the element the value holds.
            case tagNumber
            /// A date's fraction and UTC offset: nanoseconds << 16 | the offset in minutes as 16 bits.
            case dateDetail
        }
    }

    init(_ builder: Builder) {
        bytes = builder.bytes
        map = builder.map
        entries = builder.entries
        wide = builder.wide
        topLevel = builder.topLevel
        records = builder.records
        firstByType = builder.firstByType
    }

    /// How many entries there are (attributes of the receipt and of its records).
    public var entryCount: Int { entries.count }

    /// The bytes the index holds beyond the input: the entries, the wide facts and the lists.
    public var memoryCost: Int {
        entries.count * MemoryLayout<Entry>.stride + wide.count * MemoryLayout<WideFact>.stride
            + (topLevel.count + records.count + firstByType.count) * 4
    }

    @inline(__always)
    package func fileOffset(_ position: Int) -> Int { map.fileOffset(position) }

    /// The `field` fact of `entry`, if it has one.
    func fact(_ field: WideFact.Field, of entry: Int) -> Int64? {
        guard entries[entry].state.hasWideFacts else { return nil }
        var low = 0
        var high = wide.count
        let key = Int32(truncatingIfNeeded: entry)
        while low < high {
            let middle = (low + high) / 2
            if wide[middle].entry < key { low = middle + 1 } else { high = middle }
        }
        while low < wide.count, wide[low].entry == key {
            if wide[low].field == field { return wide[low].value }
            low += 1
        }
        return nil
    }

    // MARK: Entry facts, in buffer positions

    @inline(__always)
    package func start(_ entry: Int) -> Int { Int(entries[entry].start) }

    func end(_ entry: Int) -> Int {
        fact(.end, of: entry).map { Int(truncatingIfNeeded: $0) } ?? Int(entries[entry].valueEnd)
    }

    package func kind(_ entry: Int) -> ValueKind { entries[entry].state.kind }

    /// The value octets' range in `bytes`, when the attribute has a value.
    @inline(__always)
    package func valueRange(_ entry: Int) -> Range<Int>? {
        let packed = entries[entry]
        guard packed.state.kind != .absent else { return nil }
        let start = packed.valueDelta == 15
            ? fact(.valueStart, of: entry).map { Int(truncatingIfNeeded: $0) } ?? Int(packed.start)
            : Int(packed.start) + packed.valueDelta
        return start..<Swift.max(start, Int(packed.valueEnd))
    }

    /// The header length of the one element the value holds (0 when it holds none).
    func innerHeader(_ entry: Int) -> Int {
        let packed = entries[entry]
        guard packed.innerHeader == 15 else { return packed.innerHeader }
        return fact(.innerHeader, of: entry).map { Int(truncatingIfNeeded: $0) } ?? 0
    }

    /// The content of the one element the value holds (text, a date's text, a large INTEGER).
    @inline(__always)
    package func contentRange(_ entry: Int) -> Range<Int> {
        guard let value = valueRange(entry) else { return 0..<0 }
        return Swift.min(value.lowerBound + innerHeader(entry), value.upperBound)..<value.upperBound
    }

    func type(_ entry: Int) -> Int64? {
        let packed = entries[entry]
        switch packed.type {
        case Entry.noType: return nil
        case Entry.wideType: return fact(.type, of: entry)
        default: return Int64(packed.type)
        }
    }

    /// Where the content of a type INTEGER too large for 64 bits is.
    func largeTypeRange(_ entry: Int) -> Range<Int>? {
        guard let start = fact(.largeTypeStart, of: entry), let end = fact(.largeTypeEnd, of: entry),
              start >= 0, end >= start, end <= Int64(bytes.count) else { return nil }
        return Int(start)..<Int(end)
    }

    func version(_ entry: Int) -> Int64? {
        switch entries[entry].state.version {
        case .none: return nil
        case .one: return 1
        case .two: return 2
        case .other: return fact(.version, of: entry)
        }
    }

    package func valueTag(_ entry: Int) -> ASN1Tag? {
        guard innerHeader(entry) != 0, let range = valueRange(entry), !range.isEmpty else { return nil }
        // The identifier octet of the element the value holds, as the reading pass found it.
        let octet = bytes[range.lowerBound]
        var number = UInt64(octet & 0x1F)
        if number == 0x1F {
            guard let wideNumber = fact(.tagNumber, of: entry) else { return nil }
            number = UInt64(bitPattern: wideNumber)
        }
        return ASN1Tag(ASN1TagClass(bits: octet >> 6), number: number, constructed: octet & 0x20 != 0)
    }

    package func number(_ entry: Int) -> Int64 {
        let number = entries[entry].number
        guard number == Entry.wideNumber else { return Int64(number) }
        return fact(.number, of: entry) ?? Int64(number)
    }

    package func date(_ entry: Int) -> ReceiptDate? {
        guard let seconds = dateSeconds(entry) else { return nil }
        guard let detail = fact(.dateDetail, of: entry) else { return ReceiptDate(utcSeconds: seconds) }
        return ReceiptDate(utcSeconds: seconds, nanosecond: Int(truncatingIfNeeded: detail >> 16),
                           utcOffsetMinutes: Int(Int16(truncatingIfNeeded: detail)))
    }

    package func dateSeconds(_ entry: Int) -> Int64? {
        let state = entries[entry].state
        guard state.kind == .date, state.dateParsed else { return nil }
        return number(entry)
    }

    func scope(_ entry: Int) -> FieldScope { entries[entry].state.inApp ? .inApp : .receipt }

    /// The entries of the record held by `entry` (empty when it holds none).
    func children(_ entry: Int) -> Range<Int> {
        guard entries[entry].state.kind == .record else { return entry..<entry }
        return (entry + 1)..<Swift.max(entry + 1, Int(number(entry)))
    }

    /// The file offset of the record held by `entry` (`InAppRecord.offset`).
    package func recordOffset(_ entry: Int) -> Int { fileOffset(valueRange(entry)?.lowerBound ?? start(entry)) }

    /// The entry of the first attribute of each type in `types` (a range of at most 64 types below 65 533) in the
    /// record held by `record`, in one scan of its entries: `slots[type - types.lowerBound]`, -1 where the record
    /// has none. `slots` is reused from record to record, so reading a record's fields costs one pass, no
    /// allocation and no reference counting (the entries are numbers, not `Attribute` views).
    package func firstOfEachType(inRecord record: Int, types: ClosedRange<UInt16>, into slots: inout [Int32]) {
        let count = Int(types.upperBound - types.lowerBound) + 1
        if slots.count != count { slots = Array(repeating: -1, count: count) }
        for position in slots.indices { slots[position] = -1 }
        guard types.upperBound < Entry.noType else { return }
        entries.withUnsafeBufferPointer { entries in
            for child in children(record) {
                let type = entries[child].type
                guard types.contains(type) else { continue }
                let position = Int(type &- types.lowerBound)
                if slots[position] < 0 { slots[position] = Int32(truncatingIfNeeded: child) }
            }
        }
    }
}

extension PayloadIndex {
    /// What the reading pass appends to; `PayloadIndex(builder)` freezes it.
    struct Builder {
        let bytes: [UInt8]
        let map: SegmentMap
        var entries: [Entry] = []
        var wide: [WideFact] = []
        var topLevel: [Int32] = []
        var records: [Int32] = []
        var firstByType = [Int32](repeating: -1, count: 64)

        /// The entry count estimated from the payload's size (an attribute of an in-app record takes about 20
        /// bytes), reserved by `reserveEntries` so the entries rarely grow.
        let expectedEntries: Int

        init(bytes: [UInt8], map: SegmentMap, expectedBytes: Int) {
            self.bytes = bytes
            self.map = map
            expectedEntries = Swift.min(expectedBytes / 20 + 16, 1 << 24)
        }

        /// Reserves the expected entries. Called by the builder's one owner (the reading pass), not at `init`: a
        /// buffer reserved there would be shared with the caller's copy of the builder, and the first append would
        /// copy it whole (on a 100 000-record receipt, 32 MB twice at the peak).
        mutating func reserveEntries() {
            entries.reserveCapacity(expectedEntries)
        }

        var count: Int { entries.count }

        /// The type of `entry`, as `PayloadIndex.type` reads it.
        func type(_ entry: Int) -> Int64? {
            let packed = entries[entry]
            switch packed.type {
            case Entry.noType: return nil
            case Entry.wideType:
                let key = Int32(truncatingIfNeeded: entry)
                var position = wide.count - 1
                while position >= 0, wide[position].entry >= key {
                    if wide[position].entry == key, wide[position].field == .type { return wide[position].value }
                    position -= 1
                }
                return nil
            default: return Int64(packed.type)
            }
        }

        /// Appends `attribute` as the next entry; returns the entry.
        @discardableResult
        mutating func append(_ attribute: DecodedAttribute) -> Int {
            let entry = entries.count
            let key = Int32(truncatingIfNeeded: entry)
            var wideCount = 0
            func note(_ field: WideFact.Field, _ value: Int64) {
                wide.append(WideFact(value: value, entry: key, field: field))
                wideCount += 1
            }
            var type = Entry.noType
            if let value = attribute.type {
                if value >= 0, value < Int64(Entry.noType) {
                    type = UInt16(truncatingIfNeeded: value)
                } else {
                    type = Entry.wideType
                    note(.type, value)
                }
            } else if let range = attribute.largeTypeRange {
                note(.largeTypeStart, Int64(range.lowerBound))
                note(.largeTypeEnd, Int64(range.upperBound))
            }
            let version: VersionCode
            switch attribute.version {
            case nil: version = .none
            case 1?: version = .one
            case 2?: version = .two
            case let other?:
                version = .other
                note(.version, other)
            }
            var layout: UInt8 = 0
            var valueEnd = UInt32(truncatingIfNeeded: attribute.end)
            if let range = attribute.valueRange {
                let delta = range.lowerBound - attribute.start
                let valueNibble = delta >= 0 && delta < 15 ? UInt8(truncatingIfNeeded: delta) : 15
                let innerNibble = attribute.innerHeader < 15 ? UInt8(truncatingIfNeeded: attribute.innerHeader) : 15
                layout = valueNibble << 4 | innerNibble
                valueEnd = UInt32(truncatingIfNeeded: range.upperBound)
                if valueNibble == 15 { note(.valueStart, Int64(range.lowerBound)) }
                if innerNibble == 15 { note(.innerHeader, Int64(attribute.innerHeader)) }
                if attribute.end != range.upperBound { note(.end, Int64(attribute.end)) }
            }
            if let tag = attribute.valueTag, tag.number >= 0x1F {
                note(.tagNumber, Int64(bitPattern: tag.number))
            }
            var number = attribute.number
            var state = State(kind: attribute.kind, version: version, inApp: attribute.scope == .inApp)
            if attribute.kind == .date, let date = attribute.date {
                state.dateParsed = true
                number = date.secondsSinceEpoch
                if !date.isWholeSecondUTC {
                    note(.dateDetail, Int64(date.nanosecond) << 16 | Int64(UInt16(bitPattern: Int16(date.utcOffsetMinutes))))
                }
            }
            var packedNumber = Entry.wideNumber
            if number > Int64(Int32.min), number <= Int64(Int32.max) {
                packedNumber = Int32(truncatingIfNeeded: number)
            } else {
                note(.number, number)
            }
            state.hasWideFacts = wideCount > 0
            entries.append(Entry(start: UInt32(truncatingIfNeeded: attribute.start), valueEnd: valueEnd,
                                 number: packedNumber, type: type, layout: layout, state: state))
            return entry
        }

        /// Appends an entry the canonical path packed itself (it has no wide fact); returns the entry.
        @inline(__always)
        mutating func append(_ packed: Entry) -> Int {
            entries.append(packed)
            return entries.count &- 1
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
