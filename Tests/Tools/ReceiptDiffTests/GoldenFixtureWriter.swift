import Foundation
import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiff
import ReceiptModel
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// Writes the receipts the CLI's diff goldens compare (`Tests/Tools/RcptCLITests/Golden/diff-*.receipt`, and the root
/// that signs them). They hold fresh keys, so they are written only when asked, with
/// `RCPT_WRITE_DIFF_FIXTURES=1 swift test --filter GoldenFixtureWriter`; regenerate the goldens afterwards with
/// `RCPT_UPDATE_GOLDEN=1 swift test --filter DiffCLITests`.
@Suite("Golden diff fixtures")
struct GoldenFixtureWriter {
    static let enabled = ProcessInfo.processInfo.environment["RCPT_WRITE_DIFF_FIXTURES"] == "1"

    /// The same app a month apart: a renewal appeared, an earlier purchase was refunded, the app was updated,
    /// and Apple renewed the signing certificate.
    static func sameApp() throws -> (old: [UInt8], new: [UInt8], root: String) {
        let chain = try TestChain(label: "rcpt diff tests")
        let renewed = try chain.renewed()
        let old = TestPayload.subscription(records: 3, created: "2024-03-15T09:30:00Z")
        let new = TestPayload.subscription(records: 3, created: "2024-04-10T18:05:00Z").with {
            $0.setAttribute(.utf8(3, "43"))
            $0.setField(record: 1, .ia5(1712, "2024-02-10T08:12:45Z"))
            $0.records.append(TestPayload.record(index: 3))
        }
        return (try chain.sign(old.encoded()), try renewed.sign(new.encoded()), chain.root.pemEncoded)
    }

    /// What the goldens rely on, checked on every run: both receipts' signatures and chains verify under the root
    /// written beside them, and they differ in the certificates, the signer and the receipt, with a record added.
    @Test func theFixturesAreTheSameAppAMonthApart() throws {
        let (old, new, root) = try Self.sameApp()
        let anchors = TrustAnchors(try Certificate.load(fileContents: Array(root.utf8)))
        let a = ReceiptInspector.inspect(old, options: InspectionOptions(anchors: anchors))
        let b = ReceiptInspector.inspect(new, options: InspectionOptions(anchors: anchors))
        for side in [a, b] {
            #expect(side.verification?.signature == .valid, "\(side)")
            #expect(side.verification?.chain == .valid, "\(side)")
        }
        let result = ReceiptDiff.compare(
            DiffInput(name: "A", inspection: a), DiffInput(name: "B", inspection: b),
            options: DiffOptions())
        #expect(Set(result.changes.map(\.layer)).isSuperset(of: [.certificates, .signers, .receipt]))
        #expect(result.changes.contains { $0.kind == .added && $0.path.description.hasPrefix("in_app[") })
        #expect(Diffing.paths(result).contains { $0.hasSuffix("cancellation_date") })
    }

    @Test(.enabled(if: enabled))
    func writesTheReceiptsTheCLIGoldensCompare() throws {
        let (old, new, root) = try Self.sameApp()
        let directory = "Tests/Tools/RcptCLITests/Golden/"
        try Data(old).write(to: Fixtures.url(directory + "diff-old.receipt"))
        try Data(new).write(to: Fixtures.url(directory + "diff-new.receipt"))
        try Data(root.utf8).write(to: Fixtures.url(directory + "diff-root.pem"))
        try Data(try Diffing.xcodeAsDER()).write(to: Fixtures.url(directory + "diff-xcode-der.receipt"))
    }
}
