/// The outcome of verifying one signature.
public enum SignatureCheck: Sendable, Equatable {
    /// The signature matches the message and the certificate's public key.
    case valid
    /// The signature does not match, or the signature or key is malformed; `reason` says which.
    case invalid(reason: String)
    /// The certificate's key type cannot be used for this kind of signature (neither RSA nor EC).
    case unsupported(reason: String)
}
