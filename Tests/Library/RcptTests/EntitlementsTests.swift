import Foundation
import Rcpt
import ReceiptTestSupport
import Testing

/// What a customer owns, in-process: the same decision as `rcpt status`, from documents the verifier verified.
@Suite("AppStoreVerifier entitlements")
struct EntitlementsTests {
    static let documents = [
        "gopay-txn-2000000004047119-sandbox.jws", "gopay-renewal-2000000000842607-sandbox.jws",
        "gopay-notif-DID_RENEW-sandbox.jws", "gopay-txn-510001261072921-production.jws",
    ].map { Fixtures.bytes("Corpus/jws/\($0)") }

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text) ?? .distantPast }

    @Test func aSubscriptionIsActiveInsideItsPeriodAndExpiredAfter() throws {
        let verifier = try AppStoreVerifier(bundleId: "com.audaos.audarecorder", appAppleId: nil, environment: .sandbox)
        let during = verifier.entitlements(of: Self.documents, at: Self.date("2022-03-04T09:45:00Z"))
        let product = during.products.first { $0.productId == "com.audaos.audarecorder.vip.m2" }
        #expect(product?.state == .active)
        #expect(product?.grantsService == true)
        #expect(product?.transactionId == "2000000004047119")
        #expect(product?.autoRenew == true)
        #expect(product?.evidence.first?.document == 0 || product?.evidence.first?.document == 2)
        #expect(during.active.map(\.productId) == ["com.audaos.audarecorder.vip.m2"])

        let after = verifier.entitlements(of: Self.documents, at: Self.date("2022-03-05T00:00:00Z"))
        // Its period ended and nothing about it was signed since: whether it renewed is not known, never granted.
        #expect(after.products.first { $0.productId == "com.audaos.audarecorder.vip.m2" }?.state == .unknown)
        #expect(after.active.isEmpty)
    }

    /// The `status` fuzz harness's seeds (`Corpus/fuzz/status/`) are documents its verifier counts: the harness keeps
    /// no document left out in its corpus, so a seed that stopped counting (a key that expired, a claim a check now
    /// refuses) would be dropped without a word.
    @Test func everySeedOfTheStatusHarnessIsCounted() throws {
        let verifier = try Self.statusHarnessVerifier()
        let folder = Fixtures.url("Corpus/fuzz/status")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count >= 17)
        for name in names {
            let status = verifier.entitlements(
                of: [Fixtures.bytes("Corpus/fuzz/status/\(name)")], at: Self.date("2024-06-15T00:00:00Z"))
            #expect(status.notCounted.isEmpty, "\(name): \(status.notCounted.map(\.reason))")
        }
    }

    /// The `status` fuzz harness's verifier: its TEST-ONLY root, app and time.
    static func statusHarnessVerifier() throws -> AppStoreVerifier {
        try AppStoreVerifier(
            bundleId: "com.example.rcpt.fuzz", appAppleId: nil, environment: .sandbox,
            roots: .certificates([Fixtures.bytes("Corpus/fuzz/keys-jws/root.pem")]), chainTime: .signed,
            now: date("2024-06-15T00:00:00Z"))
    }

    /// The `status` harness's oracles over its saved regressions: a document counted is one whose inspection is
    /// valid, and one that grants anything is one `verify` accepts.
    @Test func theStatusHarnessRegressionsKeepItsOracles() throws {
        let verifier = try Self.statusHarnessVerifier()
        let folder = Fixtures.url("Corpus/regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("status-") }
        #expect(!names.isEmpty)
        for name in names {
            let bytes = Fixtures.bytes("Corpus/regressions/\(name)")
            let status = verifier.entitlements(of: [bytes], at: Self.date("2024-06-15T00:00:00Z"))
            if status.notCounted.isEmpty { #expect(verifier.inspect(bytes).isValid, "\(name)") }
            if !status.products.isEmpty { #expect(throws: Never.self, "\(name)") { try verifier.verify(bytes) } }
        }
    }

    /// A genuine notification inside a signed payload of no kind Apple signs (a fuzzer's find): `verify` refuses it,
    /// so what a customer owns takes nothing from it — it is counted, stating nothing, as a payload of no kind is.
    @Test func aTokenCarriedByAPayloadOfNoKindGrantsNothing() throws {
        let verifier = try Self.statusHarnessVerifier()
        let bytes = Fixtures.bytes("Corpus/regressions/status-notification-in-a-payload-of-no-kind.bin")
        #expect(throws: VerificationFailure.self) { try verifier.verify(bytes) }
        let status = verifier.entitlements(of: [bytes], at: Self.date("2024-06-15T00:00:00Z"))
        #expect(status.products.isEmpty)
        #expect(status.notCounted.isEmpty)
    }

    @Test func anotherAppsDocumentIsNotCounted() throws {
        let verifier = try AppStoreVerifier(bundleId: "com.audaos.audarecorder", appAppleId: nil, environment: .sandbox)
        let status = verifier.entitlements(of: Self.documents, at: Self.date("2022-03-04T09:45:00Z"))
        #expect(status.notCounted.map(\.index) == [3])
        #expect(!status.products.contains { $0.productId == "com.keysns.JR1200" })
    }
}
