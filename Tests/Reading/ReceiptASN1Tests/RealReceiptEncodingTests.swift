import ReceiptASN1
import ReceiptTestSupport
import Testing

@Suite("Real receipts at the encoding layer")
struct RealReceiptEncodingTests {
    @Test(arguments: Fixtures.realReceiptNames)
    func roundTripsEveryRealReceipt(_ name: String) throws {
        let bytes = Fixtures.realReceipt(name)
        #expect(!bytes.isEmpty)
        let tree = try ASN1Tree.read(bytes)
        #expect(tree.write() == bytes)
    }

    @Test(arguments: Fixtures.realReceiptNames)
    func rejectsEveryTruncationOfEveryRealReceipt(_ name: String) {
        let bytes = Fixtures.realReceipt(name)
        var accepted: [Int] = []
        for length in 0..<bytes.count where (try? ASN1Tree.read(Array(bytes.prefix(length)))) != nil {
            accepted.append(length)
        }
        #expect(accepted.isEmpty, "prefixes that read as complete: \(accepted.prefix(5))")
    }

    @Test func xcodeReceiptIsBERAndOthersAreDER() throws {
        #expect(throws: ASN1Error.self) {
            _ = try ASN1Tree.read(Fixtures.realReceipt(Fixtures.xcodeReceipt), rules: .der)
        }
        _ = try ASN1Tree.read(Fixtures.realReceipt(Fixtures.sandboxReceipt), rules: .der)
    }
}
