import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptTestSupport
import Testing

@testable import ReceiptModel

/// A record whose entries the read dropped is read again from its bytes to the entries it had; a record the read
/// found something wrong with (a finding or an encoding anomaly) is never dropped, since a read with a fresh node
/// budget might not see it the same way.
@Suite("Dropped records are read again to the entries they had")
struct RecordRereaderTests {
    /// A sink that takes every record, as `StreamedRecordChecks` does once the creation date is known.
    final class TakesEveryRecord: RecordSink {
        func recordRead(
            _ record: Int, in table: EntryTable, firstByType: [Int32],
            buffer: UnsafeBufferPointer<UInt8>
        ) -> Bool { true }
        func readEnded(in table: EntryTable, buffer: UnsafeBufferPointer<UInt8>) {}
    }

    static func read(_ payload: [UInt8], keeping: Bool) -> ReceiptPayload {
        PayloadReader.read(
            file: payload, segments: [0..<payload.count], depth: 0, limits: .default, nodesRead: 0,
            truncated: false, recordSink: TakesEveryRecord(), keepsRecordEntries: keeping)
    }

    /// Every fact of every entry of each record, as a renderer reads them.
    static func records(_ payload: ReceiptPayload) -> [[String]] {
        RecordRereader.reading(payload.index) { rereader in
            payload.index.records.map { record in
                rereader.withAttributes(ofRecord: Int(record)) { table, children in
                    children.map { "\(table.decoded($0)) at \(table.fileOffset(table.start($0)))" }
                }
            }
        }
    }

    static func dropped(_ payload: ReceiptPayload) -> [Bool] {
        payload.index.records.map { payload.index.table.entries[Int($0)].state.entriesDropped }
    }

    static let clean: AttributeSpec = .record([
        .integer(1701, 1), .utf8(1702, "monthly"), .utf8(1703, "1000000000000001"),
        .ia5(1704, "2024-01-01T00:00:00Z"), .ia5(1708, "2024-02-01T00:00:00.250+02:00"),
        .integer(1711, 4_000_000_000), .raw(1750, [0xDE, 0xAD]),
    ])

    @Test func aCleanRecordIsDroppedAndReadAgainAsItWas() {
        let payload = PayloadBuilder.attributeSet([.utf8(2, "com.example"), Self.clean, Self.clean])
        let kept = Self.read(payload, keeping: true)
        let lean = Self.read(payload, keeping: false)
        #expect(Self.dropped(lean) == [true, true])
        #expect(Self.dropped(kept) == [false, false])
        #expect(lean.index.entryCount == 3, "the lean index holds the top level only")
        #expect(Self.records(lean) == Self.records(kept))
        #expect(Self.records(kept).first?.count == 7)
        // The views read it again too.
        #expect(
            lean.inAppRecords.map { $0.attributes.map(\.description) }
                == kept.inAppRecords.map { $0.attributes.map(\.description) })
        #expect(lean.inAppRecords.first?.first(1702)?.text == "monthly")
        #expect(lean.inAppRecords.first?.first(1711)?.integer == 4_000_000_000)
    }

    @Test func aRecordWithAFindingOrAnAnomalyKeepsItsEntries() {
        // A product id that is not UTF-8 (a finding), and a record SET in BER with an indefinite length (an
        // encoding anomaly).
        let badText: AttributeSpec = .record([.integer(1701, 1), .raw(1702, [0x0C, 0x02, 0xFF, 0xFE])])
        var indefinite = PayloadBuilder.attributeSet([.integer(1701, 1), .utf8(1702, "weekly")])
        indefinite = [0x31, 0x80] + indefinite.dropFirst(2) + [0x00, 0x00]
        let payload = PayloadBuilder.attributeSet([Self.clean, badText, .raw(17, indefinite)], sorted: false)
        let kept = Self.read(payload, keeping: true)
        let lean = Self.read(payload, keeping: false)
        #expect(lean.inAppRecords.count == 3)
        #expect(Self.dropped(lean) == [true, false, false])
        #expect(Self.records(lean) == Self.records(kept))
        #expect(lean.findings.map(\.code) == kept.findings.map(\.code))
        #expect(!lean.findings.isEmpty)
    }

    /// Random damage to a payload of records: whatever the read makes of it, every record shows the same entries
    /// whether its entries were kept or dropped and read again.
    @Test func damagedPayloads() {
        var random = SplitMix64(seed: 25)
        let original = PayloadBuilder.attributeSet([.utf8(2, "com.example")] + Array(repeating: Self.clean, count: 4))
        var droppedRecords = 0
        for trial in 0..<2_000 {
            var bytes = original
            for _ in 0...(random.next() % 3) {
                let index = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[index] ^= UInt8(1 << (random.next() % 8))
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                }
            }
            let kept = Self.read(bytes, keeping: true)
            let lean = Self.read(bytes, keeping: false)
            #expect(Self.records(lean) == Self.records(kept), "damaged #\(trial)")
            #expect(lean.findings.map(\.code) == kept.findings.map(\.code), "damaged #\(trial)")
            droppedRecords += Self.dropped(lean).filter { $0 }.count
        }
        #expect(droppedRecords > 1_000, "only \(droppedRecords) records were dropped")
    }

    /// `decoded` unpacks what the views read, fact by fact.
    @Test func decodedAgreesWithTheViews() {
        let payload = Self.read(PayloadBuilder.attributeSet([.utf8(2, "com.example"), Self.clean]), keeping: true)
        let table = payload.index.table
        for entry in 0..<payload.index.entryCount {
            let view = Attribute(payload.index, entry)
            let decoded = table.decoded(entry)
            #expect(table.fileOffset(decoded.start) == view.offset)
            #expect(decoded.end - decoded.start == view.length)
            #expect(decoded.type == view.type && decoded.version == view.version && decoded.kind == view.kind)
            #expect(decoded.valueRange.map { table.fileOffset($0.lowerBound) } == view.valueOffset)
            #expect(decoded.valueTag == view.valueTag && decoded.scope == view.scope)
            #expect(decoded.date == view.date)
            #expect(Array(table.bytes[decoded.contentRange]) == Array(view.contentBytes) || view.contentBytes.isEmpty)
            if view.kind == .integer { #expect(decoded.number == view.integer) }
        }
    }
}
