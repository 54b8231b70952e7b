import Foundation
import ReceiptASN1
import ReceiptDiagnostics
import ReceiptTestSupport
import Testing

/// The README's finding-code table is generated from `FindingCode.all` (the one table every finding comes from):
/// this test fails when they differ, and `RCPT_UPDATE_GOLDEN=1 swift test --filter FindingCodeList` rewrites the
/// README's table. Every read-error code literal in the source is named in the README too, and so is every ASN.1 reader error code.
@Suite("README finding codes")
struct FindingCodeListTests {
    static let readme = Fixtures.url("README.md")
    static let begin = "<!-- finding codes: generated from FindingCode.all by FindingCodeListTests -->"
    static let end = "<!-- end of finding codes -->"

    /// The table as the README shows it.
    static var generatedTable: String {
        var rows = ["| code | layer | severity | meaning |", "|---|---|---|---|"]
        for code in FindingCode.all {
            rows.append("| `\(code.rawValue)` | \(code.layer.rawValue) | \(code.severity.rawValue) | \(code.summary) |")
        }
        return rows.joined(separator: "\n")
    }

    @Test func everyCodeIsUniqueAndDocumented() {
        #expect(Set(FindingCode.all.map(\.rawValue)).count == FindingCode.all.count)
        for code in FindingCode.all {
            #expect(FindingCode(rawValue: code.rawValue) == code)
            #expect(!code.summary.isEmpty && code.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" })
        }
    }

    @Test func readmeTableIsGeneratedFromTheTable() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin))
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
        let current = text[start.upperBound..<stop.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        if ProcessInfo.processInfo.environment["RCPT_UPDATE_GOLDEN"] == "1" {
            let updated = text.replacingCharacters(in: start.upperBound..<stop.lowerBound,
                                                   with: "\n" + Self.generatedTable + "\n")
            try updated.write(to: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == Self.generatedTable, "README table differs: RCPT_UPDATE_GOLDEN=1 rewrites it")
    }

    @Test func readmeNamesEveryReadErrorCode() throws {
        let root = Fixtures.url("Sources")
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var sources = ""
        for case let url as URL in walker where url.pathExtension == "swift" {
            sources += try String(contentsOf: url, encoding: .utf8) + "\n"
        }
        let expression = try NSRegularExpression(
            pattern: #"(?:PKCS7Error|InputError|ReceiptReadError)\([^"]{0,40}"([a-z0-9]+(?:-[a-z0-9]+)+)""#)
        let codes = Set(expression.matches(in: sources, range: NSRange(sources.startIndex..., in: sources))
            .compactMap { Range($0.range(at: 1), in: sources).map { String(sources[$0]) } })
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        #expect(codes.count > 10)
        for code in codes.union(ASN1Error.Code.allCases.map(\.rawValue)).sorted() {
            #expect(readme.contains("`\(code)`"), "\(code) is not in the README")
        }
    }
}
