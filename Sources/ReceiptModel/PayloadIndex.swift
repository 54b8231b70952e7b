import ReceiptASN1

/// What the one reading pass learns of a payload, kept: one entry per attribute (the receipt's and every in-app
/// record's), in struct-of-arrays form. Checks, renderers, diff and mutation blueprints read it through
/// `Attribute` and `InAppRecord` views; nothing parses the payload a second time.
///
/// Entries are in reading order with each record's attributes right after the type-17 attribute that holds them,
/// so a record is a range of entries. Positions are kept in the payload buffer (the file itself, or the reassembled
/// segments of a BER-chunked content) and translated to file offsets only here, on the way out.
///
/// An entry costs 24 bytes. The facts that do not fit the compact columns (a type beyond 65 535, a version beyond
/// 255, a tag number beyond 30, a date with a fraction or an offset, an attribute that does not end with its
/// value…) are kept for that entry in `unusual`, which a well-formed receipt leaves empty.
public final class PayloadIndex: Sendable {
    /// The buffer the entries' positions index.
    let bytes: [UInt8]
    /// Translates buffer positions to file offsets.
    let map: SegmentMap

    // One element per entry.
    /// Where the attribute's element starts in `bytes`.
    let starts: [UInt32]
    /// Where its value octets start, counted from `starts` (see `Unusual.valueStart`).
    let valueDeltas: [UInt8]
    /// Where its value octets end in `bytes` (and, unless `Flags.endApart`, the attribute too).
    let valueEnds: [UInt32]
    /// The header length of the one element the value holds.
    let innerHeaders: [UInt8]
    /// The identifier octet of that element (see `Unusual.tag` for high tag numbers).
    let tags: [UInt8]
    /// The type number (see `Unusual.type` beyond 65 535).
    let types: [UInt16]
    /// The version number (see `Unusual.version` beyond 255).
    let versions: [UInt8]
    /// The parsed value: an integer, a flag (0 or 1), a UTC date's seconds since the epoch, or for a record the
    /// entry just past its last attribute.
    let numbers: [Int64]
    let kinds: [ValueKind]
    let flags: [Flags]

    /// Facts of the entries that do not fit the columns, by entry, in entry order.
    let unusualEntries: [Int32]
    let unusual: [Unusual]

    /// The entries of the top-level attributes, and of the type-17 attributes that hold a record, in order.
    let topLevel: [Int32]
    let records: [Int32]
    /// For receipt types 0–63: the entry of the first top-level attribute of that type, or -1.
    let firstByType: [Int32]

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

    /// What an entry holds beyond the columns.
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
        starts = builder.starts
        valueDeltas = builder.valueDeltas
        valueEnds = builder.valueEnds
        innerHeaders = builder.innerHeaders
        tags = builder.tags
        types = builder.types
        versions = builder.versions
        numbers = builder.numbers
        kinds = builder.kinds
        flags = builder.flags
        unusualEntries = builder.unusualEntries
        unusual = builder.unusual
        topLevel = builder.topLevel
        records = builder.records
        firstByType = builder.firstByType
    }

    /// An empty index (a payload that could not be read at all).
    static let empty = PayloadIndex(Builder(bytes: [], map: .identity, expectedBytes: 0))

    /// How many entries there are (attributes of the receipt and of its records).
    public var entryCount: Int { starts.count }

    /// The bytes an entry's index holds beyond the input, measured: the columns and the unusual facts.
    public var memoryCost: Int {
        entryCount * (4 + 1 + 4 + 1 + 1 + 2 + 1 + 8 + 1 + 1) + unusual.count * (MemoryLayout<Unusual>.stride + 4)
            + (topLevel.count + records.count) * 4 + firstByType.count * 4
    }

    @inline(__always)
    func fileOffset(_ position: Int) -> Int { map.fileOffset(position) }

    /// The unusual facts of `entry`, when it has any.
    func unusualFacts(_ entry: Int) -> Unusual? {
        guard flags[entry].contains(.unusual) else { return nil }
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
    func start(_ entry: Int) -> Int { Int(starts[entry]) }

    func end(_ entry: Int) -> Int {
        flags[entry].contains(.endApart) ? unusualFacts(entry)?.end ?? Int(valueEnds[entry]) : Int(valueEnds[entry])
    }

    /// The value octets' range in `bytes`, when the attribute has a value.
    @inline(__always)
    func valueRange(_ entry: Int) -> Range<Int>? {
        guard flags[entry].contains(.hasValue) else { return nil }
        let delta = Int(valueDeltas[entry])
        let start = delta == Int(UInt8.max) ? unusualFacts(entry)?.valueStart ?? start(entry) : start(entry) + delta
        return start..<Int(valueEnds[entry])
    }

    /// The content of the one element the value holds (text, a date's text, a large INTEGER).
    @inline(__always)
    func contentRange(_ entry: Int) -> Range<Int> {
        guard let value = valueRange(entry) else { return 0..<0 }
        return Swift.min(value.lowerBound + Int(innerHeaders[entry]), value.upperBound)..<value.upperBound
    }

    func type(_ entry: Int) -> Int64? {
        let flags = flags[entry]
        guard flags.contains(.hasType) else { return nil }
        if types[entry] == UInt16.max, flags.contains(.unusual), let wide = unusualFacts(entry)?.type { return wide }
        return Int64(types[entry])
    }

    func version(_ entry: Int) -> Int64? {
        let flags = flags[entry]
        guard flags.contains(.hasVersion) else { return nil }
        if versions[entry] == UInt8.max, flags.contains(.unusual), let wide = unusualFacts(entry)?.version {
            return wide
        }
        return Int64(versions[entry])
    }

    func valueTag(_ entry: Int) -> ASN1Tag? {
        guard flags[entry].contains(.hasValueTag) else { return nil }
        let octet = tags[entry]
        if octet & 0x1F == 0x1F { return unusualFacts(entry)?.tag }
        return ASN1Tag(ASN1TagClass(bits: octet >> 6), number: UInt64(octet & 0x1F), constructed: octet & 0x20 != 0)
    }

    func date(_ entry: Int) -> ReceiptDate? {
        guard kinds[entry] == .date, flags[entry].contains(.dateParsed) else { return nil }
        if flags[entry].contains(.unusual), let date = unusualFacts(entry)?.date { return date }
        return ReceiptDate(utcSeconds: numbers[entry])
    }

    func scope(_ entry: Int) -> FieldScope { flags[entry].contains(.inApp) ? .inApp : .receipt }

    /// The entries of the record held by `entry` (empty when it holds none).
    func children(_ entry: Int) -> Range<Int> {
        guard kinds[entry] == .record else { return entry..<entry }
        let end = Int(numbers[entry])
        return (entry + 1)..<Swift.max(entry + 1, end)
    }
}

extension PayloadIndex {
    /// What the reading pass appends to; `PayloadIndex(builder)` freezes it.
    struct Builder {
        let bytes: [UInt8]
        let map: SegmentMap
        var starts: [UInt32] = []
        var valueDeltas: [UInt8] = []
        var valueEnds: [UInt32] = []
        var innerHeaders: [UInt8] = []
        var tags: [UInt8] = []
        var types: [UInt16] = []
        var versions: [UInt8] = []
        var numbers: [Int64] = []
        var kinds: [ValueKind] = []
        var flags: [Flags] = []
        var unusualEntries: [Int32] = []
        var unusual: [Unusual] = []
        var topLevel: [Int32] = []
        var records: [Int32] = []
        var firstByType = [Int32](repeating: -1, count: 64)

        /// `expectedBytes`: the payload's size, from which the entry count is estimated (a receipt attribute takes
        /// about 36 bytes), so the columns rarely grow.
        init(bytes: [UInt8], map: SegmentMap, expectedBytes: Int) {
            self.bytes = bytes
            self.map = map
            let estimate = Swift.min(expectedBytes / 32, 1 << 24)
            starts.reserveCapacity(estimate)
            valueDeltas.reserveCapacity(estimate)
            valueEnds.reserveCapacity(estimate)
            innerHeaders.reserveCapacity(estimate)
            tags.reserveCapacity(estimate)
            types.reserveCapacity(estimate)
            versions.reserveCapacity(estimate)
            numbers.reserveCapacity(estimate)
            kinds.reserveCapacity(estimate)
            flags.reserveCapacity(estimate)
        }

        var count: Int { starts.count }

        /// The type of `entry`, as `PayloadIndex.type` reads it.
        func type(_ entry: Int) -> Int64? {
            guard flags[entry].contains(.hasType) else { return nil }
            guard types[entry] == UInt16.max, flags[entry].contains(.unusual) else { return Int64(types[entry]) }
            let key = Int32(truncatingIfNeeded: entry)
            var position = unusualEntries.count - 1
            while position >= 0, unusualEntries[position] > key { position -= 1 }
            return position >= 0 && unusualEntries[position] == key ? unusual[position].type : Int64(types[entry])
        }

        /// Appends `attribute` as the next entry; returns the entry.
        @discardableResult
        mutating func append(_ attribute: DecodedAttribute) -> Int {
            let entry = starts.count
            var flags: Flags = attribute.scope == .inApp ? [.inApp] : []
            var extra = Unusual()
            var needsExtra = false
            starts.append(UInt32(truncatingIfNeeded: attribute.start))
            // Type and version.
            var typeColumn: UInt16 = 0
            if let type = attribute.type {
                flags.insert(.hasType)
                if type >= 0, type < Int64(UInt16.max) {
                    typeColumn = UInt16(type)
                } else {
                    typeColumn = UInt16.max
                    extra.type = type
                    needsExtra = true
                }
            } else if let range = attribute.largeTypeRange {
                extra.largeTypeRange = range
                needsExtra = true
            }
            types.append(typeColumn)
            var versionColumn: UInt8 = 0
            if let version = attribute.version {
                flags.insert(.hasVersion)
                if version >= 0, version < Int64(UInt8.max) {
                    versionColumn = UInt8(version)
                } else {
                    versionColumn = UInt8.max
                    extra.version = version
                    needsExtra = true
                }
            }
            versions.append(versionColumn)
            // Value octets and the attribute's end.
            if let range = attribute.valueRange {
                flags.insert(.hasValue)
                let delta = range.lowerBound - attribute.start
                if delta >= 0, delta < Int(UInt8.max) {
                    valueDeltas.append(UInt8(delta))
                } else {
                    valueDeltas.append(UInt8.max)
                    extra.valueStart = range.lowerBound
                    needsExtra = true
                }
                valueEnds.append(UInt32(truncatingIfNeeded: range.upperBound))
                if attribute.end != range.upperBound {
                    flags.insert(.endApart)
                    extra.end = attribute.end
                    needsExtra = true
                }
            } else {
                valueDeltas.append(0)
                valueEnds.append(UInt32(truncatingIfNeeded: attribute.end))
            }
            innerHeaders.append(UInt8(truncatingIfNeeded: Swift.min(attribute.innerHeader, Int(UInt8.max))))
            // The value's tag.
            if let tag = attribute.valueTag {
                flags.insert(.hasValueTag)
                let octet = tag.tagClass.rawValue << 6 | (tag.isConstructed ? 0x20 : 0)
                if tag.number < 0x1F {
                    tags.append(octet | UInt8(tag.number))
                } else {
                    tags.append(octet | 0x1F)
                    extra.tag = tag
                    needsExtra = true
                }
            } else {
                tags.append(0)
            }
            // The parsed value.
            kinds.append(attribute.kind)
            var number = attribute.number
            if attribute.kind == .date, let date = attribute.date {
                flags.insert(.dateParsed)
                if date.isWholeSecondUTC {
                    number = date.secondsSinceEpoch
                } else {
                    extra.date = date
                    needsExtra = true
                }
            }
            numbers.append(number)
            if needsExtra {
                flags.insert(.unusual)
                unusualEntries.append(Int32(truncatingIfNeeded: entry))
                unusual.append(extra)
            }
            self.flags.append(flags)
            return entry
        }

        /// Records that the record held by `entry` ends before entry `end`.
        mutating func closeRecord(_ entry: Int, end: Int) {
            numbers[entry] = Int64(end)
        }

        /// Records `entry` as a top-level attribute.
        mutating func noteTopLevel(_ entry: Int) {
            let key = Int32(truncatingIfNeeded: entry)
            if kinds[entry] == .record { records.append(key) }
            if flags[entry].contains(.hasType), types[entry] < 64, firstByType[Int(types[entry])] < 0 {
                firstByType[Int(types[entry])] = key
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
