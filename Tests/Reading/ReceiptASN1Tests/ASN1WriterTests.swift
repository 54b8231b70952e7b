import ReceiptASN1
import ReceiptTestSupport
import Testing

@Suite("ASN.1 writer and primitives")
struct ASN1WriterTests {
    static let integers: [(Int64, String)] = [
        (0, "00"), (1, "01"), (127, "7f"), (128, "0080"), (255, "00ff"), (256, "0100"), (-1, "ff"), (-128, "80"),
        (-129, "ff7f"), (Int64.max, "7fffffffffffffff"), (Int64.min, "8000000000000000"),
    ]

    @Test(arguments: integers)
    func encodesMinimalIntegersAndReadsThemBack(_ value: Int64, _ hex: String) {
        let content = ASN1Writer.integerContent(value)
        #expect(content == Fixtures.hex(hex))
        #expect(ASN1Primitives.int64(content, 0..<content.count) == value)
        #expect(!ASN1Primitives.isNonMinimalInteger(content, 0..<content.count))
    }

    @Test func flagsNonMinimalAndOversizedIntegers() {
        let padded = Fixtures.hex("0001")
        #expect(ASN1Primitives.isNonMinimalInteger(padded, 0..<2))
        let nineBytes = Fixtures.hex("008000000000000000")
        #expect(ASN1Primitives.int64(nineBytes, 0..<9) == nil)
        #expect(ASN1Primitives.int64([], 0..<0) == nil)
    }

    @Test(arguments: [
        "1.2.840.113549.1.7.2", "2.16.840.1.101.3.4.2.1", "1.3.14.3.2.26", "2.999.1", "0.0", "0.39", "1.0",
        "2.47.0", "1.2.9.10.99.100.999.1000", "1.2.18446744073709551615",
    ])
    func roundTripsObjectIdentifiers(_ dotted: String) throws {
        let content = try #require(ASN1Writer.objectIdentifierContent(dotted))
        #expect(ASN1Primitives.objectIdentifier(content, 0..<content.count) == dotted)
    }

    /// Arcs of any size, as X.690 and OpenSSL allow: beyond 64 bits exactly in decimal (OpenSSL's digits), and in
    /// hexadecimal once the identifier is longer than OpenSSL writes as text, so writing one stays linear.
    @Test(arguments: [
        ("2a81ffffffffffffffff7f", "1.2.18446744073709551615"),
        ("2a82808080808080808000", "1.2.18446744073709551616"),
        (
            "6086489e9e9e9e9e9e9e9e9e9e9e9e9e9e9e9e016503040201",
            "2.16.840.156995432573021559791788235466182401.101.3.4.2.1"
        ),
        ("9e9e9e9e9e9e9e9e9e9e01", "2.35696628531928026812081"),
        ("8180808080808080808000", "2.1180591620717411303344"),
        ("2a8180808080808080808000", "1.2.1180591620717411303424"),
    ])
    func readsArcsBeyond64Bits(_ hex: String, _ dotted: String) {
        let bytes = Fixtures.hex(hex)
        #expect(ASN1Primitives.objectIdentifier(bytes, 0..<bytes.count) == dotted)
    }

    @Test func writesAHugeArcOfALongIdentifierInHexadecimal() throws {
        let content: [UInt8] = [0x2a] + [UInt8](repeating: 0x9e, count: 600) + [0x01]
        let dotted = try #require(ASN1Primitives.objectIdentifier(content, 0..<content.count))
        #expect(dotted.hasPrefix("1.2.0x1e3c78f1e3c78f"))
        #expect(dotted.hasSuffix("1e3c78f01"))
        #expect(dotted.count == 1_058)
        // An arc of 200 000 octets in a hostile document: read (in hexadecimal, 350 000 digits), never a hang.
        let hostile: [UInt8] = [0x2a] + [UInt8](repeating: 0xff, count: 200_000) + [0x7f]
        let written = try #require(ASN1Primitives.objectIdentifier(hostile, 0..<hostile.count))
        #expect(written.hasPrefix("1.2.0x7fffff") && written.dropFirst(7).allSatisfy { $0 == "f" })
        #expect(written.count == 6 + (200_001 * 7 + 3) / 4)
        // At OpenSSL's limit the same arc is still written in decimal.
        let limit: [UInt8] = [0x2a] + [UInt8](repeating: 0x9e, count: 584) + [0x01]
        let decimal = try #require(ASN1Primitives.objectIdentifier(limit, 0..<limit.count))
        #expect(decimal.hasPrefix("1.2.12335301748974242205020701307676665935"))
        #expect(decimal.dropFirst(4).allSatisfy { $0.isNumber })
    }

    @Test func rejectsMalformedObjectIdentifiers() {
        for hex in ["", "2a86", "2a802a"] {
            let bytes = Fixtures.hex(hex)
            #expect(ASN1Primitives.objectIdentifier(bytes, 0..<bytes.count) == nil, "\(hex)")
        }
        #expect(ASN1Writer.objectIdentifierContent("3.1") == nil)
        #expect(ASN1Writer.objectIdentifierContent("1.40") == nil)
        #expect(ASN1Writer.objectIdentifierContent("1") == nil)
    }

    @Test func writesLengthsMinimally() {
        #expect(ASN1Writer.lengthOctets(0) == [0])
        #expect(ASN1Writer.lengthOctets(127) == [0x7F])
        #expect(ASN1Writer.lengthOctets(128) == [0x81, 0x80])
        #expect(ASN1Writer.lengthOctets(65_536) == [0x83, 0x01, 0x00, 0x00])
    }

    @Test func writesNestedConstructedElementsReadableAsDER() throws {
        var writer = ASN1Writer()
        writer.appendConstructed(.sequence) { writer in
            writer.appendInteger(17)
            writer.appendOctetString(Array(repeating: 0xAB, count: 300))
            writer.appendConstructed(.set) { writer in writer.appendUTF8String("é") }
        }
        let tree = try ASN1Tree.read(writer.bytes, rules: .der)
        #expect(tree.nodes.map(\.tag) == [.sequence, .integer, .octetString, .set, .utf8String])
        #expect(tree.write() == writer.bytes)
    }

    @Test func writesIndefiniteLengthsThatReadBack() throws {
        var writer = ASN1Writer()
        writer.appendIndefinite(.sequence) { writer in
            writer.appendIndefinite(.octetString) { writer in writer.appendOctetString([1, 2, 3]) }
        }
        #expect(writer.bytes == Fixtures.hex("3080 2480 0403010203 0000 0000"))
        let tree = try ASN1Tree.read(writer.bytes)
        #expect(tree.nodes[0].isIndefiniteLength && tree.nodes[1].isIndefiniteLength)
        #expect(tree.write() == writer.bytes)
    }

    @Test func hexRoundTrips() {
        let bytes: [UInt8] = [0x00, 0x7F, 0x80, 0xFF]
        #expect(ASN1Primitives.hex(bytes) == "007f80ff")
        #expect(ASN1Primitives.bytes(fromHex: "00:7f 80FF") == bytes)
        #expect(ASN1Primitives.bytes(fromHex: "0") == nil)
        #expect(ASN1Primitives.bytes(fromHex: "zz") == nil)
    }
}
