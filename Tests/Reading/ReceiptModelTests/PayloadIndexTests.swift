import Foundation
import ReceiptASN1
import ReceiptBuilding
import ReceiptPKCS7
import ReceiptTestSupport
import Testing

@testable import ReceiptModel

/// The payload index against an independent reader: the generic BER tree walker (`ASN1Tree`), which knows nothing
/// of attributes. Wherever the tree reads a payload, every attribute the index holds must be the tree's element at
/// the same offset, with the same type, version and value octets, and every record the tree's SET with the same
/// attributes. On any input, damaged or not, the index keeps its invariants: offsets inside the file, records as
/// ranges of entries that hold in-app attributes only.
@Suite("The payload index agrees with an independent BER walk and keeps its invariants")
struct PayloadIndexTests {
    /// The payload bytes of a receipt (its content segments joined).
    static func payloadBytes(_ receipt: [UInt8]) -> [UInt8]? {
        let read = Receipt.read(receipt)
        guard let segments = read.signedData.encapsulatedContent?.segments, !segments.isEmpty else { return nil }
        return segments.flatMap { Array(receipt[$0]) }
    }

    /// Compares the attributes of `list` with the children of the SET that `tree` holds at its root.
    /// `base`: the file offset of the tree's first byte.
    static func expectAgreement(
        _ list: AttributeList, tree: ASN1Tree, base: Int = 0, scope: FieldScope,
        _ name: String
    ) {
        let bytes = tree.bytes
        guard let root = tree.nodes.first, root.tag == .set || root.tag == .sequence else { return }
        let children = tree.nodes.filter { $0.depth == root.depth + 1 }
        #expect(list.count == children.count, "\(name): \(list.count) attributes, the tree has \(children.count)")
        for (attribute, node) in zip(list, children) {
            #expect(
                attribute.offset == base + node.offset && attribute.length == node.encodedLength,
                "\(name): attribute at \(attribute.offset)+\(attribute.length), tree element at \(base + node.offset)+\(node.encodedLength)"
            )
            #expect(attribute.scope == scope)
            let fields = tree.nodes.filter {
                $0.depth == node.depth + 1 && $0.offset >= node.contentStart
                    && $0.end <= node.contentEnd
            }
            guard node.tag == .sequence, fields.count == 3, fields[0].tag == .integer, fields[1].tag == .integer,
                fields[2].tag == .octetString
            else { continue }
            #expect(attribute.type == ASN1Primitives.int64(bytes, fields[0].contentRange), "\(name): type")
            #expect(attribute.version == ASN1Primitives.int64(bytes, fields[1].contentRange), "\(name): version")
            #expect(Array(attribute.valueBytes) == Array(bytes[fields[2].contentRange]), "\(name): value octets")
            if let record = attribute.record, let inner = try? ASN1Tree.read(Array(attribute.valueBytes)) {
                expectAgreement(
                    record.attributes, tree: inner, base: record.offset, scope: .inApp,
                    "\(name) record at \(record.offset)")
            }
        }
    }

    /// What holds for the index of any input.
    static func expectInvariants(_ payload: ReceiptPayload, fileSize: Int, _ name: String) {
        let index = payload.index
        var recordCount = 0
        for attribute in payload.attributes {
            #expect(attribute.offset >= 0 && attribute.offset + attribute.length <= fileSize, "\(name): attribute span")
            #expect(attribute.scope == .receipt)
            if let valueOffset = attribute.valueOffset {
                #expect(valueOffset >= attribute.offset && valueOffset + attribute.valueBytes.count <= fileSize)
            }
            guard let record = attribute.record else { continue }
            recordCount += 1
            #expect(record.offset >= attribute.offset && record.offset + record.length <= fileSize)
            for inner in record.attributes {
                #expect(inner.scope == .inApp && inner.record == nil, "\(name): a record holds only in-app attributes")
                #expect(
                    inner.offset >= record.offset && inner.offset + inner.length <= record.offset + record.length,
                    "\(name): a record attribute lies inside its record")
            }
        }
        #expect(payload.inAppRecords.count == recordCount)
        let listed = payload.attributes.count + payload.inAppRecords.reduce(0) { $0 + $1.attributes.count }
        #expect(listed == index.entryCount, "\(name): every entry is a top-level or a record attribute")
    }

    static func check(_ receipt: [UInt8], _ name: String) {
        let read = Receipt.read(receipt)
        guard let payload = read.payload else { return }
        expectInvariants(payload, fileSize: receipt.count, name)
        guard read.error == nil, let bytes = payloadBytes(receipt), let tree = try? ASN1Tree.read(bytes) else { return }
        // Offsets in the tree are payload positions: compare with a read of the payload alone.
        let alone = PayloadReader.read(
            file: bytes, segments: [0..<bytes.count], depth: 0, limits: .default,
            nodesRead: 0)
        expectAgreement(alone.attributes, tree: tree, scope: .receipt, name)
    }

    @Test(arguments: Fixtures.realReceiptNames)
    func realReceipts(_ name: String) throws {
        let bytes = Fixtures.realReceipt(name)
        Self.check(bytes, name)
        let payload = try #require(Receipt.read(bytes).payload)
        #expect(!payload.attributes.isEmpty)
        // Only numbers beyond 32 bits and dates with an offset or a fraction (Xcode writes them) leave the entries
        // of a real receipt.
        let fields = Set(payload.index.table.wide.map(\.field))
        #expect(fields.isSubset(of: [.number, .dateDetail]), "\(name): \(fields)")
    }

    /// The index of a receipt of many records stays smaller than the receipt: an entry is 16 bytes.
    /// An entry's state byte gives back every kind, version and flag packed into it.
    @Test func theStateByteKeepsWhatIsPackedIntoIt() {
        let kinds: [ValueKind] = [.absent, .text, .date, .integer, .largeInteger, .boolean, .raw, .record]
        for kind in kinds {
            for version in [PayloadIndex.VersionCode.none, .one, .two, .other] {
                for inApp in [false, true] {
                    var state = PayloadIndex.State(kind: kind, version: version, inApp: inApp)
                    state.hasWideFacts = true
                    state.dateParsed = kind == .date
                    #expect(state.kind == kind && state.version == version && state.inApp == inApp)
                    #expect(state.hasWideFacts && state.dateParsed == (kind == .date))
                }
            }
        }
    }

    @Test func entriesAreSmallerThanTheAttributesTheyIndex() throws {
        #expect(MemoryLayout<PayloadIndex.Entry>.stride == 16)
        var synthetic = SyntheticReceipt()
        synthetic.records = 200
        let bytes = try TestReceipts.signed(synthetic)
        let index = try #require(Receipt.read(bytes).payload?.index)
        #expect(index.memoryCost < bytes.count, "\(index.memoryCost) bytes of index for a \(bytes.count)-byte receipt")
    }

    @Test func syntheticReceiptsOfEveryShape() throws {
        for records in [0, 1, 5, 40] {
            var synthetic = SyntheticReceipt()
            synthetic.records = records
            let bytes = try TestReceipts.signed(synthetic)
            Self.check(bytes, "synthetic \(records)")
            #expect(Receipt.read(bytes).inAppRecords.count == records)
        }
    }

    @Test func regressionInputs() {
        for (name, bytes) in RegressionCorpusTests.inputs { Self.check(bytes, name) }
    }

    /// Every fourth byte of a real receipt replaced by values that break and bend the shape.
    @Test func damagedVariants() {
        let original = Fixtures.realReceipt(Fixtures.sandboxReceipt)
        var checked = 0
        for index in stride(from: 0, to: original.count, by: 4) {
            for replacement: UInt8 in [0x00, 0x7F, 0x80, 0x81, 0x82, 0xFF, original[index] ^ 0x01] {
                var bytes = original
                bytes[index] = replacement
                Self.check(bytes, "byte \(index) = \(replacement)")
                checked += 1
            }
        }
        #expect(checked > 4000)
    }

    /// Facts beyond the 16-byte entries come back exactly: wide types and versions, high tag numbers, dates with a
    /// fraction or an offset, values that do not end their attribute.
    @Test func unusualFactsRoundTrip() throws {
        var writer = ASN1Writer()
        writer.appendConstructed(.set) { set in
            set.appendConstructed(.sequence) { attribute in  // a wide type and version
                attribute.appendInteger(70_000)
                attribute.appendInteger(300)
                attribute.appendOctetString([0x0C, 0x01, 0x41])
            }
            set.appendConstructed(.sequence) { attribute in  // a negative type
                attribute.appendInteger(-5)
                attribute.appendInteger(1)
                attribute.appendOctetString([0x02, 0x01, 0x07])
            }
            set.appendConstructed(.sequence) { attribute in  // a date with a fraction and an offset
                attribute.appendInteger(12)
                attribute.appendInteger(1)
                var date = ASN1Writer()
                date.appendIA5String("2023-10-19T01:45:40.250+02:00")
                attribute.appendOctetString(date.bytes)
            }
            set.appendConstructed(.sequence) { attribute in  // a fourth field after the value
                attribute.appendInteger(2)
                attribute.appendInteger(1)
                attribute.appendOctetString([0x0C, 0x01, 0x42])
                attribute.appendInteger(9)
            }
            set.appendConstructed(.sequence) { attribute in  // a value holding a high-numbered tag
                attribute.appendInteger(40)
                attribute.appendInteger(1)
                attribute.appendOctetString([0x9F, 0x40, 0x01, 0x00])
            }
        }
        let bytes = writer.bytes
        let payload = PayloadReader.read(
            file: bytes, segments: [0..<bytes.count], depth: 0, limits: .default,
            nodesRead: 0)
        let attributes = Array(payload.attributes)
        try #require(attributes.count == 5)
        #expect(attributes[0].type == 70_000 && attributes[0].version == 300 && attributes[0].text == "A")
        #expect(attributes[1].type == -5 && attributes[1].integer == 7)
        let date = try #require(attributes[2].date)
        #expect(date.nanosecond == 250_000_000 && date.utcOffsetMinutes == 120 && date.hour == 1)
        let valueOffset = try #require(attributes[3].valueOffset)
        #expect(attributes[3].text == "B" && attributes[3].offset + attributes[3].length > valueOffset + 3)
        #expect(attributes[4].valueTag == ASN1Tag(.contextSpecific, number: 64, constructed: false))
        #expect(payload.index.table.entries.filter { $0.state.hasWideFacts }.count == 5)
        Self.expectInvariants(payload, fileSize: bytes.count, "unusual")
        if let tree = try? ASN1Tree.read(bytes) {
            Self.expectAgreement(payload.attributes, tree: tree, scope: .receipt, "unusual")
        }
    }
}
