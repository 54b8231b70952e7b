import ReceiptASN1

/// What the one reading pass learns of a payload, kept: one compact entry per attribute (the receipt's and every
/// in-app record's). Checks, renderers, diff and mutation blueprints read it through `Attribute` and `InAppRecord`
/// views; nothing parses the payload a second time.
///
/// Entries are in reading order with each record's attributes right after the type-17 attribute that holds them,
/// so a record is a range of entries. Positions are kept in the payload buffer (the file itself, or the reassembled
/// segments of a BER-chunked content) and translated to file offsets only here, on the way out.
///
/// An entry is 24 bytes. The facts that do not fit it (a type beyond 65 534, a version beyond 254, a tag number
/// beyond 30, a date with a fraction or an offset, an attribute that does not end with its value…) are kept for that
/// entry in `unusual`, which an App Store receipt leaves empty.
public final class PayloadIndex: Sendable {
    /// The buffer the entries' positions index.
    let bytes: [UInt8]
    /// Translates buffer positions to file offsets.
    let map: SegmentMap
    let entries: [Entry]
    /// Facts of the entries that do not fit them, by entry, in entry order.
    let unusualEntries: [Int32]
    let unusual: [Unusual]
    /// The entries of the top-level attributes, and of the type-17 attributes that hold a record, in order.
    let topLevel: [Int32]
    let records: [Int32]
    /// For receipt types 0–63: the entry of the first top-level attribute of that type, or -1.
    let firstByType: [Int32]

    /// One attribute, packed.
    struct Entry: Sendable {
        /// The parsed value: an integer, a flag (0 or 1), a UTC date's seconds since the epoch, or for a record the
        /// entry just past its last attribute.
        var number: Int64
        /// Where the attribute's element starts in `bytes`.
        var start: UInt32
        /// Where its value octets end in `bytes` (and, unless `Flags.endApart`, the attribute too).
        var valueEnd: UInt32
        /// The type number (`UInt16.max`: see `Unusual.type`).
        var type: UInt16
        /// Where the value octets start, counted from `start` (`UInt8.max`: see `Unusual.valueStart`).
        var valueDelta: UInt8
        /// The header length of the one element the value holds.
        var innerHeader: UInt8
        /// The identifier octet of that element (a high tag number: see `Unusual.tag`).
        var tag: UInt8
        /// The version number (`UInt8.max`: see `Unusual.version`).
        var version: UInt8
        var kind: ValueKind
        var flags: Flags
    }

    struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        static let inApp = Flags(rawValue: 1 << 0)
        static let hasType = Flags(rawValue: 1 << 1)
        static let hasVersion = Flags(rawValue: 1 << 2)
        static let hasValue = Flags(rawValue: 1 << 3)
        static let hasValueTag = Flags(rawValue: 1 << 4)
        /// A date value that parsed.
        static let dateParsed = Flags(rawValue: 1 << 5)
        /// The attribute ends after its value octets (`Unusual.end`).
        static let endApart = Flags(rawValue: 1 << 6)
        /// Some fact of this entry is in `unusual`.
        static let unusual = Flags(rawValue: 1 << 7)
    }

    /// What an entry holds beyond its packed form.
    struct Unusual: Sendable {
        var type: Int64?
        /// The type INTEGER's content when it does not fit in 64 bits.
        var largeTypeRange: Range<Int>?
        var version: Int64?
        var valueStart: Int?
        var end: Int?
        var tag: ASN1Tag?
        var date: ReceiptDate?
    }

    init(_ builder: Builder) {
        bytes = builder.bytes
        map = builder.map
        entries = builder.entries
        unusualEntries = builder.unusualEntries
        unusual = builder.unusual
        topLevel = builder.topLevel
        records = builder.records
        firstByType = builder.firstByType
    }

    /// How many entries there are (attributes of the receipt and of its records).
    public var entryCount: Int { entries.count }

    /// The bytes the index holds beyond the input: the entries, the unusual facts and the lists.
    public var memoryCost: Int {
        entries.count * MemoryLayout<Entry>.stride + unusual.count * (MemoryLayout<Unusual>.stride + 4)
            + (topLevel.count + records.count + firstByType.count) * 4
    }

    @inline(__always)
    func fileOffset(_ position: Int) -> Int { map.fileOffset(position) }

    /// The unusual facts of `entry`, when it has any.
    func unusualFacts(_ entry: Int) -> Unusual? {
        guard entries[entry].flags.contains(.unusual) else { return nil }
        var low = 0
        var high = unusualEntries.count
        let key = Int32(truncatingIfNeeded: entry)
        while low < high {
            let middle = (low + high) / 2
            if unusualEntries[middle] < key { low = middle + 1 } else { high = middle }
        }
        guard low < unusualEntries.count, unusualEntries[low] == key else { return nil }
        return unusual[low]
    }

    // MARK: Entry facts, in buffer positions

    @inline(__always)
    func start(_ entry: Int) -> Int { Int(entries[entry].start) }

    func end(_ entry: Int) -> Int {
        let packed = entries[entry]
        guard packed.flags.contains(.endApart) else { return Int(packed.valueEnd) }
        return unusualFacts(entry)?.end ?? Int(packed.valueEnd)
    }

    /// The value octets' range in `bytes`, when the attribute has a value.
    @inline(__always)
    func valueRange(_ entry: Int) -> Range<Int>? {
        let packed = entries[entry]
        guard packed.flags.contains(.hasValue) else { return nil }
        let start = packed.valueDelta == UInt8.max ? unusualFacts(entry)?.valueStart ?? Int(packed.start)
            : Int(packed.start) + Int(packed.valueDelta)
        return start..<Int(packed.valueEnd)
    }

    /// The content of the one element the value holds (text, a date's text, a large INTEGER).
    @inline(__always)
    func contentRange(_ entry: Int) -> Range<Int> {
        guard let value = valueRange(entry) else { return 0..<0 }
        return Swift.min(value.lowerBound + Int(entries[entry].innerHeader), value.upperBound)..<value.upperBound
    }

    func type(_ entry: Int) -> Int64? {
        let packed = entries[entry]
        guard packed.flags.contains(.hasType) else { return nil }
        if packed.type == UInt16.max, let wide = unusualFacts(entry)?.type { return wide }
        return Int64(packed.type)
    }

    func version(_ entry: Int) -> Int64? {
        let packed = entries[entry]
        guard packed.flags.contains(.hasVersion) else { return nil }
        if packed.version == UInt8.max, let wide = unusualFacts(entry)?.version { return wide }
        return Int64(packed.version)
    }

    func valueTag(_ entry: Int) -> ASN1Tag? {
        let packed = entries[entry]
        guard packed.flags.contains(.hasValueTag) else { return nil }
        let octet = packed.tag
        if octet & 0x1F == 0x1F { return unusualFacts(entry)?.tag }
        return ASN1Tag(ASN1TagClass(bits: octet >> 6), number: UInt64(octet & 0x1F), constructed: octet & 0x20 != 0)
    }

    func kind(_ entry: Int) -> ValueKind { entries[entry].kind }

    func number(_ entry: Int) -> Int64 { entries[entry].number }

    func date(_ entry: Int) -> ReceiptDate? {
        let packed = entries[entry]
        guard packed.kind == .date, packed.flags.contains(.dateParsed) else { return nil }
        if packed.flags.contains(.unusual), let date = unusualFacts(entry)?.date { return date }
        return ReceiptDate(utcSeconds: packed.number)
    }

    func scope(_ entry: Int) -> FieldScope { entries[entry].flags.contains(.inApp) ? .inApp : .receipt }

    /// The entries of the record held by `entry` (empty when it holds none).
    func children(_ entry: Int) -> Range<Int> {
        let packed = entries[entry]
        guard packed.kind == .record else { return entry..<entry }
        return (entry + 1)..<Swift.max(entry + 1, Int(packed.number))
    }
}

extension PayloadIndex {
    /// What the reading pass appends to; `PayloadIndex(builder)` freezes it.
    struct Builder {
        let bytes: [UInt8]
        let map: SegmentMap
        var entries: [Entry] = []
        var unusualEntries: [Int32] = []
        var unusual: [Unusual] = []
        var topLevel: [Int32] = []
        var records: [Int32] = []
        var firstByType = [Int32](repeating: -1, count: 64)

        /// `expectedBytes`: the payload's size, from which the entry count is estimated (an App Store receipt
        /// attribute takes about 36 bytes), so the entries rarely grow.
        init(bytes: [UInt8], map: SegmentMap, expectedBytes: Int) {
            self.bytes = bytes
            self.map = map
            entries.reserveCapacity(Swift.min(expectedBytes / 32, 1 << 24))
        }

        var count: Int { entries.count }

        /// The type of `entry`, as `PayloadIndex.type` reads it.
        func type(_ entry: Int) -> Int64? {
            let packed = entries[entry]
            guard packed.flags.contains(.hasType) else { return nil }
            guard packed.type == UInt16.max, packed.flags.contains(.unusual) else { return Int64(packed.type) }
            let key = Int32(truncatingIfNeeded: entry)
            var position = unusualEntries.count - 1
            while position >= 0, unusualEntries[position] > key { position -= 1 }
            return position >= 0 && unusualEntries[position] == key ? unusual[position].type : Int64(packed.type)
        }

        /// Appends `attribute` as the next entry; returns the entry.
        @discardableResult
        mutating func append(_ attribute: DecodedAttribute) -> Int {
            let entry = entries.count
            var packed = Entry(number: attribute.number, start: UInt32(truncatingIfNeeded: attribute.start),
                               valueEnd: UInt32(truncatingIfNeeded: attribute.end), type: 0, valueDelta: 0,
                               innerHeader: UInt8(truncatingIfNeeded: Swift.min(attribute.innerHeader, 255)), tag: 0,
                               version: 0, kind: attribute.kind, flags: attribute.scope == .inApp ? [.inApp] : [])
            var unusualFacts = false
            if let type = attribute.type {
                packed.flags.insert(.hasType)
                if type >= 0, type < Int64(UInt16.max) {
                    packed.type = UInt16(truncatingIfNeeded: type)
                } else {
                    packed.type = UInt16.max
                    unusualFacts = true
                }
            } else if attribute.largeTypeRange != nil {
                unusualFacts = true
            }
            if let version = attribute.version {
                packed.flags.insert(.hasVersion)
                if version >= 0, version < Int64(UInt8.max) {
                    packed.version = UInt8(truncatingIfNeeded: version)
                } else {
                    packed.version = UInt8.max
                    unusualFacts = true
                }
            }
            if let range = attribute.valueRange {
                packed.flags.insert(.hasValue)
                let delta = range.lowerBound - attribute.start
                if delta >= 0, delta < Int(UInt8.max) {
                    packed.valueDelta = UInt8(truncatingIfNeeded: delta)
                } else {
                    packed.valueDelta = UInt8.max
                    unusualFacts = true
                }
                packed.valueEnd = UInt32(truncatingIfNeeded: range.upperBound)
                if attribute.end != range.upperBound {
                    packed.flags.insert(.endApart)
                    unusualFacts = true
                }
            }
            if let tag = attribute.valueTag {
                packed.flags.insert(.hasValueTag)
                let octet = tag.tagClass.rawValue << 6 | (tag.isConstructed ? 0x20 : 0)
                if tag.number < 0x1F {
                    packed.tag = octet | UInt8(truncatingIfNeeded: tag.number)
                } else {
                    packed.tag = octet | 0x1F
                    unusualFacts = true
                }
            }
            if attribute.kind == .date, let date = attribute.date {
                packed.flags.insert(.dateParsed)
                if date.isWholeSecondUTC {
                    packed.number = date.secondsSinceEpoch
                } else {
                    unusualFacts = true
                }
            }
            if unusualFacts {
                packed.flags.insert(.unusual)
                unusualEntries.append(Int32(truncatingIfNeeded: entry))
                unusual.append(Self.unusual(attribute, packed))
            }
            entries.append(packed)
            return entry
        }

        /// The facts of `attribute` that `packed` cannot hold.
        static func unusual(_ attribute: DecodedAttribute, _ packed: Entry) -> Unusual {
            var facts = Unusual()
            if packed.type == UInt16.max { facts.type = attribute.type }
            facts.largeTypeRange = attribute.largeTypeRange
            if packed.version == UInt8.max { facts.version = attribute.version }
            if packed.valueDelta == UInt8.max { facts.valueStart = attribute.valueRange?.lowerBound }
            if packed.flags.contains(.endApart) { facts.end = attribute.end }
            if packed.tag & 0x1F == 0x1F { facts.tag = attribute.valueTag }
            if let date = attribute.date, !date.isWholeSecondUTC { facts.date = date }
            return facts
        }

        /// Records that the record held by `entry` ends before entry `end`.
        mutating func closeRecord(_ entry: Int, end: Int) {
            entries[entry].number = Int64(end)
        }

        /// Records `entry` as a top-level attribute.
        mutating func noteTopLevel(_ entry: Int) {
            let key = Int32(truncatingIfNeeded: entry)
            let packed = entries[entry]
            if packed.kind == .record { records.append(key) }
            if packed.flags.contains(.hasType), packed.type < 64, firstByType[Int(packed.type)] < 0 {
                firstByType[Int(packed.type)] = key
            }
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
