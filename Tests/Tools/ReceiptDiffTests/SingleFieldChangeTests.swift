import ReceiptBuilding
import ReceiptDiff
import ReceiptModel
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// One field changed, re-signed: the diff reports that change, plus the signature the change invalidated.
@Suite("Single-field changes are reported exactly")
struct SingleFieldChangeTests {
    typealias Edit = @Sendable (inout TestPayload) -> Void

    static let tid = TestPayload.transactionID

    static let edits: [(name: String, edit: Edit, path: String, kind: Change.Kind)] = [
        (
            "bundle id", { $0.setAttribute(.utf8(2, "com.example.weather.pro")) }, "attributes[type=2#0].value",
            .changed
        ),
        (
            "application version's version field", { $0.setAttribute(.utf8(3, "42", version: 2)) },
            "attributes[type=3#0].version", .changed
        ),
        (
            "creation date", { $0.setAttribute(.ia5(12, "2024-07-01T12:00:00Z")) }, "attributes[type=12#0].value",
            .changed
        ),
        (
            "bundle id's ASN.1 type", { $0.setAttribute(.ia5(2, "com.example.weather")) }, "attributes[type=2#0].asn1",
            .changed
        ),
        (
            "opaque value", { $0.setAttribute(.raw(4, [1, 2, 3], version: 2)) }, "attributes[type=4#0].value",
            .changed
        ),
        ("unknown type added", { $0.attributes.append(.utf8(99, "x")) }, "attributes[type=99#0]", .added),
        (
            "duplicate bundle id (sorting after the first)",
            { $0.attributes.append(.utf8(2, "com.example.weather.evil")) }, "attributes[type=2#1]", .added
        ),
        (
            "original purchase date removed", { $0.attributes.removeAll { $0.type == 18 } }, "attributes[type=18#0]",
            .removed
        ),
        (
            "expires_date", { $0.setField(record: 1, .ia5(1708, "2024-03-31T00:00:00Z")) },
            "in_app[transaction_id=\(tid(1))].expires_date", .changed
        ),
        (
            "refund: cancellation_date set", { $0.setField(record: 0, .ia5(1712, "2024-01-15T10:00:00Z")) },
            "in_app[transaction_id=\(tid(0))].cancellation_date", .changed
        ),
        (
            "renewal record added", { $0.records.append(TestPayload.record(index: 3)) },
            "in_app[transaction_id=\(tid(3))]", .added
        ),
        ("record removed", { $0.records.remove(at: 2) }, "in_app[transaction_id=\(tid(2))]", .removed),
        (
            "web_order_line_item_id removed", { $0.records[0].removeAll { $0.type == 1711 } },
            "in_app[transaction_id=\(tid(0))].web_order_line_item_id", .removed
        ),
        (
            "unknown in-app type added", { $0.records[1].append(.utf8(1799, "?")) },
            "in_app[transaction_id=\(tid(1))].type_1799", .added
        ),
        (
            "transaction id", { $0.setField(record: 2, .utf8(1703, "2000000000000003")) },
            "in_app[transaction_id=\(tid(2))].transaction_id", .changed
        ),
        (
            "quantity's version field", { $0.setField(record: 0, .integer(1701, 1, version: 2)) },
            "in_app[transaction_id=\(tid(0))].quantity.version", .changed
        ),
        (
            "trial flag", { $0.setField(record: 2, .integer(1713, 1)) },
            "in_app[transaction_id=\(tid(2))].is_trial_period", .changed
        ),
        (
            "product id's ASN.1 type", { $0.setField(record: 1, .ia5(1702, "com.example.weather.monthly")) },
            "in_app[transaction_id=\(tid(1))].product_id.asn1", .changed
        ),
    ]

    static func receipts(_ edit: Edit) throws -> ([UInt8], [UInt8]) {
        let original = TestPayload.subscription()
        return (
            try TestReceipts.signed(payload: original.encoded()),
            try TestReceipts.signed(payload: original.with(edit).encoded())
        )
    }

    @Test(arguments: edits)
    func reportsTheChangeAndTheSignatureItInvalidated(
        _ name: String, _ edit: Edit, _ path: String,
        _ kind: Change.Kind
    ) throws {
        let (a, b) = try Self.receipts(edit)
        let result = try Diffing.diff(a, b)
        // Re-signed, both are valid; a second bundle id is an error verify gives, so the verdict changes too.
        let verdict = name.hasPrefix("duplicate") ? ["verdict.valid", "verdict.errors"] : []
        #expect(Diffing.paths(result) == ["signers[0].signature"] + verdict + [path], "\(name)")
        #expect(Diffing.change(result, path)?.kind == kind, "\(name)")
    }

    @Test(arguments: edits)
    func reportsOnlyTheChangeInTheReceiptLayer(
        _ name: String, _ edit: Edit, _ path: String,
        _ kind: Change.Kind
    ) throws {
        let (a, b) = try Self.receipts(edit)
        let result = try Diffing.diff(a, b, options: DiffOptions(layers: [.receipt]))
        #expect(Diffing.paths(result) == [path], "\(name)")
    }

    @Test func changeCarriesOldAndNewValuesAndBothOffsets() throws {
        let (a, b) = try Self.receipts { $0.setField(record: 0, .ia5(1712, "2024-01-15T10:00:00Z")) }
        let result = try Diffing.diff(a, b)
        let change = try #require(Diffing.change(result, "in_app[transaction_id=\(Self.tid(0))].cancellation_date"))
        #expect(change.old == .text(""))
        #expect(change.new == .text("2024-01-15T10:00:00Z"))
        #expect(change.layer == .receipt)
        let offsetA = try #require(change.offsetA)
        let offsetB = try #require(change.offsetB)
        let inspectionA = try Diffing.inspect(a)
        let inspectionB = try Diffing.inspect(b)
        #expect(inspectionA.receipt?.inAppRecords.contains { $0.first(1712)?.offset == offsetA } == true)
        #expect(inspectionB.receipt?.inAppRecords.contains { $0.first(1712)?.offset == offsetB } == true)
    }

    @Test func signatureChangeCanBeIgnored() throws {
        let (a, b) = try Self.receipts { $0.setAttribute(.utf8(2, "com.example.weather.pro")) }
        let ignore = try Diffing.patterns(["signers[*].signature"])
        let result = try Diffing.diff(a, b, options: DiffOptions(ignore: ignore))
        #expect(Diffing.paths(result) == ["attributes[type=2#0].value"])
        #expect(result.ignoredCount == 1)
    }

    @Test func unsignedEditShowsTheBrokenSignatureInVerification() throws {
        let original = try TestReceipts.signed(payload: TestPayload.subscription().encoded())
        let edited = TestPayload.subscription().with { $0.setAttribute(.utf8(3, "43")) }.encoded()
        let original3 = TestPayload.subscription().encoded()
        var tampered = original
        let start = try #require(original.firstRange(of: original3)?.lowerBound)
        // Same length: "42" → "43" in place, signature left as it was.
        tampered.replaceSubrange(start..<(start + edited.count), with: edited)
        let result = try Diffing.diff(original, tampered)
        #expect(
            Diffing.paths(result) == [
                "verification.signature", "verification.errors", "verdict.valid", "verdict.errors",
                "attributes[type=3#0].value",
            ])
        #expect(Diffing.change(result, "verification.signature")?.new == .word("invalid"))
    }
}
