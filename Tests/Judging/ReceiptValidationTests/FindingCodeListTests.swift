import Foundation
import ReceiptASN1
import ReceiptDiagnostics
import ReceiptTestSupport
import Testing

/// docs/findings.md's finding-code and error-code tables are generated from `FindingCode.allCases` and `ErrorCode.allCases` (the
/// two tables every finding and every error comes from): this test fails when they differ, and
/// `RCPT_UPDATE_GOLDEN=1 swift test --filter FindingCodeList` rewrites its tables.
@Suite("docs/findings.md: finding codes")
struct FindingCodeListTests {
    static let readme = Fixtures.url("docs/findings.md")
    static let findingSection = (
        begin: "<!-- finding codes: generated from FindingCode.allCases by FindingCodeListTests -->",
        end: "<!-- end of finding codes -->"
    )
    static let errorSection = (
        begin: "<!-- error codes: generated from ErrorCode.allCases by FindingCodeListTests -->",
        end: "<!-- end of error codes -->"
    )

    /// The README's index of every code, by layer, with no meanings (those are in docs/findings.md): a code met in
    /// output can be found in the user's guide.
    static let indexSection = (
        begin:
            "<!-- code index: generated from FindingCode.allCases and ErrorCode.allCases by FindingCodeListTests -->",
        end: "<!-- end of code index -->"
    )

    static var generatedIndex: String {
        var lines = ["Findings:", ""]
        for layer in FindingLayer.allCases {
            let codes = FindingCode.allCases.filter { $0.layer == layer }.map { "`\($0.rawValue)`" }
            if !codes.isEmpty { lines.append("- \(layer.rawValue): " + codes.joined(separator: ", ")) }
        }
        lines += ["", "Errors (the input could not be read, or a command could not run):", ""]
        for layer in ErrorLayer.allCases {
            let codes = ErrorCode.allCases.filter { $0.layer == layer }.map { "`\($0.rawValue)`" }
            if !codes.isEmpty { lines.append("- \(layer.rawValue): " + codes.joined(separator: ", ")) }
        }
        return lines.joined(separator: "\n")
    }

    /// The finding table as docs/findings.md shows it.
    static var generatedTable: String {
        var rows = ["| code | layer | severity | meaning |", "|---|---|---|---|"]
        for code in FindingCode.allCases {
            rows.append("| `\(code.rawValue)` | \(code.layer.rawValue) | \(code.severity.rawValue) | \(code.summary) |")
        }
        return rows.joined(separator: "\n")
    }

    /// The error table as docs/findings.md shows it, grouped by layer.
    static var generatedErrorTable: String {
        var rows = ["| code | layer | meaning |", "|---|---|---|"]
        for layer in ErrorLayer.allCases {
            for code in ErrorCode.allCases where code.layer == layer {
                rows.append("| `\(code.rawValue)` | \(layer.rawValue) | \(code.summary) |")
            }
        }
        return rows.joined(separator: "\n")
    }

    @Test func everyCodeIsUniqueAndDocumented() {
        #expect(Set(FindingCode.allCases.map(\.rawValue)).count == FindingCode.allCases.count)
        for code in FindingCode.allCases {
            #expect(FindingCode(rawValue: code.rawValue) == code)
            #expect(!code.summary.isEmpty && code.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" })
        }
    }

    @Test func everyErrorCodeIsUniqueAndDocumented() {
        #expect(Set(ErrorCode.allCases.map(\.rawValue)).count == ErrorCode.allCases.count)
        for code in ErrorCode.allCases {
            #expect(!code.summary.isEmpty && code.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" })
        }
    }

    @Test func readmeTableIsGeneratedFromTheTable() throws {
        try Self.check(Self.findingSection, Self.generatedTable)
        try Self.check(Self.errorSection, Self.generatedErrorTable)
        try GeneratedSection.check(
            Fixtures.url("README.md"), begin: Self.indexSection.begin, end: Self.indexSection.end,
            generated: Self.generatedIndex)
    }

    static func check(_ section: (begin: String, end: String), _ table: String) throws {
        try GeneratedSection.check(Self.readme, begin: section.begin, end: section.end, generated: table)
    }

    /// No error code is spelled out anywhere but its table: a literal equal to a code (a set of codes to compare
    /// with, a switch on `code`) is a second spelling that drifts when the table changes.
    @Test func noErrorCodeIsSpelledOutsideItsTable() throws {
        let root = Fixtures.url("Sources")
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        let literal = try NSRegularExpression(pattern: #""([a-z0-9]+(?:-[a-z0-9]+)+)""#)
        let codes = Set(ErrorCode.allCases.map(\.rawValue))
        for case let url as URL in walker
        where url.pathExtension == "swift" && !["ErrorCode.swift", "FindingCode.swift"].contains(url.lastPathComponent)
        {
            // Code, not comments: a comment may name a code it explains.
            let text = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for match in literal.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                #expect(!codes.contains(String(text[range])), "\(url.lastPathComponent) spells \(text[range])")
            }
        }
    }

    /// No error or finding is made from a string: every error type takes an `ErrorCode` and every finding a
    /// `FindingCode`, mutations name what they expect with one of them, so a code literal does not compile; this keeps
    /// the source free of the old spellings too.
    @Test func noCodeIsAStringLiteralAtAThrowSite() throws {
        let root = Fixtures.url("Sources")
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        let expression = try NSRegularExpression(
            pattern: #"(?:(?:Error|Finding)\(\s*(?:code:\s*)?|(?:finding|error|code): )"[a-z0-9]+(?:-[a-z0-9]+)+""#)
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let hits = expression.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
            #expect(hits == 0, "\(url.lastPathComponent) makes an error or finding from a string literal")
        }
    }
}
