import Foundation
import FuzzResigningMutator
import FuzzSupport
import Rcpt

/// Input bytes (a token, a notification body, an API response: what `jws-verify` reads, from its seeds, with its
/// re-signing mutator) → what the customer owns, through the library a backend adopts
/// (`AppStoreVerifier.entitlements`, the judgement of `rcpt status`), with the TEST-ONLY JWS root as the only root.
/// Oracles: a document counted is one whose inspection is valid, and one that grants anything is one `verify` accepts
/// (a false "owns" is a false "valid"); a document left out says why; the same document given twice states nothing
/// more than once (the same products in the same states, resting on the same transactions and dates; checked on one
/// input in four, as it costs two inspections more). A document left out is not kept in the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    guard let verifier = StatusHarness.verifier else { Fuzz.fail("status", StatusHarness.problem) }
    let once = verifier.entitlements(of: [bytes], at: StatusHarness.date)
    let counted = !once.notCounted.contains { $0.index == 0 }
    // Counted: its inspection is valid (a valid payload of no kind Apple signs is counted too, stating nothing, and
    // `verify` has no model for it). Granting anything: `verify` accepts it.
    if counted, !verifier.inspect(bytes).isValid {
        Fuzz.fail("status", "a document whose inspection is not valid was counted", input: bytes)
    }
    if !once.products.isEmpty {
        do {
            _ = try verifier.verify(bytes)
        } catch {
            Fuzz.fail(
                "status",
                "a document verify refuses (\(error)) grants "
                    + "\(once.products.map { "\($0.productId) \($0.state.rawValue)" })", input: bytes)
        }
    }
    if !counted, once.notCounted.first?.reason.isEmpty ?? true {
        Fuzz.fail("status", "a document was left out without a reason", input: bytes)
    }
    // The same document twice (one input in four: it costs two more inspections).
    if Fuzz.sample(bytes, oneIn: 4) {
        let twice = verifier.entitlements(of: [bytes, bytes], at: StatusHarness.date)
        guard StatusHarness.states(twice) == StatusHarness.states(once) else {
            Fuzz.fail(
                "status",
                "the same document given twice changes the answer: once \(StatusHarness.states(once)), "
                    + "twice \(StatusHarness.states(twice))", input: bytes)
        }
    }
    // A document left out is judged (above) but not kept in the corpus (libFuzzer's -1): what is left out stops at
    // the verdict, which jws-verify fuzzes, so mutations here go to documents whose meaning is resolved.
    return counted ? 0 : -1
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

    /// Each product's judgement: its state, whether it grants service, the transaction it rests on and its dates
    /// (not the wording of its reason, nor where its facts stand: a fact with no transaction id is kept per document,
    /// so a consumable's refunded units given twice are counted twice in the reason's text).
    static func states(_ entitlements: CustomerEntitlements) -> [String] {
        entitlements.products.map { product in
            [
                product.productId, product.state.rawValue, String(product.grantsService),
                product.transactionId ?? "-", product.expiresDate.map { "\($0.timeIntervalSince1970)" } ?? "-",
                product.revocationDate.map { "\($0.timeIntervalSince1970)" } ?? "-",
            ].joined(separator: " ")
        }
    }
}
