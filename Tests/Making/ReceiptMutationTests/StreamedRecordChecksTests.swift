import Foundation
import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptModel
import ReceiptMutation
import ReceiptPKCS7
import ReceiptRendering
import ReceiptSigning
import ReceiptTestSupport
import Testing

@testable import ReceiptValidation

/// The record checks run as the reading pass reads each record (so `rcpt verify` can drop the record's entries)
/// held to the same checks run after the read over every entry: the same findings, in the same order, with the
/// same severities, offsets, messages and fields, on real receipts, every mutation of the catalogue, hand-built
/// payloads whose creation date comes after their records, Xcode receipts and damaged payloads.
@Suite("Record checks run as records are read judge as the checks after the read")
struct StreamedRecordChecksTests {
    static let time: Int64 = 1_717_243_200  // 2024-06-01T12:00:00Z

    /// Findings as comparable text.
    static func lines(_ findings: [Finding]) -> [String] {
        findings.map { finding in
            "\(finding.code) \(finding.severity) \(finding.offset ?? -1) \(finding.message) "
                + finding.fields.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        }
    }

    /// Reads `bytes` twice, every entry kept and the records checked after the read, and each record checked as
    /// read and its entries dropped: the findings must agree. Returns whether the read took the records as read.
    @discardableResult
    static func expectOneJudgement(_ bytes: [UInt8], _ label: String, statusAt: Int64 = time) -> Bool {
        let decoded = (try? InputDecoder.decode(bytes).get().bytes) ?? bytes
        let container = SignedDataReader.read(decoded, limits: .default, containerLimits: .default)
        let kept = Receipt.read(decoded, container: container, limits: .default)
        let sink = StreamedRecordChecks()
        let lean = Receipt.read(
            decoded, container: container, limits: .default, recordSink: sink,
            keepsRecordEntries: false)
        let expectations = Expectations(bundleID: "com.example.rcpt.synthetic")
        let after = ReceiptChecks.check(kept, expectations: expectations, at: time, statusAt: statusAt, now: time)
        let streamed = ReceiptChecks.check(
            lean, expectations: expectations, at: time, statusAt: statusAt, now: time,
            streamed: sink)
        #expect(lines(streamed) == lines(after), "\(label): the record checks judged differently as records were read")
        #expect(lines(lean.findings) == lines(kept.findings), "\(label): the read found differently")
        #expect(lean.error?.code == kept.error?.code, "\(label)")
        // The records the sink took and the read found nothing wrong with hold no entry any more, the others keep
        // theirs; either way every record shows the same attributes, a dropped one read again from its bytes.
        let leanEntries = lean.payload?.index.entryCount ?? 0
        let keptEntries = kept.payload?.index.entryCount ?? 0
        #expect(lean.inAppRecords.count == kept.inAppRecords.count, "\(label)")
        expectSameRecords(lean, kept, label)
        if sink.checks == nil {
            #expect(leanEntries == keptEntries, "\(label): records dropped without being checked")
        }
        return sink.checks != nil
    }

    /// Every fact of every record's attributes, through the views (`InAppRecord.attributes`) and through the
    /// tables a renderer reads (`RecordRereader`): the same in `lean` as in `kept`. Returns how many of `lean`'s
    /// records were dropped and read again.
    @discardableResult
    static func expectSameRecords(_ lean: Receipt, _ kept: Receipt, _ label: String) -> Int {
        func viewed(_ receipt: Receipt) -> [[String]] {
            receipt.inAppRecords.map { record in
                record.attributes.map { attribute in
                    "\(attribute.offset) \(attribute.length) \(String(describing: attribute.type)) "
                        + "\(String(describing: attribute.version)) \(String(describing: attribute.valueOffset)) "
                        + "\(attribute.kind) \(attribute.value) \(String(describing: attribute.valueTag)) "
                        + "\(attribute.scope) \(attribute.valueBytes.map { String($0) }.joined(separator: ","))"
                }
            }
        }
        func tabled(_ receipt: Receipt) -> [[String]] {
            guard let index = receipt.payload?.index else { return [] }
            return RecordRereader.reading(index) { rereader in
                index.records.map { record in
                    rereader.withAttributes(ofRecord: Int(record)) { table, children in
                        children.map { child in
                            let decoded = table.decoded(child)
                            return "\(decoded) \(table.fileOffset(decoded.start))"
                        }
                    }
                }
            }
        }
        #expect(viewed(lean) == viewed(kept), "\(label): a record's attributes differ once its entries are dropped")
        #expect(tabled(lean) == tabled(kept), "\(label): a record read again differs from the record read")
        // A record that holds no entry in `lean` and some in `kept` was dropped.
        guard let leanIndex = lean.payload?.index, let keptIndex = kept.payload?.index else { return 0 }
        return zip(leanIndex.records, keptIndex.records).filter { leanRecord, keptRecord in
            leanIndex.table.children(Int(leanRecord)).isEmpty && !keptIndex.table.children(Int(keptRecord)).isEmpty
        }.count
    }

    @Test func realReceipts() {
        var streamed = 0
        for name in Fixtures.realReceiptNames {
            if Self.expectOneJudgement(Fixtures.realReceipt(name), name) { streamed += 1 }
        }
        // Apple writes the creation date before the records: every real receipt with records is read streaming.
        #expect(streamed >= 8, "only \(streamed) real receipts had their records checked as read")
    }

    @Test func everyMutationOfTheCatalogue() throws {
        let kit = try #require(MutationFixtures.kit)
        for input in MutationFixtures.inputs {
            for mutation in MutationCatalogue.all {
                guard let bytes = try? mutation.apply(to: input.bytes, kit: kit, seed: 9) else { continue }
                Self.expectOneJudgement(bytes, "\(input.name) / \(mutation.name)")
            }
        }
    }

    /// Records that break each check: a repeated transaction id (as text and as a number), a purchase, an original
    /// purchase and a cancellation after the creation date, a quantity out of range, an expiry before purchase,
    /// active and expired subscriptions of several products.
    static func records() -> [AttributeSpec] {
        func record(
            _ transaction: String, product: String, purchase: String, expires: String?,
            cancelled: String? = nil, quantity: Int64 = 1
        ) -> AttributeSpec {
            var fields: [AttributeSpec] = [
                .integer(1701, quantity), .utf8(1702, product), .utf8(1703, transaction), .ia5(1704, purchase),
                .utf8(1705, transaction), .ia5(1706, purchase),
            ]
            if let expires { fields.append(.ia5(1708, expires)) }
            if let cancelled { fields.append(.ia5(1712, cancelled)) }
            return .record(fields)
        }
        return [
            record(
                "1000000000000001", product: "monthly", purchase: "2024-01-01T00:00:00Z",
                expires: "2024-02-01T00:00:00Z"),
            record(
                "1000000000000001", product: "monthly", purchase: "2024-05-01T00:00:00Z",
                expires: "2024-07-01T00:00:00Z"),
            record(
                "abc", product: "yearly", purchase: "2024-08-01T00:00:00.250+02:00",
                expires: "2025-08-01T00:00:00Z", quantity: 0),
            record(
                "abc", product: "yearly", purchase: "2024-03-01T00:00:00Z", expires: "2024-02-01T00:00:00Z",
                cancelled: "2024-09-01T00:00:00Z"),
            record(
                "7", product: "weekly", purchase: "2024-05-25T00:00:00Z", expires: "2024-06-08T00:00:00Z",
                quantity: 5000),
        ]
    }

    @Test(arguments: ["ProductionSandbox", "Xcode"])
    func creationDateBeforeOrAfterTheRecords(_ environment: String) {
        let basics = SyntheticReceipt(environment: environment, records: 0).attributes()
        let records = Self.records()
        // DER order (the creation date first), the creation date after the first record, and no creation date.
        let creation = basics.filter { $0.type == 12 }
        let others = basics.filter { $0.type != 12 }
        let orders: [(String, [UInt8], Bool)] = [
            ("DER order", PayloadBuilder.attributeSet(basics + records), true),
            (
                "creation date after a record",
                PayloadBuilder.attributeSet(others + records.prefix(1) + creation + records.dropFirst(), sorted: false),
                false
            ),
            ("creation date last", PayloadBuilder.attributeSet(others + records + creation, sorted: false), false),
            ("no creation date", PayloadBuilder.attributeSet(others + records, sorted: false), false),
        ]
        for (name, payload, streams) in orders {
            for statusAt in [Self.time, 1_750_000_000] {
                let took = Self.expectOneJudgement(
                    UnsignedReceipts.wrap(payload), "\(environment), \(name)",
                    statusAt: statusAt)
                #expect(took == streams, "\(environment), \(name)")
            }
        }
    }

    @Test func damagedPayloads() {
        var random = SplitMix64(seed: 11)
        let original = PayloadBuilder.attributeSet(SyntheticReceipt(records: 0).attributes() + Self.records())
        for trial in 0..<1_500 {
            var bytes = original
            switch random.next() % 3 {
            case 0:
                for _ in 0...(random.next() % 3) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    bytes[index] ^= UInt8(1 << (random.next() % 8))
                }
            case 1:
                bytes.removeLast(1 + Int(random.next() % UInt64(bytes.count - 1)))
            default:
                let index = Int(random.next() % UInt64(bytes.count))
                if random.next() % 2 == 0 { bytes.insert(0x00, at: index) } else { bytes.remove(at: index) }
            }
            Self.expectOneJudgement(UnsignedReceipts.wrap(bytes), "damaged #\(trial)")
        }
    }

    /// What `rcpt dump --format json` writes (it reads with `keepsRecords` false and reads each record again as it
    /// writes it) is byte for byte what it wrote from an index that kept every entry: real receipts, the
    /// regression corpus, the fuzz seeds, and every mutation of the catalogue.
    @Test func dumpJSONIsTheSameWithTheRecordsDropped() throws {
        let authority = try #require(TestReceipts.authority)
        var inputs: [(String, [UInt8])] = Fixtures.realReceiptNames.map { ($0, Fixtures.realReceipt($0)) }
        for directory in ["Corpus/regressions", "Corpus/fuzz/verify", "Corpus/fuzz/dump"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url(directory).path)) ?? []
            inputs += names.sorted().map { ("\(directory)/\($0)", Fixtures.bytes("\(directory)/\($0)")) }
        }
        let kit = try #require(MutationFixtures.kit)
        for input in MutationFixtures.inputs {
            for mutation in MutationCatalogue.all {
                guard let bytes = try? mutation.apply(to: input.bytes, kit: kit, seed: 9) else { continue }
                inputs.append(("\(input.name) / \(mutation.name)", bytes))
            }
        }
        var dropped = 0
        for (label, bytes) in inputs {
            var options = InspectionOptions(anchors: TrustAnchors([authority.root]), now: Self.time)
            let kept = ReceiptInspector.inspect(bytes, options: options)
            options.keepsRecords = false
            let lean = ReceiptInspector.inspect(bytes, options: options)
            #expect(DumpJSON.render(lean) == DumpJSON.render(kept), "\(label): the dump differs")
            if let leanReceipt = lean.receipt, let keptReceipt = kept.receipt {
                dropped += Self.expectSameRecords(leanReceipt, keptReceipt, label)
            }
        }
        #expect(inputs.count > 400)
        #expect(dropped > 500, "only \(dropped) records were dropped and read again")
    }

    /// What `rcpt verify` shows, through the whole inspection: the same verdict and findings with and without
    /// the records' entries kept, on a receipt large enough to check in the background.
    @Test func inspectionsAgree() throws {
        let authority = try #require(TestReceipts.authority)
        let bytes = try TestReceipts.signed(SyntheticReceipt(records: 3_000))
        var options = InspectionOptions(anchors: TrustAnchors([authority.root]), now: Self.time)
        let kept = ReceiptInspector.inspect(bytes, options: options)
        options.keepsRecords = false
        let lean = ReceiptInspector.inspect(bytes, options: options)
        #expect(kept.isValid && lean.isValid)
        #expect(Self.lines(lean.findings) == Self.lines(kept.findings))
        #expect(kept.receipt?.inAppRecords.count == 3_000)
        let leanEntries = try #require(lean.receipt?.payload?.index.entryCount)
        #expect(leanEntries < 3_100, "the lean index kept \(leanEntries) entries")
        let dropped = Self.expectSameRecords(try #require(lean.receipt), try #require(kept.receipt), "3 000 records")
        #expect(dropped == 3_000)
        // And what `rcpt dump --format json` writes from each, byte for byte.
        #expect(DumpJSON.render(lean) == DumpJSON.render(kept))
    }
}
