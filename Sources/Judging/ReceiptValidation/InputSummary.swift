import ReceiptASN1
import ReceiptCrypto

/// Where the input came from and how it was wrapped.
public struct InputSummary: Sendable {
    package var size: Int
    package var sha256: String
    /// `der`, `ber`, `base64`, `json-request` or `pem` (`verifyreceipt-response` for a response `rcpt diff` reads).
    package var format: String

    /// `bytes` as read in `format`; their SHA-256 unless `digested` is false (text output that never shows it).
    package init(of bytes: [UInt8], format: String, digested: Bool = true) {
        self.init(size: bytes.count, sha256: digested ? Self.sha256(of: bytes) : "not computed", format: format)
    }

    /// `sha256`: the input's SHA-256 in hex, as `sha256(of:)` computes it (another thread may have).
    package init(size: Int, sha256: String, format: String) {
        self.size = size
        self.sha256 = sha256
        self.format = format
    }

    /// The SHA-256 of `bytes` in hex, or "unavailable" when OpenSSL cannot compute it.
    package static func sha256(of bytes: [UInt8]) -> String {
        (try? Digest.hash(bytes, algorithm: .sha256)).map { ASN1Primitives.hex($0) } ?? "unavailable"
    }
}
