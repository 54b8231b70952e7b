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

    static let rejected: [(String, String)] = [
        ("", "input-empty"),
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
