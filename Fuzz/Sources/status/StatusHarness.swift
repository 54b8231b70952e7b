import Foundation
import FuzzResigningMutator
import FuzzSupport
import Rcpt

/// Input bytes (a token, a notification body, an API response: what `jws-verify` reads, from its seeds, with its
/// re-signing mutator) → what the customer owns, through the library a backend adopts
/// (`AppStoreVerifier.entitlements`, the judgement of `rcpt status`), with the TEST-ONLY JWS root as the only root.
/// Oracles: a document that `verify` refuses is never counted and grants nothing (a false "owns" is a false
/// "valid"); a document counted is one `verify` accepts (one input, one judgement); a document left out says why; the
/// same document given twice states nothing more than once (the same products in the same states; checked on one
/// input in four, as it costs two inspections more).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    guard let verifier = StatusHarness.verifier else { Fuzz.fail("status", StatusHarness.problem) }
    let once = verifier.entitlements(of: [bytes], at: StatusHarness.date)
    let counted = !once.notCounted.contains { $0.index == 0 }
    // Counted, or granting anything: verify must accept it (what it refuses is never counted and grants nothing).
    if counted || !once.products.isEmpty {
        do {
            _ = try verifier.verify(bytes)
        } catch {
            Fuzz.fail(
                "status",
                "a document verify refuses (\(error)) was counted: "
                    + "\(once.products.map { "\($0.productId) \($0.state.rawValue)" })", input: bytes)
        }
    }
    if !counted, once.notCounted.first?.reason.isEmpty ?? true {
        Fuzz.fail("status", "a document was left out without a reason", input: bytes)
    }
    // The same document twice (one input in four: it costs two more inspections).
    guard Fuzz.sample(bytes, oneIn: 4) else { return 0 }
    let twice = verifier.entitlements(of: [bytes, bytes], at: StatusHarness.date)
    guard StatusHarness.states(twice) == StatusHarness.states(once) else {
        Fuzz.fail(
            "status",
            "the same document given twice changes the answer: once \(StatusHarness.states(once)), "
                + "twice \(StatusHarness.states(twice))", input: bytes)
    }
    return 0
}

/// What the harness loads once per process.
enum StatusHarness {
    /// The seeds' subscription period holds it: 2024-06-15T00:00:00Z.
    static let date = Date(timeIntervalSince1970: 1_718_409_600)
    static let verifier: AppStoreVerifier? = try? load()

    static var problem: String {
        do {
            _ = try load()
            return "no problem"
        } catch {
            return "cannot make the verifier: \(error); \(ResigningKit.problem)"
        }
    }

    static func load() throws -> AppStoreVerifier {
        guard let keys = ResigningKit.directory,
            let root = FileManager.default.contents(atPath: keys + "/root.pem")
        else { throw CocoaError(.fileNoSuchFile) }
        return try AppStoreVerifier(
            bundleId: "com.example.rcpt.fuzz", appAppleId: nil, environment: .sandbox,
            roots: .certificates([Array(root)]), chainTime: .signed, now: date)
    }

    /// Each product's state and the facts it rests on, without where they stand (which document, at what offset).
    static func states(_ entitlements: CustomerEntitlements) -> [Entitlement] {
        entitlements.products.map { product in
            var bare = product
            bare.evidence = []
            return bare
        }
    }
}
