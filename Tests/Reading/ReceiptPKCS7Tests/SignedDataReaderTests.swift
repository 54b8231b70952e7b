import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptPKCS7
import Testing

/// The container reader on containers built without any crypto (a fixed digest and signature): what it reads,
/// what it reports, and where its limits stop it.
@Suite("Reading SignedData")
struct SignedDataReaderTests {
    /// A container around a one-byte payload, with the builder's knobs set by `edit`.
    static func container(_ edit: (inout SignedDataBuilder) -> Void = { _ in }) -> [UInt8] {
        var builder = SignedDataBuilder(
            content: [0x31, 0x00], certificates: [], signerIssuer: [0x30, 0x00],
            signerSerial: [0x01], digestAlgorithmOID: "2.16.840.1.101.3.4.2.1")
        edit(&builder)
        return builder.build(digest: { _ in [UInt8](repeating: 0x11, count: 32) }, sign: { _ in [0x5A] })
    }

    @Test func readsWhatTheBuilderWrites() {
        let result = SignedDataReader.read(Self.container())
        #expect(result.error == nil)
        #expect(result.findings.isEmpty)
        #expect(result.signedData.signers.count == 1)
        #expect(result.signedData.encapsulatedContent?.length == 2)
    }

    @Test(arguments: ["content info", "content info content", "encapsulated", "econtent", "signed data", "signer info"])
    func reportsEveryUnsignedAdditionAsAnError(_ place: String) throws {
        let extra: [UInt8] = [0x04, 0x01, 0x7E]
        let bytes = Self.container { builder in
            switch place {
            case "content info": builder.unsignedAdditions.contentInfo = [extra]
            case "content info content": builder.unsignedAdditions.contentInfoContent = [extra]
            case "encapsulated": builder.unsignedAdditions.encapsulatedContentInfo = [extra]
            case "econtent": builder.unsignedAdditions.eContent = [extra]
            case "signed data": builder.unsignedAdditions.signedData = [extra]
            default: builder.unsignedAdditions.signerInfo = [extra]
            }
        }
        let result = SignedDataReader.read(bytes)
        #expect(result.error == nil, "\(place)")
        let finding = try #require(result.findings.first { $0.kind == .pkcs7ExtraContent }, "\(place)")
        #expect(finding.severity == .error)
        // The finding points at the addition.
        let offset = try #require(finding.offset)
        #expect(Array(bytes[offset..<offset + 3]) == extra, "\(place)")
    }

    @Test func stopsReadingSignersAtTheLimitAndSaysSo() throws {
        let single = SignedDataReader.read(Self.container())
        let signer = try #require(single.signedData.signers.first)
        let encoding = Array(Self.container()[signer.offset..<signer.offset + signer.length])
        let bytes = Self.container { $0.extraSignerInfos = Array(repeating: encoding, count: 20) }
        var limits = ContainerLimits()
        limits.maximumSignerInfos = 64
        let unlimited = SignedDataReader.read(bytes, containerLimits: limits)
        #expect(unlimited.signedData.signers.count == 21)
        limits.maximumSignerInfos = 4
        let result = SignedDataReader.read(bytes, containerLimits: limits)
        #expect(result.error == nil)
        #expect(result.signedData.signers.count == 4)
        let limited = result.findings.filter { $0.kind == .containerLimitExceeded }
        #expect(limited.count == 1)
        #expect(limited.first?.severity == .error)
        // At the fifth SignerInfo, the first one past the limit.
        #expect(limited.first?.offset == unlimited.signedData.signers[4].offset)
    }

    @Test func signedAttributesAreVerifiedAsADERSetWhateverTheirOwnEncoding() {
        // [0] with an indefinite length around one attribute: the signed bytes are SET, a DER length, the content.
        let attribute = SignedDataBuilder.attribute("1.2.840.113549.1.9.3", values: [[0x06, 0x01, 0x2A]])
        let bytes: [UInt8] = [0xA0, 0x80] + attribute + [0x00, 0x00]
        let attributes = SignedAttributes(
            encoding: 0..<bytes.count, content: 2..<(2 + attribute.count),
            attributes: [], isDER: false)
        #expect(attributes.signedBytes(in: bytes) == [0x31, UInt8(attribute.count)] + attribute)
    }

    @Test func readsSignedAttributesAndTellsWhetherTheyAreDER() throws {
        let sorted = SignedDataReader.read(Self.container { $0.includeSignedAttributes = true })
        let attributes = try #require(sorted.signedData.signers.first?.signedAttributes)
        #expect(attributes.isDER)
        #expect(attributes.attributes.map(\.name) == ["contentType", "messageDigest"])
        let unsorted = SignedDataReader.read(
            Self.container { builder in
                builder.includeSignedAttributes = true
                let standard = builder
                builder.signedAttributeList = { digest in
                    standard.standardSignedAttributes(contentDigest: digest).reversed()
                }
            })
        #expect(unsorted.signedData.signers.first?.signedAttributes?.isDER == false)
    }

    @Test func ordersSetElementsAsDERDoes() {
        #expect(ASN1Primitives.isDEROrdered([0x30, 0x01][...], [0x30, 0x02][...]))
        #expect(!ASN1Primitives.isDEROrdered([0x30, 0x02][...], [0x30, 0x01][...]))
        #expect(ASN1Primitives.isDEROrdered([0x30][...], [0x30, 0x00][...]))
        #expect(ASN1Primitives.isDEROrdered([0x30, 0x00][...], [0x30][...]))
        #expect(!ASN1Primitives.isDEROrdered([0x31, 0x00][...], [0x30][...]))
    }
}
