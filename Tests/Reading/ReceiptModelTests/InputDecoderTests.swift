import Foundation
import ReceiptDiagnostics
import ReceiptModel
import ReceiptTestSupport
import Testing

@Suite("Input format detection")
struct InputDecoderTests {
    let receipt = Fixtures.realReceipt(Fixtures.sandboxReceipt)

    @Test func passesBinaryThrough() throws {
        let decoded = try InputDecoder.decode(receipt).get()
        #expect(decoded.bytes == receipt)
        #expect(decoded.format == .binary)
    }

    @Test func decodesBase64WithLineBreaks() throws {
        let text = Base64.encode(receipt)
        var wrapped = ""
        for (index, character) in text.enumerated() {
            if index > 0 && index % 76 == 0 { wrapped += "\r\n" }
            wrapped.append(character)
        }
        let decoded = try InputDecoder.decode(Array(("  " + wrapped + "\n").utf8)).get()
        #expect(decoded.bytes == receipt)
        #expect(decoded.format == .base64)
    }

    /// A receipt's base64 with a control byte in it (a NUL a C string left) is damaged base64 said where, not binary
    /// that "starts with 0x4d" at offset 0; one after it is the base64 followed by something else, where it starts.
    @Test func controlBytesInBase64AreDamageAtTheirOffset() throws {
        var inside = Array(Base64.encode(receipt).utf8)
        inside[1000] = 0x00
        guard case .failure(let damaged) = InputDecoder.decode(inside) else {
            Issue.record("a NUL inside base64 decoded")
            return
        }
        #expect(damaged.code == "base64-damaged")
        #expect(damaged.offset == 1000)
        let after = Array(Base64.encode(receipt).utf8) + [0x00]
        guard case .failure(let trailing) = InputDecoder.decode(after) else {
            Issue.record("a NUL after base64 decoded")
            return
        }
        #expect(trailing.code == "base64-followed-by-text")
        #expect(trailing.offset == after.count - 1)
    }

    @Test func decodesVerifyReceiptRequestBodies() throws {
        let escaped = Base64.encode(receipt).replacingOccurrences(of: "/", with: "\\/")
        let body = "{\"password\": \"x\", \"receipt-data\" : \"\(escaped)\", \"exclude-old-transactions\": true}"
        let decoded = try InputDecoder.decode(Array(body.utf8)).get()
        #expect(decoded.bytes == receipt)
        #expect(decoded.format == .jsonRequest)
    }

    @Test func decodesPEM() throws {
        let pem = "-----BEGIN PKCS7-----\n" + Base64.encode(receipt) + "\n-----END PKCS7-----\n"
        let decoded = try InputDecoder.decode(Array(pem.utf8)).get()
        #expect(decoded.bytes == receipt)
        #expect(decoded.format == .pem)
    }

    /// Outside a PEM block, another receipt on a labelled line or on the END marker's own line is a second document
    /// (a red team's trial: the label, or the marker, made the whole line read past, and the block was valid); a
    /// label before the same receipt's base64 is not.
    @Test(arguments: [false, true])
    func anotherReceiptBesideAPEMBlockIsAmbiguous(onTheEndLine: Bool) throws {
        var other = receipt
        other[0x60] ^= 0x01
        func text(_ beside: [UInt8]) -> [UInt8] {
            let block = "-----BEGIN PKCS7-----\n" + Base64.encode(receipt) + "\n-----END PKCS7-----"
            return Array((block + (onTheEndLine ? " " : "\nreceipt-data: ") + Base64.encode(beside) + "\n").utf8)
        }
        guard case .failure(let error) = InputDecoder.decode(text(other)) else {
            Issue.record("read as one receipt")
            return
        }
        #expect(error.kind == .inputAmbiguous, "\(error)")
        #expect(try InputDecoder.decode(text(receipt)).get().bytes == receipt)
    }

    /// Windows line endings: "\r\n" is one Character in Swift, so a split on "\n" or "\r" never cut the lines (a
    /// hostile-bytes trial: "the PEM block has no matching -----END line").
    @Test func decodesPEMWithWindowsLineEndings() throws {
        let pem = "-----BEGIN PKCS7-----\r\n" + Base64.encode(receipt) + "\r\n-----END PKCS7-----\r\n"
        let decoded = try InputDecoder.decode(Array(pem.utf8)).get()
        #expect(decoded.bytes == receipt)
        #expect(decoded.format == .pem)
    }

    static let rejected: [(String, String)] = [
        ("", "input-empty"),
        // White space alone is no document: it was once read as binary and refused for not starting with 0x30.
        ("   \n\t\r\n  ", "input-empty"),
        ("NOT A RECEIPT\n", "not-a-receipt"),
        ("{\"receipt-data\": \"@@@\"}", "json-invalid-base64"),
        ("{\"other\": 1}", "json-no-receipt-data"),
        ("-----BEGIN PKCS7-----\nAAAA\n", "pem-unterminated"),
    ]

    @Test(arguments: rejected)
    func explainsWhatIsNotAReceipt(_ input: String, _ code: String) {
        guard case .failure(let error) = InputDecoder.decode(Array(input.utf8)) else {
            Issue.record("accepted \(input)")
            return
        }
        #expect(error.code == code)
    }

    @Test func recognisesLegacyTransactionReceipts() {
        let bytes = Fixtures.bytes("Corpus/receipts/malformed/revenuecat-unsupportedReceipt2-ios6style.receipt")
        guard case .failure(let error) = InputDecoder.decode(bytes) else {
            Issue.record("accepted a legacy receipt")
            return
        }
        #expect(error.code == "legacy-transaction-receipt")
        #expect(error.message.contains("iOS 6"))
    }

    @Test func base64RoundTripsAndRejectsGarbage() {
        for length in 0..<20 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37) }
            #expect(Base64.decode(Array(Base64.encode(bytes).utf8)) == bytes)
        }
        #expect(Base64.decode(Array("A".utf8)) == nil)
        #expect(Base64.decode(Array("AB=C".utf8)) == nil)
        #expect(Base64.decode(Array("AB*C".utf8)) == nil)
    }
}

@Suite("Receipts pasted from logs, forms and emails")
struct PastedInputTests {
    static let receipt = Fixtures.realReceipt(Fixtures.sandboxReceipt)
    static let base64 = Base64.encode(receipt)

    static func decoded(_ text: String) throws -> DecodedInput { try InputDecoder.decode(Array(text.utf8)).get() }

    @Test func putsBackPlusSignsThatBecameSpaces() throws {
        #expect(Self.base64.contains("+"))
        let damaged = Self.base64.replacingOccurrences(of: "+", with: " ")
        let result = try Self.decoded(damaged)
        #expect(result.bytes == Self.receipt)
        #expect(result.repairs.contains { $0.contains("'+'") })
    }

    @Test(arguments: [
        ("quotes", "\"\(base64)\"", "quotes"),
        ("single quotes and a newline", "'\(base64)'\n", "quotes"),
        ("byte order mark", "\u{FEFF}\(base64)", "byte order mark"),
        (
            "percent-escapes",
            base64.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F")
                .replacingOccurrences(of: "=", with: "%3D"), "percent"
        ),
    ])
    func repairsHarmlessDamageAndSaysSo(_ name: String, _ text: String, _ repair: String) throws {
        let result = try Self.decoded(text)
        #expect(result.bytes == Self.receipt, "\(name)")
        #expect(result.repairs.contains { $0.contains(repair) }, "\(name): \(result.repairs)")
    }

    /// Every real receipt whose base64 holds '+' comes back whole when each '+' became a space, '++' (two spaces)
    /// included: a space is put back wherever a base64 character stands before its run and one (or '=') after it.
    @Test func putsBackRunsOfPlusSignsInEveryRealReceipt() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Corpus/receipts").path)
            .filter { $0.hasSuffix(".receipt") }
        var withRuns = 0
        for name in names {
            let receipt = Fixtures.realReceipt(name)
            let base64 = Base64.encode(receipt)
            guard base64.contains("+") else { continue }
            if base64.contains("++") { withRuns += 1 }
            let result = try Self.decoded(base64.replacingOccurrences(of: "+", with: " "))
            #expect(result.bytes == receipt, "\(name)")
        }
        #expect(withRuns > 0)
    }

    /// The same with bytes after a receipt of definite length (as Apple writes them): the repair is taken, and the
    /// receipt's reader reports the trailing bytes, as it does for the bytes raw (the spaces read as gaps gave
    /// "truncated" instead).
    @Test func putsBackPlusSignsBeforeTrailingBytes() throws {
        var tried = 0
        for name in Fixtures.realReceiptNames {
            let withTrailing = Fixtures.realReceipt(name) + [0x05, 0x00]
            let base64 = Base64.encode(withTrailing)
            guard withTrailing[1] != 0x80, base64.contains("+") else { continue }
            tried += 1
            let result = try Self.decoded(base64.replacingOccurrences(of: "+", with: " "))
            let same = result.bytes == withTrailing
            #expect(same, "\(name)")
            #expect(result.repairs.contains { $0.contains("put back") }, "\(name): \(result.repairs)")
        }
        #expect(tried > 5)
    }

    @Test func cleanBase64NeedsNoRepair() throws {
        #expect(try Self.decoded(Self.base64).repairs.isEmpty)
        #expect(try InputDecoder.decode(Self.receipt).get().repairs.isEmpty)
    }

    @Test(arguments: [
        ("a signature after the base64", "\(base64)\n--\nSent from my phone\n", "base64-followed-by-text"),
        ("a StoreKit 2 JWS", "eyJhbGciOiJFUzI1NiJ9.eyJidW5kbGVJZCI6ImNvbS5leGFtcGxlIn0.c2lnbmF0dXJl", "input-is-jws"),
        ("a notification", #"{"signedPayload":"eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}"#, "input-is-notification"),
        (
            "a response without latest_receipt", #"{"status":0,"environment":"Sandbox","receipt":{"bundle_id":"x"}}"#,
            "input-is-verify-receipt-response"
        ),
        ("prose", "hello, here is my receipt: none", "not-a-receipt"),
    ])
    func namesWhatIsNotAReceipt(_ name: String, _ text: String, _ code: String) {
        guard case .failure(let error) = InputDecoder.decode(Array(text.utf8)) else {
            Issue.record("\(name): accepted")
            return
        }
        #expect(error.code == code, "\(name): \(error)")
    }

    @Test func readsTheLatestReceiptOfAVerifyReceiptResponse() throws {
        let response =
            #"{"status":0,"environment":"Sandbox","receipt":{"bundle_id":"x","in_app":[]},"latest_receipt":"\#(Self.base64)"}"#
        let result = try Self.decoded(response)
        #expect(result.bytes == Self.receipt)
        #expect(result.repairs.contains { $0.contains("latest_receipt") })
    }
}
