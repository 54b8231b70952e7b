import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// The one chain check: OpenSSL verifies the path to the anchors, then every policy of the check judges the verified
/// path; receipts and JWS differ only in the policies they compose.
@Suite("Chain check")
struct ChainCheckTests {
    /// A policy that records the paths it is shown and reports one finding for each.
    struct Recording: ChainPolicy {
        func findings(_ path: [Certificate], _ context: ChainContext) -> [Finding] {
            [Finding(.chainShapeUnexpected, at: context.offset(path[0]), "path of \(path.count)")]
        }
    }

    @Test func policiesJudgeOnlyAVerifiedPathAndCompose() throws {
        let inspection = try Inspect.apple(Fixtures.realReceipt(Fixtures.sandboxReceipt))
        let certificates = inspection.certificates.compactMap(\.certificate)
        let leafIndex = try #require(certificates.firstIndex { !$0.isSelfIssued && $0.subject.contains("Receipt") })
        let leaf = certificates[leafIndex]
        let intermediates = certificates.enumerated().filter { $0.offset != leafIndex }.map(\.element)
        let time = try #require(inspection.verification?.evaluatedAt)
        let anchors = try TrustAnchors.appleRoot()

        let recorded = ChainCheck(
            anchors: anchors, policies: [Recording(), Recording()], verifications: ChainVerificationCache(capacity: 4)
        )
        .check(leaf: leaf, intermediates: intermediates, at: time, environment: nil, offset: { _ in 7 })
        #expect(recorded.verification.isValid && recorded.verification.certificates.count == 3)
        #expect(
            recorded.findings.map(\.message) == ["path of 3", "path of 3"]
                && recorded.findings.allSatisfy { $0.offset == 7 })

        // Apple's receipt policy finds nothing to say of Apple's own chain.
        let apple = ChainCheck.receipts(anchors, verifications: ChainVerificationCache(capacity: 4)).check(
            leaf: leaf, intermediates: intermediates, at: time,
            environment: nil, offset: { _ in nil })
        #expect(apple.verification.isValid && apple.findings.isEmpty)

        // A path that does not verify (no intermediate) is never shown to the policies.
        let broken = ChainCheck(
            anchors: anchors, policies: [Recording()], verifications: ChainVerificationCache(capacity: 4)
        )
        .check(leaf: leaf, intermediates: [], at: time, environment: nil, offset: { _ in nil })
        #expect(!broken.verification.isValid && broken.findings.isEmpty)
    }
}
