import Foundation
import ReceiptTestSupport
import Testing

/// The README's list of finding codes is exactly what the source emits: every `Finding(…, "code", …)` literal (and
/// the few built from parts), no more, no less; and every read-error code literal is named there too.
@Suite("README finding codes")
struct FindingCodeListTests {
    /// Codes the source builds from parts rather than as one literal.
    static let composedCodes: Set<String> = [
        "ber-indefinite-length", "ber-constructed-string", "ber-non-minimal-length", "ber-non-minimal-tag",
        "subscription-expired", "bundle-id-mismatch", "app-version-mismatch",
    ]

    static func sources() throws -> String {
        let root = Fixtures.url("Sources")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return "" }
        var text = ""
        for case let url as URL in walker where url.pathExtension == "swift" {
            text += try String(contentsOf: url, encoding: .utf8) + "\n"
        }
        return text
    }

    static func matches(_ pattern: String, in text: String) throws -> Set<String> {
        let expression = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return Set(expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        })
    }

    static func readmeSection() throws -> String {
        let readme = try String(contentsOf: Fixtures.url("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "### Finding codes"),
              let end = readme.range(of: "\n## ", range: start.upperBound..<readme.endIndex)
        else { return "" }
        return String(readme[start.upperBound..<end.lowerBound])
    }

    @Test func readmeTableListsExactlyTheEmittedFindingCodes() throws {
        let emitted = try Self.matches(#"Finding\([^"]{0,60}"([a-z0-9]+(?:-[a-z0-9]+)+)""#, in: Self.sources())
            .union(Self.composedCodes)
        let section = try Self.readmeSection()
        let tableRows = section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| layer") }
        let listed = try Self.matches(#"`([a-z0-9]+(?:-[a-z0-9]+)+)`"#, in: tableRows.joined(separator: "\n"))
        #expect(emitted.count > 60)
        #expect(emitted.subtracting(listed).sorted() == [], "emitted but not in the README table")
        #expect(listed.subtracting(emitted).sorted() == [], "in the README table but never emitted")
    }

    @Test func readmeNamesEveryReadErrorCode() throws {
        let sources = try Self.sources()
        let readErrors = try Self.matches(#"(?:PKCS7Error|InputError|ReceiptReadError)\([^"]{0,40}"([a-z0-9]+(?:-[a-z0-9]+)+)""#, in: sources)
        let section = try Self.readmeSection()
        #expect(readErrors.count > 10)
        for code in readErrors.sorted() {
            #expect(section.contains("`\(code)`"), "\(code) is not in the README")
        }
    }
}
