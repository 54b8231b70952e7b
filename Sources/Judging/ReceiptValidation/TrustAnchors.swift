import Foundation
import ReceiptCrypto
import ReceiptDiagnostics

/// The certificates a chain may end at. Only these are trusted: never a root embedded in a receipt, never one
/// chosen from receipt content.
public struct TrustAnchors: Sendable {
    public var certificates: [Certificate]

    public init(_ certificates: [Certificate]) {
        self.certificates = certificates
    }

    /// The bundled Apple Root CA, the default anchor for App Store receipts.
    public static func appleRoot() throws(CryptoError) -> TrustAnchors {
        TrustAnchors([try bundledAppleRoot()])
    }

    /// The bundled Apple Root CA certificate.
    static func bundledAppleRoot() throws(CryptoError) -> Certificate { try bundledRoot.get() }

    /// The bundled Apple Root CA - G3, the default anchor for Apple's JWS (and only for them).
    package static func appleRootG3() throws(CryptoError) -> TrustAnchors {
        TrustAnchors([try bundledRootG3.get()])
    }

    /// The bundled roots, each decoded once per process, when first asked for (a receipt never decodes G3's twice,
    /// a JWS never Apple Root CA's for its anchors).
    private static let bundledRoot = decoded(AppleRootCertificate.base64DER, "Apple Root CA")
    private static let bundledRootG3 = decoded(AppleRootG3Certificate.base64DER, "Apple Root CA - G3")

    private static func decoded(_ base64: String, _ name: String) -> Result<Certificate, CryptoError> {
        guard let der = Data(base64Encoded: base64) else {
            return .failure(CryptoError(.anchorMissing, message: "the bundled \(name) could not be decoded"))
        }
        return Result { () throws(CryptoError) in try Certificate(derEncoded: [UInt8](der)) }
    }

    /// SHA-256 fingerprints of the bundled Apple root: a receipt may never be signed by it directly, whether it came
    /// in as the default anchor or from a `--root` file.
    var builtInFingerprints: Set<String> { Self.bundledFingerprints }

    private static let bundledFingerprints = Set(
        [bundledRoot, bundledRootG3].compactMap { try? $0.get().sha256Fingerprint })

    /// Every certificate in the given PEM or DER files.
    public static func load(files: [String]) throws(CryptoError) -> TrustAnchors {
        var certificates: [Certificate] = []
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CryptoError(.anchorUnreadable, message: "cannot read the root certificate file \(path)")
            }
            do {
                certificates += try Certificate.load(fileContents: [UInt8](data))
            } catch {
                throw CryptoError(error.kind, message: "\(path): \(error.message)")
            }
        }
        return TrustAnchors(certificates)
    }
}
