import Foundation
import ReceiptTestSupport
import Testing

/// The library snippets of the README and of the DocC article are the code `Examples/LibraryClient` compiles and runs
/// against the public API (scripts/test.sh runs it): each block between `<!-- snippet: NAME -->` markers is, line for line, the
/// block between `// snippet: NAME` and `// end snippet` in its `Snippets.swift`.
@Suite("Library snippets in the README and DocC")
struct LibrarySnippetTests {
    static func blocks(_ text: String, begin: (String) -> String?, end: String) -> [String: String] {
        var blocks: [String: String] = [:]
        var name: String?
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let current = name {
                if line == end {
                    blocks[current] = lines.joined(separator: "\n")
                    name = nil
                } else {
                    lines.append(line)
                }
            } else if let opened = begin(String(line)) {
                name = opened
                lines = []
            }
        }
        return blocks
    }

    @Test(arguments: ["README.md", "Sources/Library/Rcpt/Rcpt.docc/GettingStarted.md"])
    func everySnippetIsCompiledCode(_ document: String) throws {
        let readme = try String(contentsOf: Fixtures.url(document), encoding: .utf8)
        let code = try String(
            contentsOf: Fixtures.url("Examples/LibraryClient/Sources/library-client/Snippets.swift"), encoding: .utf8)
        let shown = Self.blocks(
            readme, begin: { $0.hasPrefix("<!-- snippet: ") ? String($0.dropFirst(14).dropLast(4)) : nil },
            end: "<!-- end snippet -->"
        ).mapValues { block in
            block.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast().joined(
                separator: "\n")
        }
        let compiled = Self.blocks(
            code, begin: { $0.hasPrefix("// snippet: ") ? String($0.dropFirst(12)) : nil }, end: "// end snippet")
        #expect(shown.count >= 6)
        #expect(Set(shown.keys) == Set(compiled.keys))
        for (name, block) in shown {
            #expect(block == compiled[name], "\(document): snippet \(name) differs from Snippets.swift")
        }
    }
}
