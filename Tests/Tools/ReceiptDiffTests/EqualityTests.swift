import ReceiptBuilding
import ReceiptDiff
import ReceiptModel
import ReceiptTestSupport
import ReceiptValidation
import Testing

@Suite("Equal receipts: a receipt against itself, and BER against DER")
struct EqualityTests {
    @Test(arguments: Fixtures.realReceiptNames)
    func everyRealReceiptEqualsItselfEvenWithEncoding(_ name: String) throws {
        let bytes = Fixtures.realReceipt(name)
        let result = try Diffing.diff(bytes, bytes, options: DiffOptions(encoding: true))
        #expect(result.isEqual, "\(Diffing.paths(result))")
        #expect(result.hiddenEncodingCount == 0)
    }

    @Test func berAndDerEncodingsOfOnePayloadAreEqual() throws {
        let payload = TestPayload.subscription().encoded()
        let ber = try TestReceipts.signed(payload: payload, layout: .ber)
        let der = try TestReceipts.signed(payload: payload, layout: .der)
        let result = try Diffing.diff(ber, der)
        #expect(result.isEqual, "\(Diffing.paths(result))")
        #expect(result.hiddenEncodingCount > 0)
    }

    @Test func berAndDerDifferOnlyInEncodingWithEncoding() throws {
        let payload = TestPayload.subscription().encoded()
        let ber = try TestReceipts.signed(payload: payload, layout: .ber)
        let der = try TestReceipts.signed(payload: payload, layout: .der)
        let result = try Diffing.diff(ber, der, options: DiffOptions(encoding: true))
        #expect(
            Diffing.paths(result) == [
                "input.size", "input.sha256", "input.format",
                "container.encoding.constructedString", "container.encoding.indefiniteLength",
            ])
        #expect(result.changes.allSatisfy { $0.isEncoding })
        #expect(Diffing.change(result, "input.format")?.old == .word("ber"))
        #expect(Diffing.change(result, "input.format")?.new == .word("der"))
        #expect(Diffing.change(result, "container.encoding.indefiniteLength")?.old == .number(6))
        #expect(Diffing.change(result, "container.encoding.indefiniteLength")?.new == .number(0))
    }

    @Test func xcodeReceiptEqualsItsDERReEncoding() throws {
        let xcode = Fixtures.realReceipt(Fixtures.xcodeReceipt)
        let der = try Diffing.xcodeAsDER()
        let inspection = try Diffing.inspect(der)
        #expect(inspection.input.format == "ber", "the payload stays unsorted, a BER-only choice")
        #expect(inspection.verification?.signature == .valid, "the same signature still verifies")
        #expect(inspection.verification?.chain == .valid)
        let result = try Diffing.diff(xcode, der)
        #expect(result.isEqual, "\(Diffing.paths(result))")
        let encoding = try Diffing.diff(xcode, der, options: DiffOptions(encoding: true))
        #expect(
            Diffing.paths(encoding) == [
                "input.size", "input.sha256", "container.encoding.constructedString",
                "container.encoding.indefiniteLength",
            ])
    }

    @Test func committedDERReEncodingFixtureIsTheOneTheTestsBuild() throws {
        let committed = Fixtures.bytes("Tests/Tools/RcptCLITests/Golden/diff-xcode-der.receipt")
        #expect(committed == (try Diffing.xcodeAsDER()))
    }

    @Test func inputLayerAskedForByNameShowsItsFacts() throws {
        let payload = TestPayload.subscription().encoded()
        let ber = try TestReceipts.signed(payload: payload, layout: .ber)
        let der = try TestReceipts.signed(payload: payload, layout: .der)
        let result = try Diffing.diff(ber, der, options: DiffOptions(layers: [.input]))
        #expect(Diffing.paths(result) == ["input.size", "input.sha256", "input.format"])
    }
}
