import ReceiptASN1

/// The reading pass's packed entries, their wide facts and the payload buffer they index, with what each entry
/// says read back: the index holds one when the read is done, the builder one while it reads (so a check that runs
/// as each record is read reads entries the same way as one that runs after).
package struct EntryTable: Sendable {
    /// The buffer the entries' positions index.
    package let bytes: [UInt8]
    /// Translates buffer positions to file offsets.
    let map: SegmentMap
    var entries: [PayloadIndex.Entry] = []
    /// The facts that do not fit their entry, in entry order.
    var wide: [PayloadIndex.WideFact] = []

    init(bytes: [UInt8], map: SegmentMap) {
        self.bytes = bytes
        self.map = map
    }

    @inline(__always)
    package func fileOffset(_ position: Int) -> Int { map.fileOffset(position) }

    /// The `field` fact of `entry`, if it has one.
    func fact(_ field: PayloadIndex.WideFact.Field, of entry: Int) -> Int64? {
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
        let start =
            packed.valueDelta == 15
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

    package func type(_ entry: Int) -> Int64? {
        let packed = entries[entry]
        switch packed.type {
        case PayloadIndex.Entry.noType: return nil
        case PayloadIndex.Entry.wideType: return fact(.type, of: entry)
        default: return Int64(packed.type)
        }
    }

    /// Where the content of a type INTEGER too large for 64 bits is.
    package func largeTypeRange(_ entry: Int) -> Range<Int>? {
        guard let start = fact(.largeTypeStart, of: entry), let end = fact(.largeTypeEnd, of: entry),
            start >= 0, end >= start, end <= Int64(bytes.count)
        else { return nil }
        return Int(start)..<Int(end)
    }

    package func version(_ entry: Int) -> Int64? {
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
        guard number == PayloadIndex.Entry.wideNumber else { return Int64(number) }
        return fact(.number, of: entry) ?? Int64(number)
    }

    package func date(_ entry: Int) -> ReceiptDate? { storedDate(entry)?.date }

    /// A parsed date as an entry holds it, for a check that keeps many and shows few: `date` makes the
    /// `ReceiptDate` only when asked.
    package struct StoredDate: Sendable {
        package let seconds: Int64
        /// The fraction and UTC offset the date was written with (see `WideFact.Field.dateDetail`), when it was
        /// not a whole-second UTC one.
        let detail: Int64?

        package var date: ReceiptDate {
            guard let detail else { return ReceiptDate(utcSeconds: seconds) }
            return ReceiptDate(
                utcSeconds: seconds, nanosecond: Int(truncatingIfNeeded: detail >> 16),
                utcOffsetMinutes: Int(Int16(truncatingIfNeeded: detail)))
        }
    }

    package func storedDate(_ entry: Int) -> StoredDate? {
        guard let seconds = dateSeconds(entry) else { return nil }
        return StoredDate(seconds: seconds, detail: fact(.dateDetail, of: entry))
    }

    package func dateSeconds(_ entry: Int) -> Int64? {
        let state = entries[entry].state
        guard state.kind == .date, state.dateParsed else { return nil }
        return number(entry)
    }

    package func scope(_ entry: Int) -> FieldScope { entries[entry].state.inApp ? .inApp : .receipt }

    // MARK: What a view or a renderer shows of an entry, in file offsets

    /// Offset of the attribute's element in the file (`Attribute.offset`).
    @inline(__always)
    package func offset(_ entry: Int) -> Int { fileOffset(start(entry)) }

    /// Length of the attribute's whole encoding.
    package func length(_ entry: Int) -> Int { end(entry) - start(entry) }

    /// Where the value octets start in the file, when there is a value.
    package func valueOffset(_ entry: Int) -> Int? { valueRange(entry).map { fileOffset($0.lowerBound) } }

    /// The type INTEGER's content in hex, when it is an INTEGER too large for 64 bits.
    package func typeHex(_ entry: Int) -> String? {
        guard let range = largeTypeRange(entry) else { return nil }
        return ASN1Primitives.hex(bytes, range)
    }

    /// The number of an integer value.
    package func integer(_ entry: Int) -> Int64? { kind(entry) == .integer ? number(entry) : nil }

    /// The flag of a boolean value.
    package func boolean(_ entry: Int) -> Bool? { kind(entry) == .boolean ? number(entry) != 0 : nil }

    /// Where the text of a text or date value, or the content of a large INTEGER, is in `bytes`; empty for other
    /// kinds.
    package func shownContentRange(_ entry: Int) -> Range<Int> {
        switch kind(entry) {
        case .text, .date, .largeInteger: return contentRange(entry)
        default: return 0..<0
        }
    }

    /// Everything the entry says, unpacked in one step: what the reading pass appended, positions in `bytes`
    /// (a parsed date's seconds are its `number`). For a renderer that shows every fact of many attributes.
    package func decoded(_ entry: Int) -> DecodedAttribute {
        let packed = entries[entry]
        let state = packed.state
        let type = type(entry)
        let valueRange = valueRange(entry)
        let number = number(entry)
        // Made in one initialiser call, so the result is built in place (assigning field by field copied it).
        return DecodedAttribute(
            start: Int(packed.start), end: end(entry), scope: state.inApp ? .inApp : .receipt, type: type,
            largeTypeRange: type == nil && state.hasWideFacts ? largeTypeRange(entry) : nil,
            version: version(entry), valueRange: valueRange, valueTag: valueRange == nil ? nil : valueTag(entry),
            innerHeader: valueRange == nil ? 0 : innerHeader(entry), kind: state.kind, number: number,
            date: state.kind == .date && state.dateParsed ? storedDate(entry)?.date : nil)
    }

    /// The raw value octets (empty when there is no value).
    package func valueBytes(_ entry: Int) -> ArraySlice<UInt8> { bytes[valueRange(entry) ?? 0..<0] }

    /// Calls `body` with the raw value octets borrowed from the payload (empty when there is no value).
    package func withValueBytes<Result>(_ entry: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let range = valueRange(entry) ?? 0..<0
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Calls `body` with `shownContentRange`'s bytes borrowed from the payload.
    package func withContentBytes<Result>(_ entry: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let range = shownContentRange(entry)
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The entries of the record held by `entry` (empty when it holds none).
    package func children(_ entry: Int) -> Range<Int> {
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
        firstOfEachType(in: children(record), types: types, into: &slots)
    }

    /// The same over the attributes at `attributes` (a record's, as `RecordRereader` lends them).
    package func firstOfEachType(in attributes: Range<Int>, types: ClosedRange<UInt16>, into slots: inout [Int32]) {
        let count = Int(types.upperBound - types.lowerBound) + 1
        if slots.count != count { slots = Array(repeating: -1, count: count) }
        for position in slots.indices { slots[position] = -1 }
        guard types.upperBound < PayloadIndex.Entry.noType else { return }
        entries.withUnsafeBufferPointer { entries in
            for child in attributes where child < entries.count {
                let type = entries[child].type
                guard types.contains(type) else { continue }
                let position = Int(type &- types.lowerBound)
                if slots[position] < 0 { slots[position] = Int32(truncatingIfNeeded: child) }
            }
        }
    }
}
