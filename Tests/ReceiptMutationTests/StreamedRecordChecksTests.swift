import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptModel
import ReceiptMutation
import ReceiptPKCS7
import ReceiptSigning
import ReceiptTestSupport
@testable import ReceiptValidation
import Testing

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
        let lean = Receipt.read(decoded, container: container, limits: .default, recordSink: sink,
                                keepsRecordEntries: false)
        let expectations = Expectations(bundleID: "com.example.rcpt.synthetic")
        let after = ReceiptChecks.check(kept, expectations: expectations, at: time, statusAt: statusAt, now: time)
        let streamed = ReceiptChecks.check(lean, expectations: expectations, at: time, statusAt: statusAt, now: time,
                                           streamed: sink)
        #expect(lines(streamed) == lines(after), "\(label): the record checks judged differently as records were read")
        #expect(lines(lean.findings) == lines(kept.findings), "\(label): the read found differently")
        #expect(lean.error?.code == kept.error?.code, "\(label)")
        // The records the sink took hold no entry any more; the ones it did not keep theirs.
        let leanEntries = lean.payload?.index.entryCount ?? 0
        let keptEntries = kept.payload?.index.entryCount ?? 0
        if sink.checks != nil {
            #expect(lean.inAppRecords.allSatisfy { $0.attributes.isEmpty }, "\(label): a checked record kept entries")
            #expect(lean.inAppRecords.count == kept.inAppRecords.count, "\(label)")
        } else {
            #expect(leanEntries == keptEntries, "\(label): records dropped without being checked")
        }
        return sink.checks != nil
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
        func record(_ transaction: String, product: String, purchase: String, expires: String?,
                    cancelled: String? = nil, quantity: Int64 = 1) -> AttributeSpec {
            var fields: [AttributeSpec] = [
                .integer(1701, quantity), .utf8(1702, product), .utf8(1703, transaction), .ia5(1704, purchase),
                .utf8(1705, transaction), .ia5(1706, purchase),
            ]
            if let expires { fields.append(.ia5(1708, expires)) }
            if let cancelled { fields.append(.ia5(1712, cancelled)) }
            return .record(fields)
        }
        return [
            record("1000000000000001", product: "monthly", purchase: "2024-01-01T00:00:00Z",
                   expires: "2024-02-01T00:00:00Z"),
            record("1000000000000001", product: "monthly", purchase: "2024-05-01T00:00:00Z",
                   expires: "2024-07-01T00:00:00Z"),
            record("abc", product: "yearly", purchase: "2024-08-01T00:00:00.250+02:00",
                   expires: "2025-08-01T00:00:00Z", quantity: 0),
            record("abc", product: "yearly", purchase: "2024-03-01T00:00:00Z", expires: "2024-02-01T00:00:00Z",
                   cancelled: "2024-09-01T00:00:00Z"),
            record("7", product: "weekly", purchase: "2024-05-25T00:00:00Z", expires: "2024-06-08T00:00:00Z",
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
            ("creation date after a record",
             PayloadBuilder.attributeSet(others + records.prefix(1) + creation + records.dropFirst(), sorted: false),
             false),
            ("creation date last", PayloadBuilder.attributeSet(others + records + creation, sorted: false), false),
            ("no creation date", PayloadBuilder.attributeSet(others + records, sorted: false), false),
        ]
        for (name, payload, streams) in orders {
            for statusAt in [Self.time, 1_750_000_000] {
                let took = Self.expectOneJudgement(UnsignedReceipts.wrap(payload), "\(environment), \(name)",
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

    /// What `rcpt verify` shows, through the whole inspection: the same verdict and findings with and without
    /// the records' entries kept, on a receipt large enough to check in the background.
    @Test func inspectionsAgree() throws {
        let authority = try #require(TestReceipts.authority)
        let bytes = try TestReceipts.signed(SyntheticReceipt(records: 3_000))
        var options = InspectionOptions(anchors: TrustAnchors([authority.root]), now: Self.time)
        let kept = Inspector.inspect(bytes, options: options)
        options.keepsRecords = false
        let lean = Inspector.inspect(bytes, options: options)
        #expect(kept.isValid && lean.isValid)
        #expect(Self.lines(lean.findings) == Self.lines(kept.findings))
        #expect(kept.receipt?.inAppRecords.count == 3_000)
        #expect(lean.receipt?.inAppRecords.allSatisfy { $0.attributes.isEmpty } == true)
        let leanEntries = try #require(lean.receipt?.payload?.index.entryCount)
        #expect(leanEntries < 3_100, "the lean index kept \(leanEntries) entries")
    }
}
