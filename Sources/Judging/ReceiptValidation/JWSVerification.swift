import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJWS

/// The verdict on one JWS and, recursively, on the JWS nested in its payload.
public struct JWSVerification: Sendable {
    /// Where the token is: `""` for the input's own, `data.signedTransactionInfo` for a nested one.
    public var path: String
    /// Where the token's characters start in what holds it (the file, or the parent's decoded payload).
    public var offset: Int
    public var token: JWSToken
    /// The kind of payload, and the app and environment it is bound to (where Apple's verifier reads them).
    public var binding: JWSBinding
    /// The x5c certificates in order, decoded (or why not).
    package var certificates: [Result<Certificate, CryptoError>]
    /// `valid`, `invalid` or `unsupported` (an algorithm rcpt does not verify).
    public var signature: VerificationSummary.SignatureStatus
    public var chain: VerificationSummary?
    public var findings: [Finding]
    public var nested: [JWSVerification]

    /// No error of its own, and every nested token valid.
    public var isValid: Bool { !findings.contains { $0.severity == .error } && nested.allSatisfy(\.isValid) }

    /// The signing certificate (x5c's first), when it decodes.
    public var signer: Certificate? { try? certificates.first?.get() }
}
