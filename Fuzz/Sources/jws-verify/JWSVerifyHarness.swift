import FuzzResigningMutator
import FuzzSigningSupport
import FuzzSupport
import ReceiptCrypto
import ReceiptJWS
import ReceiptMutation
import ReceiptSigning
import ReceiptValidation

/// Input bytes → `JWSInspector.inspect` with the TEST-ONLY JWS root of `Corpus/fuzz/keys-jws/` as the only anchor,
/// an expected bundle id and a fixed "now": the whole `rcpt verify` path for JWS. Its custom mutator
/// (`JWSVerifyMutator`) re-signs what it changes with the TEST-ONLY EC key, so most inputs pass the signature check
/// and reach the chain, claim and nesting checks. Oracles: a valid verdict means every token (nested ones too) has
/// alg ES256, a 64-octet signature that verifies, a valid chain to the test root, no duplicate names, and the
/// expected bundle id; a token whose payload or header changed without re-signing is never valid.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    guard let setup = JWSVerifySetup.shared else { Fuzz.fail("jws-verify", JWSVerifySetup.problem) }
    let inspection = JWSInspector.inspect(bytes, options: setup.options)
    guard inspection.isValid else { return 0 }
    var pending = inspection.tokens
    while let verification = pending.popLast() {
        let token = verification.token
        func fail(_ why: String) -> Never {
            Fuzz.fail("jws-verify", "a valid verdict on a token at '\(verification.path)' that \(why)", input: bytes)
        }
        if token.algorithm != "ES256" { fail("does not say ES256") }
        if token.signature.count != 64 || verification.signature != .valid { fail("has no verified signature") }
        if verification.chain?.chain != .valid { fail("has no valid chain") }
        if token.header?.duplicateKeys.isEmpty == false || token.payload?.duplicateKeys.isEmpty == false
            || token.header?.caseFoldedDuplicateKeys.isEmpty == false
            || token.payload?.caseFoldedDuplicateKeys.isEmpty == false
        {
            fail("names a member twice")
        }
        // Where this kind carries a bundleId (renewal info does not: its carrier binds it).
        if verification.binding.carriesBundleID, verification.binding.bundleID?.text != JWSVerifySetup.bundleID {
            fail("names another bundle id")
        }
        if let signer = verification.signer,
            !setup.chain.contains(where: { $0.sha256Fingerprint == signer.sha256Fingerprint })
        {
            fail("is signed by a certificate outside the test chain")
        }
        pending += verification.nested
    }
    return 0
}

/// What the harness loads once per process.
struct JWSVerifySetup: Sendable {
    static let bundleID = "com.example.rcpt.fuzz"
    /// 2030-01-01T00:00:00Z.
    static let now: Int64 = 1_893_456_000

    let kit: MutationKit
    let options: InspectionOptions
    var chain: [Certificate] { kit.authority.embeddedChain }

    static let shared: JWSVerifySetup? = try? load()

    static var problem: String { ResigningKit.problem }

    static func load() throws -> JWSVerifySetup {
        guard let kit = ResigningKit.shared, let keys = ResigningKit.directory else {
            throw CryptoError(.keyDecodeFailed, message: ResigningKit.problem)
        }
        let options = InspectionOptions(
            anchors: try FuzzKeys.anchors(in: keys), time: .signed,
            expectations: Expectations(bundleID: bundleID), now: now)
        return JWSVerifySetup(kit: kit, options: options)
    }
}
