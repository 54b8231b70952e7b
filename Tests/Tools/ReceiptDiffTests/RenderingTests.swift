import Foundation
import ReceiptBuilding
import ReceiptDiff
import ReceiptRendering
import ReceiptTestSupport
import Testing

@Suite("Text and JSON output")
struct RenderingTests {
    static func result() throws -> DiffResult {
        let a = try TestReceipts.signed(payload: TestPayload.subscription().encoded())
        let b = try TestReceipts.signed(
            payload: TestPayload.subscription().with {
                $0.setField(record: 0, .ia5(1712, "2024-01-15T10:00:00Z"))
                $0.records.append(TestPayload.record(index: 3))
            }.encoded())
        return try Diffing.diff(a, b)
    }

    @Test func jsonHasTheSchemaKeysInTheirFixedOrder() throws {
        let text = String(decoding: DiffJSON.render(try Self.result()), as: UTF8.self)
        let keys = ["\"schema\"", "\"a\"", "\"b\"", "\"equal\"", "\"changes\"", "\"errors\""]
        let positions = keys.compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count)
        #expect(positions == positions.sorted())
        let change = ["\"path\"", "\"kind\"", "\"layer\"", "\"old\"", "\"new\"", "\"offsetA\"", "\"offsetB\""]
        let changePositions = change.compactMap { text.range(of: $0)?.lowerBound }
        #expect(changePositions == changePositions.sorted())
    }

    @Test func jsonValuesAreTyped() throws {
        let data = Data(DiffJSON.render(try Self.result()))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["schema"] as? String == "rcpt.diff/1")
        #expect(json["equal"] as? Bool == false)
        #expect(json["errors"] is NSNull)
        let a = try #require(json["a"] as? [String: Any])
        #expect(a["format"] as? String == "der")
        let changes = try #require(json["changes"] as? [[String: Any]])
        let signature = try #require(changes.first { $0["path"] as? String == "signers[0].signature" })
        #expect((signature["old"] as? String)?.count == 512, "the whole signature, in hex")
        let added = try #require(changes.first { $0["kind"] as? String == "added" })
        #expect(added["old"] is NSNull)
        #expect(added["offsetA"] is NSNull)
        let record = try #require(added["new"] as? [String: Any])
        #expect(record["quantity"] as? Int == 1)
        #expect(record["is_trial_period"] as? Bool == false)
    }

    /// The newer document given as A reads as things taken away: said (a support engineer's trial asked "which is
    /// newer?" and read a refund as removed). Dated by the receipts' creation dates.
    @Test func aNewerAIsSaid() throws {
        var result = try Self.result()
        let text = { DiffText(style: TextStyle(useColor: false)).render(result) }
        #expect(!text().contains("note: A was made after B"))
        (result.a.made, result.b.made) = (1_709_596_800_000, 1_707_523_500_000)
        #expect(text().contains("note: A was made after B (2024-03-05T00:00:00Z and 2024-02-10T00:05:00Z)"))
        let made = try Diffing.diff(
            try TestReceipts.signed(payload: TestPayload.subscription().encoded()),
            try TestReceipts.signed(payload: TestPayload.subscription().encoded()))
        #expect(made.a.made != nil && made.a.made == made.b.made)
    }

    @Test func textHasNoEscapeCodesWithoutColour() throws {
        let text = DiffText(style: TextStyle(useColor: false)).render(try Self.result())
        #expect(!text.contains("\u{1B}["))
        #expect(text.hasPrefix("--- A A "))
        #expect(text.contains("\n@@ receipt @@\n"))
        #expect(text.contains("\n~ in_app[transaction_id=1000000000000001].cancellation_date"))
        #expect(text.contains("\n-     \"\"\n+     \"2024-01-15T10:00:00Z\"\n"))
        #expect(text.contains("\n+ in_app[transaction_id=1000000000000004]"))
        #expect(
            text.hasSuffix(
                "different: 3 changes (1 added, 0 removed, 2 changed) in signers 1, receipt 2 "
                    + "(2 encoding differences not shown: --encoding shows them)\n"))
    }

    @Test func textIsColouredWhenAsked() throws {
        let text = DiffText(style: TextStyle(useColor: true)).render(try Self.result())
        #expect(text.contains("\u{1B}[32m+"))
        #expect(text.contains("\u{1B}[31m-"))
    }

    @Test func equalReceiptsSayEqual() throws {
        let bytes = Fixtures.realReceipt(Fixtures.sandboxReceipt)
        let result = try Diffing.diff(bytes, bytes)
        #expect(DiffText(style: TextStyle(useColor: false)).render(result).hasSuffix("\nequal\n"))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(DiffJSON.render(result)))
                as? [String: Any])
        #expect(json["equal"] as? Bool == true)
        #expect((json["changes"] as? [Any])?.isEmpty == true)
    }
}
