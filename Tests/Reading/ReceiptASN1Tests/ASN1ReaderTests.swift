import ReceiptASN1
import ReceiptDiagnostics
import ReceiptTestSupport
import Testing

/// One well-formed encoding and what the reader must see in it.
struct AcceptCase: Sendable, CustomTestStringConvertible {
    var name: String
    var hex: String
    var tag: ASN1Tag
    var contentLength: Int
    var end: Int
    var anomalies: ASN1HeaderAnomalies
    var testDescription: String { name }
}

/// One malformed encoding, the error code and the offset it must be reported at.
struct RejectCase: Sendable, CustomTestStringConvertible {
    var name: String
    var hex: String
    var code: ErrorCode
    var offset: Int
    var testDescription: String { name }
}

@Suite("BER/DER reader")
struct ASN1ReaderTests {
    static let accepted: [AcceptCase] = [
        AcceptCase(name: "null", hex: "0500", tag: .null, contentLength: 0, end: 2, anomalies: []),
        AcceptCase(
            name: "short-form sequence", hex: "3003 020101", tag: .sequence, contentLength: 3, end: 5,
            anomalies: []),
        AcceptCase(
            name: "long-form length", hex: "0481 80" + String(repeating: "00", count: 128),
            tag: .octetString, contentLength: 128, end: 131, anomalies: []),
        AcceptCase(
            name: "non-minimal long form for a short length", hex: "0481 01 ff", tag: .octetString,
            contentLength: 1, end: 4, anomalies: .nonMinimalLength),
        AcceptCase(
            name: "length with a leading zero octet", hex: "0482 0001 ff", tag: .octetString,
            contentLength: 1, end: 5, anomalies: .nonMinimalLength),
        AcceptCase(
            name: "high-tag form for a low tag number", hex: "1f02 01 05", tag: .integer, contentLength: 1,
            end: 4, anomalies: .nonMinimalTag),
        AcceptCase(
            name: "high tag number", hex: "9f8101 00",
            tag: ASN1Tag(
                .contextSpecific, number: 129,
                constructed: false), contentLength: 0, end: 4, anomalies: []),
        AcceptCase(
            name: "indefinite-length sequence", hex: "3080 0500 0000", tag: .sequence, contentLength: 2,
            end: 6, anomalies: .indefiniteLength),
        AcceptCase(
            name: "nested indefinite lengths", hex: "3080 3080 0500 0000 0000", tag: .sequence,
            contentLength: 6, end: 10, anomalies: .indefiniteLength),
        AcceptCase(
            name: "constructed OCTET STRING", hex: "2406 0401aa 0401bb",
            tag: ASN1Tag.octetString
                .withConstructed(true), contentLength: 6, end: 8, anomalies: .constructedString),
        AcceptCase(name: "empty constructed set", hex: "3100", tag: .set, contentLength: 0, end: 2, anomalies: []),
    ]

    @Test("accepts", arguments: accepted)
    func acceptsWellFormedEncodings(_ testCase: AcceptCase) throws {
        let bytes = Fixtures.hex(testCase.hex)
        var reader = ASN1Reader(bytes)
        let node = try reader.readNode(at: 0, limit: bytes.count, depth: 0)
        #expect(node.tag == testCase.tag)
        #expect(node.contentLength == testCase.contentLength)
        #expect(node.end == testCase.end)
        #expect(node.anomalies == testCase.anomalies)
    }

    static let rejected: [RejectCase] = [
        RejectCase(name: "empty input", hex: "", code: .asn1TruncatedHeader, offset: 0),
        RejectCase(name: "tag without length", hex: "30", code: .asn1TruncatedHeader, offset: 0),
        RejectCase(name: "length longer than input", hex: "3005 0500", code: .asn1LengthExceedsInput, offset: 0),
        RejectCase(
            name: "length field of 2^62", hex: "3088 4000000000000000 00", code: .asn1LengthExceedsInput,
            offset: 0),
        RejectCase(
            name: "1 GB claimed in 20 bytes", hex: "0484 40000000" + String(repeating: "00", count: 14),
            code: .asn1LengthExceedsInput, offset: 0),
        RejectCase(
            name: "length does not fit 63 bits", hex: "3089 010000000000000000", code: .asn1LengthTooLarge,
            offset: 0),
        RejectCase(name: "truncated long-form length", hex: "3084 0000", code: .asn1TruncatedHeader, offset: 0),
        RejectCase(name: "reserved length octet", hex: "30ff", code: .asn1ReservedLengthOctet, offset: 0),
        RejectCase(
            name: "indefinite length on a primitive", hex: "0480 0000", code: .asn1IndefinitePrimitive,
            offset: 0),
        RejectCase(
            name: "missing end-of-contents", hex: "3080 0500", code: .asn1MissingEndOfContents,
            offset: 0),
        RejectCase(
            name: "end-of-contents with content", hex: "3080 0001 00", code: .asn1InvalidEndOfContents,
            offset: 2),
        RejectCase(
            name: "end-of-contents where an element belongs", hex: "0000", code: .asn1UnexpectedEndOfContents,
            offset: 0),
        RejectCase(
            name: "tag number beyond 64 bits", hex: "1fffffffffffffffffffff7f 00", code: .asn1TagNumberTooLarge,
            offset: 0),
        RejectCase(name: "truncated high tag", hex: "1f81", code: .asn1TruncatedHeader, offset: 0),
        RejectCase(name: "inner length past outer end", hex: "3003 0405 00", code: .asn1LengthExceedsInput, offset: 2),
    ]

    @Test("rejects", arguments: rejected)
    func rejectsMalformedEncodingsWithOffset(_ testCase: RejectCase) {
        let bytes = Fixtures.hex(testCase.hex)
        #expect {
            _ = try ASN1Tree.read(bytes)
        } throws: { error in
            guard let error = error as? ASN1Error else { return false }
            return error.kind == testCase.code && error.offset == testCase.offset
        }
    }

    @Test func reportsAbsoluteOffsetsOfNestedNodes() throws {
        let bytes = Fixtures.hex("3080 3003 020107 0400 0000")
        let tree = try ASN1Tree.read(bytes)
        #expect(tree.nodes.map(\.offset) == [0, 2, 4, 7])
        #expect(tree.nodes.map(\.depth) == [0, 1, 2, 1])
        #expect(tree.nodes[2].contentRange == 6..<7)
    }

    @Test func rejectsDeepIndefiniteNestingQuickly() {
        let depth = 100_000
        let bytes =
            Array(repeating: [UInt8]([0x30, 0x80]), count: depth).flatMap { $0 }
            + Array(repeating: 0, count: depth * 2)
        #expect {
            _ = try ASN1Tree.read(bytes)
        } throws: { ($0 as? ASN1Error)?.kind == .asn1DepthLimit }
    }

    @Test func rejectsDeepDefiniteNesting() {
        // 100 nested SEQUENCEs with definite lengths, built inside out.
        var bytes: [UInt8] = [0x05, 0x00]
        for _ in 0..<100 {
            bytes = [0x30] + ASN1Writer.lengthOctets(bytes.count) + bytes
        }
        #expect {
            _ = try ASN1Tree.read(bytes, limits: ASN1Limits(maximumDepth: 64))
        } throws: { ($0 as? ASN1Error)?.kind == .asn1DepthLimit }
        #expect((try? ASN1Tree.read(bytes, limits: ASN1Limits(maximumDepth: 128))) != nil)
    }

    @Test func stopsAtTheNodeLimit() {
        let bytes: [UInt8] = [0x30, 0x28] + Array(repeating: [UInt8]([0x05, 0x00]), count: 20).flatMap { $0 }
        #expect {
            _ = try ASN1Tree.read(bytes, limits: ASN1Limits(maximumNodes: 10))
        } throws: { ($0 as? ASN1Error)?.kind == .asn1NodeLimit }
        #expect((try? ASN1Tree.read(bytes, limits: ASN1Limits(maximumNodes: 21)))?.nodes.count == 21)
    }

    @Test func derRulesRejectWhatBERRecords() {
        for hex in ["0481 01 ff", "1f02 01 05", "3080 0500 0000", "2403 0401aa"] {
            #expect(throws: ASN1Error.self) { _ = try ASN1Tree.read(Fixtures.hex(hex), rules: .der) }
            #expect((try? ASN1Tree.read(Fixtures.hex(hex), rules: .ber)) != nil)
        }
    }

    @Test func flattensNestedConstructedStringSegments() throws {
        let bytes = Fixtures.hex("2480 0402aabb 2403 0401cc 0000")
        var reader = ASN1Reader(bytes)
        let node = try reader.readNode(at: 0, limit: bytes.count, depth: 0)
        let segments = try reader.stringSegments(of: node)
        #expect(segments.flatMap { Array(bytes[$0]) } == [0xAA, 0xBB, 0xCC])
    }

    @Test func rejectsForeignSegmentsAndTooManySegments() throws {
        let foreign = Fixtures.hex("2403 0c01 41")
        var reader = ASN1Reader(foreign)
        let node = try reader.readNode(at: 0, limit: foreign.count, depth: 0)
        #expect { _ = try reader.stringSegments(of: node) } throws: {
            ($0 as? ASN1Error)?.kind == .asn1InvalidStringSegment
        }

        let many: [UInt8] = [0x24, 0x0C] + Array(repeating: [UInt8]([0x04, 0x01, 0x00]), count: 4).flatMap { $0 }
        var limited = ASN1Reader(many, limits: ASN1Limits(maximumSegments: 3))
        let chunked = try limited.readNode(at: 0, limit: many.count, depth: 0)
        #expect { _ = try limited.stringSegments(of: chunked) } throws: {
            ($0 as? ASN1Error)?.kind == .asn1SegmentLimit
        }
    }

    @Test func readSingleRejectsTrailingBytes() {
        let bytes = Fixtures.hex("0500 00")
        var reader = ASN1Reader(bytes)
        #expect { _ = try reader.readSingle(in: 0..<3, depth: 0) } throws: {
            ($0 as? ASN1Error)?.kind == .asn1TrailingBytes && ($0 as? ASN1Error)?.offset == 2
        }
    }
}
