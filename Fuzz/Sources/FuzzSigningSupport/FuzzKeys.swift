import Foundation
import ReceiptCrypto
import ReceiptMutation
import ReceiptSigning
import ReceiptValidation

/// The committed TEST-ONLY signing material of `Corpus/fuzz/keys/`: the chain the signed seeds use (its root is the
/// `verify` harness's only trust anchor) and, in `foreign/`, the unrelated chain the catalogue's `foreign-ca`
/// mutation signs with. Not secret, not Apple's; never trusted outside tests.
public enum FuzzKeys {
    /// The environment variable naming the keys folder, checked first.
    public static let environmentVariable = "RCPT_FUZZ_KEYS"
    /// The folder beside a harness binary that `.clusterfuzzlite/build.sh` ships the keys in.
    public static let besideBinary = "verify_keys"
    /// The keys folder inside the repository.
    public static let inRepository = "Corpus/fuzz/keys"

    /// Where the keys are: `$RCPT_FUZZ_KEYS`, else `verify_keys/` beside the executable, else `Corpus/fuzz/keys`
    /// in the first folder above the executable (or the current directory) that has one. Nil when none has
    /// `root.pem`.
    public static func locate(executable: String? = executablePath()) -> String? {
        let manager = FileManager.default
        func holdsKeys(_ directory: String) -> Bool { manager.fileExists(atPath: directory + "/root.pem") }
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
            return holdsKeys(named) ? named : nil
        }
        var starts: [URL] = []
        if let executable { starts.append(URL(fileURLWithPath: executable).deletingLastPathComponent()) }
        starts.append(URL(fileURLWithPath: manager.currentDirectoryPath))
        if let directory = starts.first, holdsKeys(directory.appendingPathComponent(besideBinary).path) {
            return directory.appendingPathComponent(besideBinary).path
        }
        for start in starts {
            var directory = start.standardizedFileURL
            while true {
                let candidate = directory.appendingPathComponent(inRepository).path
                if holdsKeys(candidate) { return candidate }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return nil
    }

    /// The environment variable naming the JWS keys folder (an EC chain shaped like Apple's JWS chain).
    public static let jwsEnvironmentVariable = "RCPT_FUZZ_JWS_KEYS"
    /// The folder beside a harness binary that `.clusterfuzzlite/build.sh` ships the JWS keys in.
    public static let jwsBesideBinary = "jws_keys"
    /// The JWS keys folder inside the repository.
    public static let jwsInRepository = "Corpus/fuzz/keys-jws"

    /// Where the JWS keys are, looked for as `locate` looks for the receipt keys.
    public static func locateJWS(executable: String? = executablePath()) -> String? {
        let manager = FileManager.default
        if let named = ProcessInfo.processInfo.environment[jwsEnvironmentVariable], !named.isEmpty {
            return manager.fileExists(atPath: named + "/root.pem") ? named : nil
        }
        guard let receiptKeys = locate(executable: executable) else { return nil }
        let base = URL(fileURLWithPath: receiptKeys).deletingLastPathComponent()
        let candidate =
            receiptKeys.hasSuffix(besideBinary)
            ? base.appendingPathComponent(jwsBesideBinary).path
            : base.appendingPathComponent("keys-jws").path
        return manager.fileExists(atPath: candidate + "/root.pem") ? candidate : nil
    }

    /// The running executable's resolved path (Linux `/proc/self/exe`, else `argv[0]`).
    public static func executablePath() -> String? {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return CommandLine.arguments.first
    }

    /// The mutation kit of `directory`: its chain re-signs, `foreign/` is the untrusted CA, and hashes are computed
    /// for `MutationKit.defaultDeviceID`.
    public static func kit(in directory: String) throws -> MutationKit {
        guard let device = VerifyExpectations.deviceID else {
            throw CryptoError(.keyGenerationFailed, message: "MutationKit.defaultDeviceID does not parse")
        }
        return try MutationKit.load(from: directory, deviceID: device)
    }

    /// The trust anchors the `verify` harness inspects with: the TEST-ONLY root of `directory`, and nothing else.
    public static func anchors(in directory: String) throws -> TrustAnchors {
        try TrustAnchors.load(files: [directory + "/root.pem"])
    }
}
