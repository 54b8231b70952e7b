import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptMutation
import ReceiptRendering
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// The process-wide chain verification cache never changes a judgement: every catalogue mutation, receipt and JWS,
/// is judged the same by a cold cache and by one that has seen the genuine document and the mutation itself; a chain
/// is verified once however many documents carry it; a failure is never kept; a time across a certificate's window
/// edge is verified again.
@Suite("Chain verification cache")
struct ChainVerificationCacheTests {
    static let receiptNames = MutationCatalogue.all.map(\.name).filter { !MutationCatalogue.storeKitOnly.contains($0) }
    static let jwsNames = JWSMutationCatalogue.all.map(\.name)

    /// The judgement as `rcpt dump --format json` writes it: verdicts, every finding with its offset and message,
    /// every chain with its path and errors.
    static func judgement(_ inspection: ReceiptInspection) -> [UInt8] { DumpJSON.render(inspection) }
    static func judgement(_ inspection: JWSInspection) -> [UInt8] { JWSReport.json(inspection, .dump, pretty: true) }

    /// The first line where two judgements differ.
    static func difference(_ cold: [UInt8], _ warm: [UInt8]) -> String {
        let lines = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        let (a, b) = (lines(cold), lines(warm))
        for index in 0..<max(a.count, b.count) {
            let (left, right) = (index < a.count ? a[index] : "(end)", index < b.count ? b[index] : "(end)")
            if left != right { return "line \(index): cold \(left.prefix(300)) / warm \(right.prefix(300))" }
        }
        return "equal"
    }

    @Test(arguments: receiptNames)
    func aReceiptMutationIsJudgedTheSameColdAndWarm(_ name: String) throws {
        let kit = try #require(MutationFixtures.kit)
        let mutation = try #require(MutationCatalogue.named(name))
        let genuine = try #require(MutationCatalogue.named("baseline"))
        for input in MutationFixtures.inputs.prefix(2) {
            let baseline = try genuine.apply(to: input.bytes, kit: kit, seed: 7)
            let bytes = try mutation.apply(to: input.bytes, kit: kit, seed: 7)
            let options = InspectionOptions(anchors: TrustAnchors([kit.authority.root]), now: 1_800_000_000)
            Self.expectSameColdAndWarm(
                bytes, baseline: baseline, options: options, "\(name) on \(input.name)",
                inspect: { ReceiptInspector.inspect($0, options: $1) }, judgement: { Self.judgement($0) },
                chainIsValid: { $0.verification?.chain == .valid })
        }
    }

    @Test(arguments: jwsNames)
    func aJWSMutationIsJudgedTheSameColdAndWarm(_ name: String) throws {
        let kit = try #require(JWSMutationTests.kit)
        let mutation = try #require(JWSMutationCatalogue.named(name))
        let genuine = try #require(JWSMutationCatalogue.named("baseline"))
        for input in JWSMutationTests.inputs {
            let source = Fixtures.bytes(input)
            let bytes: [UInt8]
            do {
                bytes = try mutation.apply(to: source, kit: kit)
            } catch {
                continue  // a claim the input does not carry
            }
            let baseline = try genuine.apply(to: source, kit: kit)
            let options = InspectionOptions(
                anchors: TrustAnchors([kit.authority.root]), time: .signed, now: 1_800_000_000)
            Self.expectSameColdAndWarm(
                bytes, baseline: baseline, options: options, "\(name) on \(input)",
                inspect: { JWSInspector.inspect($0, options: $1) }, judgement: { Self.judgement($0) },
                chainIsValid: { $0.tokens.first?.chain?.chain == .valid })
        }
    }

    /// `bytes` judged with a cold cache and with one that has seen `baseline` and `bytes` give the same judgement;
    /// a chain that verified is answered by the cache the second time.
    static func expectSameColdAndWarm<Judged>(
        _ bytes: [UInt8], baseline: [UInt8], options: InspectionOptions, _ label: String,
        inspect: ([UInt8], InspectionOptions) -> Judged, judgement: (Judged) -> [UInt8],
        chainIsValid: (Judged) -> Bool
    ) {
        var options = options
        options.chainVerifications = ChainVerificationCache(capacity: 8)
        let cold = judgement(inspect(bytes, options))
        options.chainVerifications = ChainVerificationCache(capacity: 8)
        _ = inspect(baseline, options)
        _ = inspect(bytes, options)
        let hits = options.chainVerifications.statistics.hits
        let inspection = inspect(bytes, options)
        let warm = judgement(inspection)
        #expect(cold == warm, "\(label): \(difference(cold, warm))")
        if chainIsValid(inspection) {
            #expect(options.chainVerifications.statistics.hits > hits, "\(label): not from the cache")
        }
    }

    /// Fifty copies of one genuine token verify its chain once; a chain that fails is verified every time.
    @Test func aChainIsVerifiedOnceAndAFailureEveryTime() throws {
        let kit = try #require(JWSMutationTests.kit)
        let genuine = try #require(JWSMutationCatalogue.named("baseline"))
        let token = try genuine.apply(to: Fixtures.bytes(JWSMutationTests.inputs[0]), kit: kit)
        let cache = ChainVerificationCache(capacity: 8)
        var options = InspectionOptions(
            anchors: TrustAnchors([kit.authority.root]), time: .signed, now: 1_800_000_000)
        options.chainVerifications = cache
        for _ in 0..<50 { #expect(JWSInspector.inspect(token, options: options).isValid) }
        #expect(cache.statistics.misses == 1 && cache.statistics.hits == 49, "\(cache.statistics)")
        // Under another root nothing verifies, and nothing is kept.
        options.anchors = TrustAnchors([kit.foreign.root])
        options.jwsAnchors = .same
        for _ in 0..<3 { #expect(!JWSInspector.inspect(token, options: options).isValid) }
        #expect(cache.statistics.misses == 4, "\(cache.statistics)")
    }

    /// The same chain judged at a time after its leaf expired is verified again (and fails), though the cache holds
    /// its success at the signing time.
    @Test func aTimeOutsideAWindowIsVerifiedAgain() throws {
        let kit = try #require(JWSMutationTests.kit)
        let genuine = try #require(JWSMutationCatalogue.named("baseline"))
        let token = try genuine.apply(to: Fixtures.bytes(JWSMutationTests.inputs[0]), kit: kit)
        let cache = ChainVerificationCache(capacity: 8)
        var options = InspectionOptions(
            anchors: TrustAnchors([kit.authority.root]), time: .signed, now: 1_800_000_000)
        options.chainVerifications = cache
        #expect(JWSInspector.inspect(token, options: options).isValid)
        let leafExpiry = kit.authority.leaf.notAfter
        options.time = .now
        options.now = leafExpiry + 60
        let late = JWSInspector.inspect(token, options: options)
        #expect(!late.isValid)
        #expect(late.tokens.first?.chain?.chain == .invalid)
        #expect(late.tokens.first?.findings.contains { $0.code == "chain-invalid" } == true)
        #expect(cache.statistics.misses == 2 && cache.statistics.hits == 0, "\(cache.statistics)")
    }
}
