import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptMutation
import ReceiptRendering
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation
import Synchronization
import Testing

/// The process-wide caches never change a judgement: every catalogue mutation, receipt and JWS, is judged the same by
/// cold caches (chain verifications, token headers, x5c certificates, decoded certificates) and by ones that have
/// seen the genuine document and the mutation itself; a chain
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
        ProcessCaches.removeAll()
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

    /// A chain whose three certificates have nested windows (root ⊃ intermediate ⊃ leaf), TEST-ONLY.
    static let nested: (root: Certificate, intermediate: Certificate, leaf: Certificate)? = {
        func request(_ name: String, _ serial: UInt64, _ window: ClosedRange<Int64>, ca: Bool) -> CertificateRequest {
            CertificateRequest(
                subject: [("O", "rcpt TEST-ONLY"), ("CN", name)], serialNumber: serial, notBefore: window.lowerBound,
                notAfter: window.upperBound, isCertificateAuthority: ca, extraExtensions: [])
        }
        do throws(CryptoError) {
            let rootKey = try PrivateKey.generateEC(curve: "P-256")
            let intermediateKey = try PrivateKey.generateEC(curve: "P-256")
            let leafKey = try PrivateKey.generateEC(curve: "P-256")
            let root = try Certificate.issue(
                request("Root TEST-ONLY", 1, windows[0], ca: true), subjectKey: rootKey, issuer: nil,
                issuerKey: rootKey, digest: .sha256)
            let intermediate = try Certificate.issue(
                request("Intermediate TEST-ONLY", 2, windows[1], ca: true), subjectKey: intermediateKey,
                issuer: root, issuerKey: rootKey, digest: .sha256)
            let leaf = try Certificate.issue(
                request("Leaf TEST-ONLY", 3, windows[2], ca: false), subjectKey: leafKey, issuer: intermediate,
                issuerKey: intermediateKey, digest: .sha256)
            return (root, intermediate, leaf)
        } catch {
            return nil
        }
    }()
    static let windows: [ClosedRange<Int64>] = [
        1_000_000_000...3_000_000_000, 1_100_000_000...2_500_000_000, 1_200_000_000...2_000_000_000,
    ]

    /// Every evaluation time around every window edge (and between them), in an order that crosses edges back and
    /// forth: each is judged by the cache as OpenSSL judges it afresh, a failure included, however often the chain
    /// came before and whatever the cache held.
    static let times: [Int64] = {
        let edges = windows.flatMap { [$0.lowerBound, $0.upperBound] }.sorted()
        var times = edges.flatMap { edge in [-10, -3, -2, -1, 0, 1, 2, 3, 10].map { edge + $0 } }
        times += zip(edges, edges.dropFirst()).map { ($0 + $1) / 2 } + [900_000_000, 3_100_000_000]
        let ascending = times.sorted()
        return ascending + ascending.reversed() + zip(ascending, ascending.reversed()).flatMap { [$0, $1] }
    }()

    @Test func everyTimeAroundEveryWindowEdgeIsJudgedAsOpenSSLJudgesIt() throws {
        let chain = try #require(Self.nested)
        let cache = ChainVerificationCache(capacity: 8)
        var valid = 0
        for time in Self.times {
            let fresh = ChainVerifier.verify(
                leaf: chain.leaf, intermediates: [chain.intermediate], anchors: [chain.root], at: time)
            let cached = cache.verify(
                leaf: chain.leaf, intermediates: [chain.intermediate], anchors: [chain.root], at: time)
            #expect(cached == fresh, "at \(time): \(cached.errors) vs \(fresh.errors)")
            if fresh.isValid { valid += 1 }
        }
        #expect(valid > 10 && valid < Self.times.count - 10)
        #expect(cache.statistics.hits > 0, "\(cache.statistics)")
    }

    /// Many threads judging the chain at every time at once, through one cache, reach the verdicts judged one at a
    /// time.
    @Test func concurrentJudgementsAgreeWithSerialOnes() throws {
        let chain = try #require(Self.nested)
        let expected = Self.times.map {
            ChainVerifier.verify(leaf: chain.leaf, intermediates: [chain.intermediate], anchors: [chain.root], at: $0)
                .isValid
        }
        let cache = ChainVerificationCache(capacity: 2)
        let disagreements = Mutex([Int64]())
        DispatchQueue.concurrentPerform(iterations: Self.times.count * 4) { index in
            let time = Self.times[index % Self.times.count]
            let verdict = cache.verify(
                leaf: chain.leaf, intermediates: [chain.intermediate], anchors: [chain.root], at: time)
            if verdict.isValid != expected[index % Self.times.count] { disagreements.withLock { $0.append(time) } }
        }
        #expect(disagreements.withLock { $0 }.isEmpty)
        #expect(cache.statistics.hits > 0)
    }
}
