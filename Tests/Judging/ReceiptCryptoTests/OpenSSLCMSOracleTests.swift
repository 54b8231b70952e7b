import Foundation
import ReceiptCrypto
import ReceiptOracle
import Testing

/// OpenSSL's CMS decoder as the differential fuzz harness's oracle: it must report acceptance, content types and
/// the eContent exactly, and name the failing field on rejection.
@Suite struct OpenSSLCMSOracleTests {
    static let signedData = "1.2.840.113549.1.7.2"
    static let data = "1.2.840.113549.1.7.1"

    /// The bytes of `Corpus/receipts/<name>`.
    static func receipt(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Corpus/receipts/\(name)")))
    }

    /// Bytes from hex text (spaces ignored).
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }

    /// A minimal SignedData ContentInfo: version 1, no digest algorithms, eContentType data, `content` as the
    /// eContent (none when nil), no signers; the encoded eContentType and signerInfos can be replaced.
    static func contentInfo(
        content: [UInt8]?, eContentType: [UInt8] = hex("06 09 2a864886f70d010701"),
        signerInfos: [UInt8] = hex("31 00")
    ) -> [UInt8] {
        func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            precondition(body.count < 0x10000)
            let length: [UInt8] =
                body.count < 0x80
                ? [UInt8(body.count)]
                : body.count < 0x100
                    ? [0x81, UInt8(body.count)]
                    : [0x82, UInt8(body.count >> 8), UInt8(body.count & 0xFF)]
            return [tag] + length + body
        }
        let eContent = content.map { tlv(0xA0, tlv(0x04, $0)) } ?? []
        let encapsulated = tlv(0x30, eContentType + eContent)
        let signed = tlv(0x30, hex("02 01 01") + hex("31 00") + encapsulated + signerInfos)
        return tlv(0x30, hex("06 09 2a864886f70d010702") + tlv(0xA0, signed))
    }

    @Test func extractsTheContentOfAnAppStoreReceipt() throws {
        // kvitto-sandboxReceipt: DER, 2833 content bytes at offset 62 (see the README's dump).
        let bytes = try Self.receipt("kvitto-sandboxReceipt.receipt")
        let verdict = OpenSSLCMSOracle.decode(bytes)
        #expect(verdict.accepted)
        #expect(verdict.isSignedData)
        #expect(verdict.encapsulatedContentType == Self.data)
        #expect(verdict.content == Array(bytes[62..<(62 + 2833)]))
        #expect(verdict.consumed == bytes.count)
        #expect(verdict.errors.isEmpty)
    }

    @Test func joinsTheSegmentsOfAnXcodeReceipt() throws {
        // Xcode writes the content as a constructed, indefinite-length OCTET STRING: the oracle joins the segments.
        let bytes = try Self.receipt("apple-xcode-app-receipt-with-transaction.receipt")
        let verdict = OpenSSLCMSOracle.decode(bytes)
        #expect(verdict.accepted)
        #expect(verdict.content?.first == 0x31)
        #expect((verdict.content?.count ?? 0) > 100)
    }

    @Test func reportsContentBytesAsWritten() {
        let content: [UInt8] = [0x31, 0x03, 0x02, 0x01, 0x05]
        let verdict = OpenSSLCMSOracle.decode(Self.contentInfo(content: content))
        #expect(verdict.accepted)
        #expect(verdict.content == content)
        #expect(verdict.description.contains("5 content bytes"))
    }

    @Test func reportsDetachedContentAsNil() {
        let verdict = OpenSSLCMSOracle.decode(Self.contentInfo(content: nil))
        #expect(verdict.accepted)
        #expect(verdict.isSignedData)
        #expect(verdict.content == nil)
    }

    @Test func reportsAnEmptyOctetStringAsEmptyContent() {
        let verdict = OpenSSLCMSOracle.decode(Self.contentInfo(content: []))
        #expect(verdict.content == [])
    }

    @Test func reportsLongObjectIdentifiersInFull() {
        // 300 arcs of "1": longer than any fixed buffer a dotted form might be written into.
        let arcs = [UInt8](repeating: 0x01, count: 300)
        let oid = [0x06, 0x82, 0x01, 0x2D] + [0x29] + arcs
        let verdict = OpenSSLCMSOracle.decode(Self.contentInfo(content: [0x31, 0x00], eContentType: oid))
        #expect(verdict.accepted)
        #expect(verdict.encapsulatedContentType == "1.1." + Array(repeating: "1", count: 300).joined(separator: "."))
    }

    @Test func decodesOtherContentTypesButSaysSo() {
        // ContentInfo { data, [0] OCTET STRING }.
        let bytes = Self.hex("30 11 06 09 2a864886f70d010701 a0 04 04 02 31 00")
        let verdict = OpenSSLCMSOracle.decode(bytes)
        #expect(verdict.accepted)
        #expect(verdict.contentType == Self.data)
        #expect(!verdict.isSignedData)
        #expect(verdict.content == nil)
    }

    @Test func reportsBytesAfterTheContentInfoAsNotConsumed() {
        let bytes = Self.contentInfo(content: [0x31, 0x00]) + [0x05, 0x00]
        let verdict = OpenSSLCMSOracle.decode(bytes)
        #expect(verdict.accepted)
        #expect(verdict.consumed == bytes.count - 2)
    }

    @Test(arguments: [0, 1, 10, 40])
    func rejectsEveryCutOfAReceipt(keeping length: Int) throws {
        let bytes = try Self.receipt("kvitto-sandboxReceipt.receipt")
        let verdict = OpenSSLCMSOracle.decode(Array(bytes.prefix(length == 40 ? bytes.count - 1 : length)))
        #expect(!verdict.accepted)
        #expect(verdict.content == nil)
        #expect(verdict.description.hasPrefix("rejected"))
        if length > 0 { #expect(!verdict.errors.isEmpty) }
    }

    @Test func namesTheFieldThatFailed() {
        // The signerInfos SET replaced by an INTEGER: OpenSSL names the field and the type it was decoding.
        let bytes = Self.contentInfo(content: [0x31, 0x00], signerInfos: Self.hex("02 01 00"))
        let verdict = OpenSSLCMSOracle.decode(bytes)
        #expect(!verdict.accepted)
        #expect(verdict.failedFields.contains("signerInfos"))
        #expect(verdict.errors.contains { $0.type == "CMS_SignedData" })
    }

    @Test func leavesTheErrorQueueEmpty() {
        _ = OpenSSLCMSOracle.decode([0x30, 0x80])
        // A certificate decode right after must not see the oracle's errors in its own.
        do throws(CryptoError) {
            _ = try Certificate(derEncoded: [0x30, 0x00])
            Issue.record("an empty SEQUENCE decoded as a certificate")
        } catch {
            #expect(!error.openSSLErrors.isEmpty)
            #expect(!error.openSSLErrors.contains { $0.contains("CMS") })
        }
    }
}
