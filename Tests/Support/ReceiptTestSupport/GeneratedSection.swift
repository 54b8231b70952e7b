import Foundation
import Testing

/// A section of a document generated from the code, between two marker lines: `check` fails when the section
/// differs from what the code generates, and rewrites it instead when RCPT_UPDATE_GOLDEN=1.
package enum GeneratedSection {
    package static func check(
        _ document: URL, begin: String, end: String, generated: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let text = try String(contentsOf: document, encoding: .utf8)
        let start = try #require(text.range(of: begin), sourceLocation: sourceLocation)
        let stop = try #require(
            text.range(of: end, range: start.upperBound..<text.endIndex), sourceLocation: sourceLocation)
        let current = text[start.upperBound..<stop.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        if ProcessInfo.processInfo.environment["RCPT_UPDATE_GOLDEN"] == "1" {
            let updated = text.replacingCharacters(
                in: start.upperBound..<stop.lowerBound, with: "\n" + generated + "\n")
            try updated.write(to: document, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            current == generated,
            "\(document.lastPathComponent) differs from the code: RCPT_UPDATE_GOLDEN=1 rewrites it",
            sourceLocation: sourceLocation)
    }
}
