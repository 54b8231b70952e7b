import Foundation
import ReceiptModel
import ReceiptTestSupport
import ReceiptVerifyReceipt
import Testing

/// docs/verifyreceipt.md's status and key tables are generated from `VerifyReceiptStatus.documented` and `VerifyReceiptKey`:
/// this test fails when they differ, and `RCPT_UPDATE_GOLDEN=1` rewrites them.
@Suite("docs/verifyreceipt.md: verifyReceipt tables", .serialized)
struct VerifyReceiptReadmeTests {
    static let readme = Fixtures.url("docs/verifyreceipt.md")

    static var statusTable: String {
        var rows = ["| status | Apple's meaning | when |", "|---|---|---|"]
        for row in VerifyReceiptStatus.documented { rows.append("| \(row.code) | \(row.meaning) | \(row.when) |") }
        return rows.joined(separator: "\n")
    }

    static var keyTable: String {
        var rows = ["| key | from | form |", "|---|---|---|"]
        func describe(_ key: VerifyReceiptKey, scope: FieldScope) -> String {
            let from: String
            switch key.source {
            case .requestDate: from = "the request (`--request-date`)"
            case .inAppRecords: from = "type 17, each record"
            case .attribute:
                let label = FieldTable.descriptor(key.type, in: scope)?.label ?? "undocumented"
                from = "type \(key.type) (\(label))"
            }
            let form: String
            switch key.form {
            case .string: form = key.source == .inAppRecords ? "array" : "string"
            case .number: form = "number"
            case .quotedNumber: form = "string of digits" + (key.leftOutWhenZero ? " (left out when 0)" : "")
            case .flag: form = "\"true\" / \"false\""
            case .date: form = "three keys: `\(key.name)`, `\(key.name)_ms`, `\(key.name)_pst`"
            }
            return "| `\(scope == .inApp ? "in_app[]." : "")\(key.name)` | \(from) | \(form) |"
        }
        for key in VerifyReceiptKey.receipt { rows.append(describe(key, scope: .receipt)) }
        for key in VerifyReceiptKey.inApp { rows.append(describe(key, scope: .inApp)) }
        return rows.joined(separator: "\n")
    }

    @Test(arguments: [
        (
            "<!-- verifyreceipt statuses: generated from VerifyReceiptStatus.documented by VerifyReceiptReadmeTests -->",
            "<!-- end of verifyreceipt statuses -->", "status"
        ),
        (
            "<!-- verifyreceipt keys: generated from VerifyReceiptKey by VerifyReceiptReadmeTests -->",
            "<!-- end of verifyreceipt keys -->", "key"
        ),
    ])
    func readmeTableIsGenerated(begin: String, end: String, table: String) throws {
        let generated = table == "status" ? Self.statusTable : Self.keyTable
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: begin))
        let stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
        let current = text[start.upperBound..<stop.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        if ProcessInfo.processInfo.environment["RCPT_UPDATE_GOLDEN"] == "1" {
            let updated = text.replacingCharacters(
                in: start.upperBound..<stop.lowerBound, with: "\n" + generated + "\n")
            try updated.write(to: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == generated, "docs/verifyreceipt.md \(table) table differs: RCPT_UPDATE_GOLDEN=1 rewrites it")
    }
}
