import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptDiff
import ReceiptModel
import ReceiptTestSupport
import Testing

@Suite("Malformed input: diff what could be read, say where reading stopped")
struct MalformedInputTests {
    static let receipt: [UInt8] = (try? TestReceipts.signed(payload: TestPayload.subscription().encoded())) ?? []

    @Test func everyPrefixOfAReceiptDiffsWithoutCrashing() throws {
        let full = Self.receipt
        #expect(!full.isEmpty)
        let fullInspection = try Diffing.inspect(full)
        for cut in stride(from: 1, to: full.count, by: 23) {
            let prefix = Array(full.prefix(cut))
            let inspection = try Diffing.inspect(prefix)
            guard ReceiptDiff.unreadableReason(inspection) == nil else { continue }
            let result = ReceiptDiff.compare(
                DiffInput(name: "A", inspection: fullInspection),
                DiffInput(name: "B", inspection: inspection))
            #expect(!result.isEqual, "prefix of \(cut) bytes")
            #expect(result.a.readError == nil)
            #expect(result.b.readError != nil, "prefix of \(cut) bytes")
            let itself = ReceiptDiff.compare(
                DiffInput(name: "A", inspection: inspection),
                DiffInput(name: "B", inspection: inspection))
            #expect(itself.isEqual, "prefix of \(cut) bytes: \(Diffing.paths(itself))")
        }
    }

    @Test func truncatedReceiptShowsWhatWasLostAndWhereReadingStopped() throws {
        let truncated = Array(Self.receipt.prefix(900))  // inside the in-app records
        let result = try Diffing.diff(Self.receipt, truncated)
        let paths = Diffing.paths(result)
        #expect(paths.contains("container.readError"), "\(paths)")
        #expect(result.changes.contains { $0.layer == .certificates && $0.kind == .removed })
        #expect(result.changes.contains { $0.path.description.hasPrefix("in_app[") && $0.kind == .removed })
        #expect(result.b.readError?.layer == .container)
        #expect(Diffing.change(result, "container.readError")?.offsetB == result.b.readError?.offset)
    }

    static let unreadable: [(name: String, bytes: [UInt8])] = [
        ("empty", []),
        ("text", Array("NOT A RECEIPT\n".utf8)),
        ("not a SEQUENCE", [0x86, 0x01, 0x02, 0x03]),
        ("1 GB claimed in 20 bytes", [0x30, 0x84, 0x40, 0, 0, 0] + Array(repeating: 0, count: 14)),
    ]

    @Test(arguments: unreadable)
    func inputWithNothingToCompareIsUnreadable(_ name: String, _ bytes: [UInt8]) throws {
        #expect(ReceiptDiff.unreadableReason(try Diffing.inspect(bytes)) != nil, "\(name)")
    }

    @Test func truncatedReceiptIsReadableForADiff() throws {
        let inspection = try Diffing.inspect(Array(Self.receipt.prefix(700)))
        #expect(ReceiptDiff.unreadableReason(inspection) == nil)
    }

    static func unsigned(_ extra: [UInt8]) -> [UInt8] {
        UnsignedReceipts.wrap(UnsignedReceipts.set(UnsignedReceipts.basics + [extra]))
    }

    @Test func malformedAttributesAreComparedAsRead() throws {
        let broken = UnsignedReceipts.attribute { writer in
            writer.appendInteger(99)
            writer.appendUTF8String("version is not an INTEGER")
            writer.appendOctetString([0x0C, 0x01, 0x41])
        }
        let fixed = AttributeSpec.utf8(99, "A").encoded
        #expect(try Diffing.diff(Self.unsigned(broken), Self.unsigned(broken)).isEqual)
        let result = try Diffing.diff(
            Self.unsigned(broken), Self.unsigned(fixed),
            options: DiffOptions(layers: [.receipt]))
        #expect(Diffing.paths(result) == ["attributes[type=99#0].version"])
        #expect(Diffing.change(result, "attributes[type=99#0].version")?.old == .null)
    }

    @Test func attributeWithoutATypeIsStillMatched() throws {
        let untyped = UnsignedReceipts.attribute { writer in
            writer.appendUTF8String("not a type")
            writer.appendInteger(1)
            writer.appendOctetString([0x0C, 0x01, 0x41])
        }
        let other = UnsignedReceipts.attribute { writer in
            writer.appendUTF8String("not a type")
            writer.appendInteger(1)
            writer.appendOctetString([0x0C, 0x01, 0x42])
        }
        let result = try Diffing.diff(
            Self.unsigned(untyped), Self.unsigned(other),
            options: DiffOptions(layers: [.receipt]))
        #expect(Diffing.paths(result) == ["attributes[untyped#0].value"])
    }

    @Test func trailingBytesAreAContainerChange() throws {
        let result = try Diffing.diff(Self.receipt, Self.receipt + [0xDE, 0xAD])
        // Verify judges trailing bytes invalid: the verdict changes with them.
        #expect(Diffing.paths(result) == ["container.trailingBytes", "verdict.valid", "verdict.errors"])
        #expect(result.changes.first?.kind == .added)
        #expect(result.changes.first?.offsetB == Self.receipt.count)
    }
}
