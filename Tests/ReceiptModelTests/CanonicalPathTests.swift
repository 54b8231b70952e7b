import Foundation
@testable import ReceiptModel
import ReceiptTestSupport
import Testing

/// The payload decoder reads attributes in Apple's canonical shape through a fast path. These tests hold it to the
/// general path: on every corpus receipt, every regression input and thousands of damaged variants, both paths
/// must decode the same attributes (every view, in order) with the same findings and errors.
@Suite("The canonical-shape fast path decodes exactly what the general path does")
struct CanonicalPathTests {
    struct Decoding: Equatable {
        var views: [AttributeView] = []
        var findings: [String] = []
        var error: String?
    }

    static func decode(_ bytes: [UInt8], canonical: Bool) -> Decoding {
        var decoding = Decoding()
        let receipt = Receipt.read(bytes, limits: .default, usesCanonicalPath: canonical) { view, _ in
            decoding.views.append(view)
        }
        decoding.findings = receipt.findings.map { "\($0)" }
        decoding.error = receipt.error.map { "\($0)" }
        return decoding
    }

    static func expectSamePaths(_ bytes: [UInt8], _ name: String) {
        let fast = decode(bytes, canonical: true)
        let general = decode(bytes, canonical: false)
        guard fast != general else { return }
        // Name the first difference, not two whole decodings.
        if let index = fast.views.indices.first(where: { $0 < general.views.count && fast.views[$0] != general.views[$0] }) {
            Issue.record("\(name): attribute \(index) differs:\n fast    \(fast.views[index])\n general \(general.views[index])")
        } else if fast.views.count != general.views.count {
            Issue.record("\(name): \(fast.views.count) attributes on the fast path, \(general.views.count) on the general one")
        } else {
            Issue.record("\(name): findings or errors differ:\n fast    \(fast.findings) \(fast.error ?? "")\n general \(general.findings) \(general.error ?? "")")
        }
    }

    @Test(arguments: Fixtures.realReceiptNames)
    func realReceipts(_ name: String) {
        let bytes = Fixtures.realReceipt(name)
        Self.expectSamePaths(bytes, name)
        #expect(!Self.decode(bytes, canonical: true).views.isEmpty)
    }

    @Test func syntheticReceiptsOfEveryShape() throws {
        for records in [0, 1, 5, 40] {
            var synthetic = SyntheticReceipt()
            synthetic.records = records
            let bytes = try TestReceipts.signed(synthetic)
            Self.expectSamePaths(bytes, "synthetic \(records)")
        }
    }

    @Test func regressionInputs() {
        for (name, bytes) in RegressionCorpusTests.inputs { Self.expectSamePaths(bytes, name) }
    }

    /// Every byte of a real receipt's payload region replaced by values that break and bend the shape.
    @Test func damagedVariants() {
        let original = Fixtures.realReceipt(Fixtures.sandboxReceipt)
        var checked = 0
        for index in stride(from: 0, to: original.count, by: 4) {
            for replacement: UInt8 in [0x00, 0x7F, 0x80, 0x81, 0x82, 0xFF, original[index] ^ 0x01] {
                var bytes = original
                bytes[index] = replacement
                Self.expectSamePaths(bytes, "byte \(index) = \(replacement)")
                checked += 1
            }
        }
        #expect(checked > 4000)
    }
}
