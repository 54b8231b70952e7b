import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// One embedded certificate: where it is, and what OpenSSL decoded from it (or why it could not).
public struct CertificateReport: Sendable {
    public var embedded: EmbeddedCertificate
    public var certificate: Certificate?
    package var decodeError: CryptoError?
}

/// The signature and chain verdicts in the shape of `rcpt.dump/1`'s `verification` object.
public struct VerificationSummary: Sendable {
    public enum SignatureStatus: String, Sendable { case valid, invalid, unsupported }
    public enum ChainStatus: String, Sendable { case valid, invalid, unchecked }

    public var signature: SignatureStatus
    public var chain: ChainStatus
    /// Subject of the trusted root the chain ends at, when it verifies.
    package var anchor: String?
    /// The instant (unix seconds) the chain and expiry were evaluated at.
    package var evaluatedAt: Int64
    /// Where that instant came from.
    package var evaluatedAtSource: TimeSource = .creationDate

    /// Where an evaluation time came from.
    package enum TimeSource: String, Sendable {
        case creationDate = "creation-date"
        case now
        case given
        case nowForWantOfCreationDate = "now-no-creation-date"
        /// A JWS payload's `signedDate` (`receiptCreationDate` for an app transaction; a nested token's
        /// `signedDate` for a notification that has none).
        case signedDate = "signed-date"
        case nowForWantOfSignedDate = "now-no-signed-date"

        init(_ time: EvaluationTime) {
            switch time {
            case .signed: self = .creationDate
            case .now: self = .now
            case .date: self = .given
            }
        }

        /// How the text output says it.
        package var phrase: String {
            switch self {
            case .creationDate: return "the receipt's creation date"
            case .now: return "now"
            case .given: return "the time given with --at"
            case .nowForWantOfCreationDate: return "now, for want of a creation date"
            case .signedDate: return "the payload's signedDate"
            case .nowForWantOfSignedDate: return "now, for want of a signedDate"
            }
        }
    }
    /// Subjects of the chain as built, leaf first.
    public var path: [String]
    public var errors: [String]
}

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

/// Everything rcpt knows about one input: the receipt as read, its certificates, signature and chain verdicts,
/// content checks, and every finding. The single source for `dump` and `verify` output.
public struct Inspection: Sendable {
    public var input: InputSummary
    /// Set when the input held no receipt bytes at all (empty, not base64, a legacy receipt…).
    package var inputError: InputError?
    public var receipt: Receipt?
    public var certificates: [CertificateReport]
    public var signers: [SignerVerification]
    public var verification: VerificationSummary?
    public var findings: [Finding]
    /// What the verdict was bound to by the caller's expectations; nil when the receipt could not be read.
    public var binding: BindingScope? = nil

    /// The error that stopped reading, if any (input, container or payload).
    public var readError: ReceiptReadError? {
        if let inputError { return ReceiptReadError(input: inputError) }
        return receipt?.error
    }

    /// Whether the receipt is valid: it was read completely and no finding is an error.
    public var isValid: Bool { readError == nil && !findings.contains { $0.severity == .error } }

    /// The inspection of an input refused before any reader saw it (nothing found in it, or more than one thing).
    package static func refused(_ input: InputSummary, _ error: InputError, findings: [Finding] = []) -> Inspection {
        Inspection(input: input, inputError: error, receipt: nil, certificates: [], signers: [], verification: nil,
                   findings: findings)
    }
}

extension Inspection: CustomStringConvertible {
    /// A one-line summary: verdict, verification and error-level findings.
    public var description: String {
        let errors = findings.filter { $0.severity == .error }.map(\.code)
        let signature = verification?.signature.rawValue ?? "-"
        let chain = verification?.chain.rawValue ?? "-"
        let read = readError.map { " read error: \($0.code) at \($0.offset)" } ?? ""
        return "Inspection(valid: \(isValid), signature: \(signature), chain: \(chain), errors: \(errors)\(read))"
    }
}
