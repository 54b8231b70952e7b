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
    static func bundledAppleRoot() throws(CryptoError) -> Certificate {
        guard let der = Data(base64Encoded: AppleRootCertificate.base64DER) else {
            throw CryptoError(.anchorMissing, message: "the bundled Apple Root CA could not be decoded")
        }
        return try Certificate(derEncoded: [UInt8](der))
    }

    /// The bundled Apple Root CA - G3, the default anchor for Apple's JWS (and only for them).
    package static func appleRootG3() throws(CryptoError) -> TrustAnchors {
        guard let der = Data(base64Encoded: AppleRootG3Certificate.base64DER) else {
            throw CryptoError(.anchorMissing, message: "the bundled Apple Root CA - G3 could not be decoded")
        }
        return TrustAnchors([try Certificate(derEncoded: [UInt8](der))])
    }

    /// SHA-256 fingerprints of the bundled Apple root: a receipt may never be signed by it directly, whether it came
    /// in as the default anchor or from a `--root` file.
    var builtInFingerprints: Set<String> { Self.bundledFingerprints }

    private static let bundledFingerprints = Set([(try? bundledAppleRoot())?.sha256Fingerprint,
                                                  (try? appleRootG3())?.certificates.first?.sha256Fingerprint]
        .compactMap { $0 })

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
