import Foundation
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// Bombs in the JSON and in the nesting: bounded work, an error or a finding, never a crash, a hang or recursion
/// without a bound.
@Suite("Hostile JWS")
struct JWSHostileTests {
    static func b64(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }

    @Test func aDeepPayloadStopsAtTheJSONDepthLimit() throws {
        let payload = String(repeating: "[", count: 200_000)
        let token = Self.b64(#"{"alg":"ES256"}"#) + "." + Self.b64(payload) + "."
        guard case .failure(let error) = JWSReader.read(Array(token.utf8)[...]) else {
            Issue.record("a 200 000-deep payload was read")
            return
        }
        #expect(error.code == "jws-payload-not-json")
        #expect(error.message.contains("nesting deeper than the limit of 128 levels"))
    }

    @Test func tokensNestedInTokensStopAtTheNestingLimit() throws {
        let signer = try JWSFixtures.signer()
        var token = try signer.sign(payload: Array(JWSFixtures.transaction().utf8))
        for level in 0..<8 {
            token = try signer.sign(
                payload: Array(
                    #"{"level":\#(level),"signedTransactionInfo":"\#(token)","signedDate":\#(JWSFixtures.signedDate)}"#
                        .utf8))
        }
        let inspection = JWSFixtures.inspect(token)
        var depth = 0
        var current = inspection.tokens.first
        while let next = current?.nested.first {
            depth += 1
            current = next
        }
        #expect(depth == JWSReader.maximumNesting)
        // The tokens beyond the limit are not verified, so the whole is refused rather than half-judged.
        #expect(current?.findings.contains { $0.code == "jws-limit-exceeded" } == true)
        let valid = inspection.isValid
        #expect(!valid)
    }

    @Test func manyNestedTokensAreBounded() throws {
        let signer = try JWSFixtures.signer()
        let inner = try signer.sign(payload: Array(JWSFixtures.transaction().utf8))
        let list = Array(repeating: "\"\(inner)\"", count: 200).joined(separator: ",")
        let outer = try signer.sign(
            payload: Array(#"{"signedTransactions":[\#(list)],"signedDate":\#(JWSFixtures.signedDate)}"#.utf8))
        let inspection = JWSFixtures.inspect(outer)
        let token = try #require(inspection.tokens.first)
        #expect(token.nested.count == JWSReader.maximumNestedPerPayload)
        #expect(token.findings.contains { $0.code == "jws-limit-exceeded" })
        let valid = inspection.isValid
        #expect(!valid)
        // An API response body with the same list is refused whole.
        guard case .failure(let error) = JWSInput.read(Array(#"{"signedTransactions":[\#(list)]}"#.utf8)) else {
            Issue.record("a body with 200 tokens was read")
            return
        }
        #expect(error.code == "jws-too-many-tokens")
    }

    @Test func wideAndLongPayloadsAreRead() throws {
        let signer = try JWSFixtures.signer()
        let members = (0..<50_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let wide = try signer.sign(payload: Array(#"{\#(members),"signedDate":\#(JWSFixtures.signedDate)}"#.utf8))
        #expect(JWSFixtures.inspect(wide).isValid)
        let long = String(repeating: "a", count: 4_000_000)
        let text = try signer.sign(payload: Array(#"{"note":"\#(long)","signedDate":\#(JWSFixtures.signedDate)}"#.utf8))
        #expect(JWSFixtures.inspect(text).isValid)
    }

    /// Regression (`jws-space-inside-the-header.bin`): white space inside a part is not base64url, and is never
    /// skipped (strict base64url once skipped spaces: a `where` clause guarded only the last whitespace pattern).
    @Test(arguments: [" ", "\n", "\t", "\r"])
    func whiteSpaceInsideAPartIsRefused(_ space: String) throws {
        let header = Self.b64(#"{"alg":"ES256"}"#)
        let text = String(header.prefix(4)) + space + String(header.dropFirst(4)) + "." + Self.b64("{}") + "."
        guard case .failure(let error) = JWSReader.read(Array(text.utf8)[...]) else {
            Issue.record("a part with \(space.debugDescription) inside was read")
            return
        }
        #expect(error.code == "jws-invalid-base64url")
        let regression = Fixtures.bytes("Corpus/regressions/jws-space-inside-the-header.bin")
        guard case .success(let input) = JWSInput.read(regression), input.tokens.isEmpty == false else { return }
        Issue.record("the regression input's token was read")
    }

    /// 999 duplicates are 16 findings one by one and one that counts the other 983: repeated anomalies are
    /// aggregated, so 400 000 of them cost no more output than 17.
    @Test func manyDuplicateNamesAreAggregatedWithACount() throws {
        let members = (0..<1000).map { _ in #""bundleId":"x""# }.joined(separator: ",")
        guard
            case .success(let token) = JWSReader.read(
                Array((Self.b64(#"{"alg":"ES256"}"#) + "." + Self.b64("{\(members)}") + ".").utf8)[...])
        else {
            Issue.record("not read")
            return
        }
        let duplicates = token.findings.filter { $0.code == "json-duplicate-key" }
        #expect(duplicates.count == 17)
        #expect(duplicates.last?.fields.first { $0.name == "more" }?.value == "983")
    }

    /// Every regression input of the fuzzers, and random bytes, through the JWS reader and inspector.
    @Test func regressionInputsAndRandomBytesNeverCrash() throws {
        let directory = Fixtures.url("Corpus/regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasSuffix(".md") }
        var inputs = names.map { Fixtures.bytes("Corpus/regressions/\($0)") }
        var random = SplitMix64(seed: 7)
        for length in [0, 1, 3, 5, 64, 700] {
            inputs.append((0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            inputs.append(
                Array("eyJ".utf8)
                    + (0..<length).map { _ in Array("eyJhbGciOiJFUzI1NiJ9._-=+/.".utf8)[Int(random.next() % 27)] })
        }
        for input in inputs {
            _ = JWSInput.read(input)
            _ = JWSFixtures.inspect(String(decoding: input, as: UTF8.self))
        }
        #expect(!inputs.isEmpty)
    }
}
