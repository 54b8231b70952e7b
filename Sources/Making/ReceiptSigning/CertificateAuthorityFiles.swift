import Foundation
import ReceiptCrypto
import ReceiptDiagnostics

/// Saves and loads a TEST-ONLY CA as PEM files usable by the OpenSSL CLI: `root.pem`, `intermediate.pem` (Apple
/// shape only), `leaf.pem`, `leaf.key`, plus `root.key` and `intermediate.key` for issuing more certificates.
public enum CertificateAuthorityFiles {
    package static let fileNames = [
        "root.pem", "root.key", "intermediate.pem", "intermediate.key", "leaf.pem",
        "leaf.key", "README.txt",
    ]

    /// The folder inside a CA directory holding a second, unrelated TEST-ONLY chain: the "foreign" CA that
    /// mutation suites sign with to prove a validator does not trust any CA but its own.
    public static let foreignFolder = "foreign"

    /// Writes `authority` into `directory` (created if needed). Refuses to replace existing files unless `force`.
    public static func write(_ authority: TestCertificateAuthority, to directory: String, force: Bool)
        throws(CryptoError)
    {
        var files: [(String, String)] = [
            ("root.pem", authority.root.pemEncoded), ("root.key", authority.rootKey.pemEncoded),
            ("leaf.pem", authority.leaf.pemEncoded), ("leaf.key", authority.leafKey.pemEncoded),
        ]
        if let intermediate = authority.intermediate, let key = authority.intermediateKey {
            files += [("intermediate.pem", intermediate.pemEncoded), ("intermediate.key", key.pemEncoded)]
        }
        files.append(
            (
                "README.txt",
                """
                TEST-ONLY certificate authority made by `rcpt ca init`. These keys are not secret and not Apple's:
                never trust them outside tests. Verify receipts signed with it using `--root \(directory)/root.pem`.

                """
            ))
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CryptoError(.caWriteFailed, message: "cannot create \(directory): \(error.localizedDescription)")
        }
        if !force {
            for (name, _) in files where manager.fileExists(atPath: directory + "/" + name) {
                throw CryptoError(
                    .caExists,
                    message: "\(directory)/\(name) exists; use --force to replace the CA in \(directory)")
            }
        }
        for (name, contents) in files {
            let path = directory + "/" + name
            let permissions = name.hasSuffix(".key") ? 0o600 : 0o644
            guard
                manager.createFile(
                    atPath: path, contents: Data(contents.utf8),
                    attributes: [.posixPermissions: permissions])
            else {
                throw CryptoError(.caWriteFailed, message: "cannot write \(path)")
            }
        }
    }

    /// Loads a CA written by `write`. The leaf and its key are required; the intermediate is optional.
    public static func load(from directory: String) throws(CryptoError) -> TestCertificateAuthority {
        func read(_ name: String) -> [UInt8]? {
            FileManager.default.contents(atPath: directory + "/" + name).map { [UInt8]($0) }
        }
        func certificate(_ name: String) throws(CryptoError) -> Certificate {
            guard let bytes = read(name) else {
                throw CryptoError(.caUnreadable, message: "cannot read \(directory)/\(name)")
            }
            guard let first = try Certificate.load(fileContents: bytes).first else {
                throw CryptoError(.caUnreadable, message: "\(directory)/\(name) holds no certificate")
            }
            return first
        }
        func key(_ name: String) throws(CryptoError) -> PrivateKey {
            guard let bytes = read(name) else {
                throw CryptoError(.caUnreadable, message: "cannot read \(directory)/\(name)")
            }
            return try PrivateKey(pemEncoded: bytes)
        }
        let leaf = try certificate("leaf.pem")
        let leafKey = try key("leaf.key")
        let root = read("root.pem") != nil ? try certificate("root.pem") : leaf
        let rootKey = read("root.key") != nil ? try key("root.key") : leafKey
        let intermediate = read("intermediate.pem") != nil ? try certificate("intermediate.pem") : nil
        let intermediateKey = read("intermediate.key") != nil ? try key("intermediate.key") : nil
        return TestCertificateAuthority(
            root: root, rootKey: rootKey, intermediate: intermediate,
            intermediateKey: intermediateKey, leaf: leaf, leafKey: leafKey)
    }
}
