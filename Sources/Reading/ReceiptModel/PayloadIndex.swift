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
    /// The entries, their wide facts and the bytes they index: what each entry says is read there.
    package let table: EntryTable
    /// The entries of the top-level attributes, and of the type-17 attributes that hold a record, in order.
    package let topLevel: [Int32]
    package let records: [Int32]
    /// For receipt types 0–63: the entry of the first top-level attribute of that type, or -1.
    let firstByType: [Int32]
    /// How the records whose entries were dropped were read, to read them again the same way; nil when none was.
    let rereading: RecordRereading?

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

        /// Every 3-bit value is a kind, so this is a lookup, never a failed conversion (`ValueKind(rawValue:)` is a
        /// call per read on the hot paths).
        @inline(__always)
        var kind: ValueKind {
            switch rawValue & 0x07 {
            case 1: .text
            case 2: .date
            case 3: .integer
            case 4: .largeInteger
            case 5: .boolean
            case 6: .raw
            case 7: .record
            default: .absent
            }
        }
        var version: VersionCode { VersionCode(rawValue: rawValue >> 3 & 0x03) ?? .none }
        var inApp: Bool { rawValue & 1 << 5 != 0 }
        /// A date value that parsed.
        var dateParsed: Bool {
            get { rawValue & 1 << 6 != 0 }
            set { rawValue = newValue ? rawValue | 1 << 6 : rawValue & ~(1 << 6) }
        }
        /// A record (kind `.record`) whose entries the index dropped after the read: `RecordRereader` reads them
        /// again. Shares its bit with `dateParsed`, which only a date sets.
        var entriesDropped: Bool {
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
        table = builder.table
        topLevel = builder.topLevel
        records = builder.records
        firstByType = builder.firstByType
        rereading = builder.rereading
    }

    /// How many entries there are (attributes of the receipt and of its records).
    public var entryCount: Int { table.entries.count }

    /// The bytes the index holds beyond the input: the entries, the wide facts and the lists.
    public var memoryCost: Int {
        table.entries.count * MemoryLayout<Entry>.stride + table.wide.count * MemoryLayout<WideFact>.stride
            + (topLevel.count + records.count + firstByType.count) * 4
    }

}

extension PayloadIndex {
    /// What the reading pass appends to; `PayloadIndex(builder)` freezes it.
    struct Builder {
        var table: EntryTable
        var topLevel: [Int32] = []
        var records: [Int32] = []
        var firstByType = [Int32](repeating: -1, count: 64)
        var rereading: RecordRereading?

        /// The entry count estimated from the payload's size (an attribute of an in-app record takes about 20
        /// bytes), reserved by `reserveEntries` so the table.entries rarely grow.
        let expectedEntries: Int

        init(bytes: [UInt8], map: SegmentMap, expectedBytes: Int) {
            table = EntryTable(bytes: bytes, map: map)
            expectedEntries = Swift.min(expectedBytes / 20 + 16, 1 << 24)
        }

        /// Reserves the expected table.entries. Called by the builder's one owner (the reading pass), not at `init`: a
        /// buffer reserved there would be shared with the caller's copy of the builder, and the first append would
        /// copy it whole (on a 100 000-record receipt, 32 MB twice at the peak).
        mutating func reserveEntries() {
            table.entries.reserveCapacity(expectedEntries)
            topLevel.reserveCapacity(Swift.min(expectedEntries, 64))
        }

        var count: Int { table.entries.count }

        /// Appends `attribute` as the next entry; returns the entry.
        @discardableResult
        mutating func append(_ attribute: DecodedAttribute) -> Int {
            let entry = table.entries.count
            let key = Int32(truncatingIfNeeded: entry)
            var wideCount = 0
            func note(_ field: WideFact.Field, _ value: Int64) {
                if table.wide.capacity == 0 { table.wide.reserveCapacity(16) }
                table.wide.append(WideFact(value: value, entry: key, field: field))
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
                    note(
                        .dateDetail,
                        Int64(date.nanosecond) << 16 | Int64(UInt16(bitPattern: Int16(date.utcOffsetMinutes))))
                }
            }
            var packedNumber = Entry.wideNumber
            if number > Int64(Int32.min), number <= Int64(Int32.max) {
                packedNumber = Int32(truncatingIfNeeded: number)
            } else {
                note(.number, number)
            }
            state.hasWideFacts = wideCount > 0
            table.entries.append(
                Entry(
                    start: UInt32(truncatingIfNeeded: attribute.start), valueEnd: valueEnd,
                    number: packedNumber, type: type, layout: layout, state: state))
            return entry
        }

        /// Appends an entry the canonical path packed itself (it has no wide fact); returns the entry.
        @inline(__always)
        mutating func append(_ packed: Entry) -> Int {
            table.entries.append(packed)
            return table.entries.count &- 1
        }

        /// Records that the record held by `entry` ends before entry `end`.
        mutating func closeRecord(_ entry: Int, end: Int) {
            table.entries[entry].number = Int32(truncatingIfNeeded: end)
        }

        /// Drops the entries of the record held by `entry` (the last record read), and their wide facts, once its
        /// sink has checked it: the index then holds the record's place and `RecordRereader` reads its attributes
        /// again when asked, as `rereading` says (set by the reader, whose rules are the same for every record). A
        /// record whose SET is at another depth than `rereading` says keeps its entries.
        mutating func dropRecordEntries(_ entry: Int, depth: Int) {
            let kept = entry &+ 1
            guard kept <= table.entries.count, rereading?.depth == depth else { return }
            table.entries.removeLast(table.entries.count &- kept)
            let key = Int32(truncatingIfNeeded: entry)
            while let last = table.wide.last, last.entry > key { table.wide.removeLast() }
            closeRecord(entry, end: kept)
            table.entries[entry].state.entriesDropped = true
        }

        /// Records `entry` as a top-level attribute.
        mutating func noteTopLevel(_ entry: Int) {
            let key = Int32(truncatingIfNeeded: entry)
            let packed = table.entries[entry]
            if packed.state.kind == .record {
                if records.capacity == 0 { records.reserveCapacity(16) }
                records.append(key)
            }
            if packed.type < 64, firstByType[Int(packed.type)] < 0 { firstByType[Int(packed.type)] = key }
            topLevel.append(key)
        }
    }
}

/// One attribute as the reading pass decodes it, in buffer positions, before it is appended to the index; and as
/// `EntryTable.decoded` unpacks it again.
package struct DecodedAttribute {
    package var start: Int
    package var end: Int
    package var scope: FieldScope
    package var type: Int64?
    package var largeTypeRange: Range<Int>?
    package var version: Int64?
    package var valueRange: Range<Int>?
    package var valueTag: ASN1Tag?
    /// The header length of the one element inside the value.
    package var innerHeader = 0
    package var kind: ValueKind = .absent
    /// An integer, a flag (0 or 1), a parsed date's seconds since the epoch, or for a record the entry just past
    /// its last attribute.
    package var number: Int64 = 0
    package var date: ReceiptDate?

    init(start: Int, end: Int, scope: FieldScope) {
        self.start = start
        self.end = end
        self.scope = scope
    }

    init(
        start: Int, end: Int, scope: FieldScope, type: Int64?, largeTypeRange: Range<Int>?, version: Int64?,
        valueRange: Range<Int>?, valueTag: ASN1Tag?, innerHeader: Int, kind: ValueKind, number: Int64,
        date: ReceiptDate?
    ) {
        self.start = start
        self.end = end
        self.scope = scope
        self.type = type
        self.largeTypeRange = largeTypeRange
        self.version = version
        self.valueRange = valueRange
        self.valueTag = valueTag
        self.innerHeader = innerHeader
        self.kind = kind
        self.number = number
        self.date = date
    }

    /// The content range of the value's one element.
    package var contentRange: Range<Int> {
        guard let range = valueRange else { return 0..<0 }
        return Swift.min(range.lowerBound + innerHeader, range.upperBound)..<range.upperBound
    }

    /// The field table's row for this type in this scope, if known.
    package var descriptor: FieldDescriptor? { type.flatMap { FieldTable.descriptor($0, in: scope) } }

    /// A name for people and JSON: the field name, or `type_N` / `unknown` when not in the table.
    package var name: String { FieldTable.displayName(of: type, in: scope) }

    /// The ASN.1 type name of the value, or "OCTET STRING" when the value bytes are not one ASN.1 element.
    package var asn1TypeName: String { Self.asn1TypeName(of: valueTag) }

    /// The name of a value's type from the tag of the one element it holds (nil: not one element).
    package static func asn1TypeName(of valueTag: ASN1Tag?) -> String { valueTag?.name ?? "OCTET STRING" }
}
