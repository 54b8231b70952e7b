import Foundation
import ReceiptTestSupport
import Testing

@testable import ReceiptMutation

/// The claim table (`AppleClaims`) is what the fuzzers' dictionaries and structure-aware mutator draw names from: a
/// claim the code reads but the table lacks is one no mutation ever adds (a red-team finding: the status code read
/// `revocationType`, which no fuzzer could write).
@Suite("Claim table")
struct ClaimTableTests {
    /// The folders whose code reads claims from a token's payload.
    static let readers = [
        "Sources/Reading/ReceiptJWS", "Sources/Reading/ReceiptPurchases", "Sources/Judging", "Sources/Library",
    ]

    @Test("every claim the code reads through a claims accessor is a name the mutator writes")
    func everyClaimReadIsInTheTable() throws {
        let read =
            #/\b(?:claims|summary)\.(?:string|integer|value|number|bool|boolean|milliseconds|date|object)\("([a-z][A-Za-z0-9]+)"/#
        var names: Set<String> = []
        for folder in Self.readers {
            let root = Fixtures.url(folder).path
            guard let files = FileManager.default.enumerator(atPath: root) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                for match in text.matches(of: read) { names.insert(String(match.output.1)) }
            }
        }
        #expect(names.count > 40, "the readers were found: \(names.count) claims")
        let written = Set(JWSStructureMutator.names)
        #expect(names.subtracting(written).isEmpty, "read but never written: \(names.subtracting(written).sorted())")
    }
}
