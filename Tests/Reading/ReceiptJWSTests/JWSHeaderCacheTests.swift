import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptTestSupport
import Testing

/// Token headers are read once per distinct text (`JWSHeaderCache`): a token read with the cache warm — by the same
/// token, by another with the same header, or by the same header standing elsewhere (nested in a notification) —
/// reads exactly as with the cache cold; a header that has findings is never kept, so its findings come every time,
/// at each token's own offsets.
@Suite("JWS header cache", .serialized)
struct JWSHeaderCacheTests {
    /// What reading gave: every finding (with its offset), the header's bytes and nodes, and the same of each nested
    /// token.
    static func reading(_ bytes: [UInt8]) throws -> [String] {
        let token = try JWSReader.read(bytes[...]).get()
        return describe(token)
    }

    static func describe(_ token: JWSToken) -> [String] {
        var lines = token.findings.map { "\($0.kind.rawValue)@\($0.offset ?? -1): \($0.message)" }
        lines.append("header \(token.headerBytes) \(token.header?.nodes.map { "\($0)" } ?? [])")
        lines.append("payload \(token.payloadBytes.count)")
        for nested in token.nested { lines += ["nested \(nested.path)@\(nested.offset)"] + describe(nested.token) }
        return lines
    }

    static func token(header: String, payload: String = #"{"a":1}"#) -> [UInt8] {
        Array(
            (Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + ".c2ln").utf8)
    }

    @Test("every real token and notification reads the same with the cache cold and warm")
    func realTokens() throws {
        let names = [
            "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws", "Corpus/jws/gopay-notif-DID_RENEW-sandbox.jws",
            "Corpus/jws/gopay-renewal-2000000184445477-sandbox.jws",
            "Corpus/jws/gopay-notif-CONSUMPTION_REQUEST-production.jws",
        ]
        for name in names {
            let bytes = Fixtures.bytes(name).filter { $0 != 0x0A }
            JWSHeaderCache.removeAll()
            let cold = try Self.reading(bytes)
            // Warmed by every other token first (their headers, nested or not), then by itself.
            for other in names { _ = try? Self.reading(Fixtures.bytes(other).filter { $0 != 0x0A }) }
            #expect(try Self.reading(bytes) == cold, "\(name)")
            #expect(try Self.reading(bytes) == cold, "\(name)")
        }
    }

    @Test("a header with findings is never kept: its findings come every time, at each token's offsets")
    func headerWithFindings() throws {
        let duplicate = #"{"alg":"ES256","alg":"none","kid":"x"}"#
        JWSHeaderCache.removeAll()
        let first = try Self.reading(Self.token(header: duplicate))
        #expect(first.contains { $0.hasPrefix("json-duplicate-key") }, "\(first)")
        #expect(first.contains { $0.hasPrefix("jws-key-reference-header") }, "\(first)")
        #expect(try Self.reading(Self.token(header: duplicate)) == first)
        // The same header nested at another offset: its findings there (offsets of the payload that holds it).
        let inner = String(decoding: Self.token(header: duplicate), as: UTF8.self)
        let outer = Self.token(header: #"{"alg":"ES256"}"#, payload: #"{"signedTransactionInfo":""# + inner + #""}"#)
        JWSHeaderCache.removeAll()
        let cold = try Self.reading(outer)
        _ = try Self.reading(Self.token(header: duplicate))
        #expect(try Self.reading(outer) == cold)
    }

    @Test("a clean header spelled another way (padding, the other alphabet) keeps its anomalies though cached")
    func sameBytesAnotherSpelling() throws {
        let header = #"{"alg":"ES256","x5c":["MIIBA"]}"#  // 31 bytes: its base64 takes two "="
        let clean = Self.token(header: header)
        var padded = Array(Base64URL.encode(Array(header.utf8)).utf8)
        while padded.count % 4 != 0 { padded.append(UInt8(ascii: "=")) }
        let spelled = padded + Array(clean.drop { $0 != UInt8(ascii: ".") })
        JWSHeaderCache.removeAll()
        let cold = try Self.reading(spelled)
        #expect(cold.contains { $0.hasPrefix("jws-base64url-padding") }, "\(cold)")
        _ = try Self.reading(clean)
        #expect(try Self.reading(spelled) == cold)
        #expect(try Self.reading(clean).contains { $0.hasPrefix("jws-base64url") } == false)
    }
}
