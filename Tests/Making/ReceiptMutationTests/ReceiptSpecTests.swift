import ReceiptASN1
import ReceiptDiagnostics
import ReceiptModel
import ReceiptMutation
import ReceiptRendering
import ReceiptTestSupport
import ReceiptValidation
import Testing

@Suite("Build specs: the dump's receipt object builds the same receipt back")
struct ReceiptSpecTests {
    /// (type, version, value bytes) of every attribute, records expanded, in a canonical order.
    static func contents(_ receipt: Receipt) -> [String] {
        var rows: [String] = []
        for attribute in receipt.attributes {
            if let record = attribute.record {
                let inner = record.attributes.map { "\($0.type ?? -1)/\($0.version ?? -1)/\(Array($0.valueBytes))" }
                rows.append("17:[" + inner.sorted().joined(separator: ",") + "]")
            } else {
                rows.append("\(attribute.type ?? -1)/\(attribute.version ?? -1)/\(Array(attribute.valueBytes))")
            }
        }
        return rows.sorted()
    }

    @Test(arguments: Fixtures.realReceiptNames)
    func roundTripsEveryRealReceiptThroughItsDumpJSON(_ name: String) throws {
        let original = Fixtures.realReceipt(name)
        let inspection = ReceiptInspector.inspect(
            original, options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
        let json = DumpJSON.render(inspection)
        let blueprint = try ReceiptSpec.blueprint(fromJSON: json)
        let rebuilt = Receipt.read(UnsignedReceipts.wrap(blueprint.payload))
        #expect(rebuilt.error == nil)
        #expect(Self.contents(rebuilt) == Self.contents(Receipt.read(original)))
    }

    @Test func acceptsExplicitForms() throws {
        let spec = """
            {"bundle_id": {"asn1": "IA5String", "value": "com.example"}, "opaque_value": "00ff",
             "application_version": {"raw": "0c0131", "version": 7}, "receipt_creation_date_ms": "1",
             "unknown": {"99": "text", "100": 5, "101": {"raw": "deadbeef"}, "102": {"asn1": "BOOLEAN", "value": true}},
             "in_app": [{"quantity": 1, "is_trial_period": true, "product_id": "p"}]}
            """
        let blueprint = try ReceiptSpec.blueprint(fromJSON: Array(spec.utf8))
        let receipt = Receipt.read(UnsignedReceipts.wrap(blueprint.payload))
        #expect(receipt.first(2)?.valueTag == .ia5String)
        #expect(receipt.first(3)?.version == 7)
        #expect(receipt.first(3)?.value == .text("1"))
        #expect(receipt.first(4)?.version == 2)
        #expect(receipt.first(99)?.value == .text("text"))
        #expect(receipt.first(100)?.value == .integer(5))
        let raw = try #require(receipt.first(101))
        #expect(Array(raw.valueBytes) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(receipt.first(102)?.value == .boolean(true))
        let record = try #require(receipt.inAppRecords.first)
        #expect(record.first(1713)?.value == .boolean(true))
        #expect(record.first(1702)?.value == .text("p"))
    }

    static let rejected: [(String, String)] = [
        ("not json", "spec-invalid-json"), ("[1]", "spec-not-object"), ("{\"bundle\": \"x\"}", "spec-unknown-field"),
        ("{\"opaque_value\": \"xyz\"}", "spec-invalid-hex"), ("{\"unknown\": {\"abc\": 1}}", "spec-invalid-type"),
        ("{\"quantity\": 1}", "spec-unknown-field"), ("{\"in_app\": 3}", "spec-invalid-value"),
        // One JSON reader (#21): a name given twice is refused (Foundation's decoder took the first copy, the dump's
        // reader the last), and numbers are 64-bit integers.
        ("{\"bundle_id\": \"a\", \"bundle_id\": \"b\"}", "spec-duplicate-key"),
        ("{\"in_app\": [{\"quantity\": 1, \"quantity\": 2}]}", "spec-duplicate-key"),
        ("{\"unknown\": {\"9999\": 1.5}}", "spec-invalid-value"),
        ("{\"unknown\": {\"9999\": 99999999999999999999}}", "spec-invalid-value"),
        (String(repeating: "[", count: 200_000), "spec-invalid-json"),
    ]

    @Test(arguments: rejected)
    func explainsSpecsItCannotBuild(_ spec: String, _ code: String) {
        #expect {
            _ = try ReceiptSpec.blueprint(fromJSON: Array(spec.utf8))
        } throws: { ($0 as? MutationError)?.code == code }
    }
}
