import FuzzSigningSupport
import ReceiptCrypto
import ReceiptMutation

/// The TEST-ONLY JWS chain of `Corpus/fuzz/keys-jws/` (`RCPT_FUZZ_JWS_KEYS`, or `jws_keys/` beside the binary): what
/// the harnesses that verify tokens re-sign their edits with and trust. Loaded once per process.
public enum ResigningKit {
    public static let shared: MutationKit? = try? load()

    /// The folder the kit was loaded from.
    public static let directory: String? = FuzzKeys.locateJWS()

    /// Why the kit did not load, for a harness's failure message.
    public static var problem: String {
        do {
            _ = try load()
            return "no problem"
        } catch {
            return
                "cannot load the TEST-ONLY JWS keys: \(error) (set \(FuzzKeys.jwsEnvironmentVariable) to Corpus/fuzz/keys-jws)"
        }
    }

    static func load() throws -> MutationKit {
        guard let directory else {
            throw CryptoError(
                .keyDecodeFailed,
                message: "no folder with root.pem in $\(FuzzKeys.jwsEnvironmentVariable), "
                    + "\(FuzzKeys.jwsBesideBinary)/ beside the binary or \(FuzzKeys.jwsInRepository) above it")
        }
        return try MutationKit.load(from: directory, deviceID: [])
    }
}
