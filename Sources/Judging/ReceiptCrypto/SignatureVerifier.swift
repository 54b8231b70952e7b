import COpenSSL

/// Verification of RSA PKCS#1 v1.5 and ECDSA signatures against a certificate's public key.
public enum SignatureVerifier {
    /// Verifies `signature` over the concatenation of `message` with the certificate's public key and `digest`
    /// (RSA PKCS#1 v1.5 for RSA keys, ECDSA for EC keys): the message hashed, then verified as
    /// `verify(signature:digestValue:digest:certificate:)` verifies.
    /// Never throws: a malformed signature or key is `.invalid` with a reason; an unknown key type is `.unsupported`.
    public static func verify(
        signature: ArraySlice<UInt8>,
        over message: [ArraySlice<UInt8>],
        digest: DigestAlgorithm,
        certificate: Certificate
    ) -> SignatureCheck {
        whenUsable(certificate, signature) {
            switch Digest.compute(message, algorithm: digest) {
            case .success(let digestValue):
                return verified(signature, digestValue: digestValue, digest: digest, certificate: certificate)
            case .failure(let error):
                return .invalid(reason: "cannot hash the signed message: \(error.message)")
            }
        }
    }

    /// Verifies `signature` over a message whose `digest` hash is `digestValue` (computed once by the caller and
    /// shared by every signer that hashes the same content): RSA PKCS#1 v1.5 (the DigestInfo is checked) for RSA
    /// keys, ECDSA for EC keys. Never throws, like `verify(signature:over:digest:certificate:)`.
    public static func verify(
        signature: ArraySlice<UInt8>,
        digestValue: [UInt8],
        digest: DigestAlgorithm,
        certificate: Certificate
    ) -> SignatureCheck {
        whenUsable(certificate, signature) {
            verified(signature, digestValue: digestValue, digest: digest, certificate: certificate)
        }
    }

    /// The verification of a digest, with a context the certificate keeps for its key (`VerificationContexts`).
    private static func verified(
        _ signature: ArraySlice<UInt8>, digestValue: [UInt8], digest: DigestAlgorithm, certificate: Certificate
    ) -> SignatureCheck {
        guard digestValue.count == digest.outputLength,
            let result = certificate.verificationContexts.verify(
                digest: digest,
                { context in
                    signature.withUnsafeBufferPointer { signatureBuffer in
                        digestValue.withUnsafeBufferPointer { digestBuffer in
                            EVP_PKEY_verify(
                                context, signatureBuffer.baseAddress, signatureBuffer.count, digestBuffer.baseAddress,
                                digestBuffer.count)
                        }
                    }
                })
        else {
            return .invalid(reason: reason("cannot set up verification with \(digest.rawValue)"))
        }
        return outcome(result)
    }

    /// Runs `body` when the certificate has an RSA or EC key and there is a signature, the certificate kept alive and
    /// OpenSSL's error queue cleared before and after; else the check that stops verification before it starts
    /// (before any hashing).
    private static func whenUsable(
        _ certificate: Certificate, _ signature: ArraySlice<UInt8>, _ body: () -> SignatureCheck
    ) -> SignatureCheck {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        return withExtendedLifetime(certificate) {
            switch usableKey(certificate.x509, certificate.keyAlgorithm, signature: signature) {
            case .success: return body()
            case .failure(let refusal): return refusal.check
            }
        }
    }

    /// The certificate's RSA or EC key (`keyAlgorithm`, read when the certificate was decoded), or the check that
    /// stops verification before it starts.
    private static func usableKey(_ x509: OpaquePointer, _ keyAlgorithm: KeyAlgorithm, signature: ArraySlice<UInt8>)
        -> Result<OpaquePointer, SignatureCheckRefusal>
    {
        guard let key = X509_get0_pubkey(x509) else {
            return .failure(SignatureCheckRefusal(keyFailure(x509)))
        }
        guard keyAlgorithm != .other else {
            return .failure(
                SignatureCheckRefusal(
                    .unsupported(
                        reason: "\(PublicKeyDescription.describe(key)) keys are not supported (RSA or EC only)")))
        }
        guard !signature.isEmpty else {
            return .failure(SignatureCheckRefusal(.invalid(reason: "the signature is empty")))
        }
        return .success(key)
    }

    /// The check for an OpenSSL verify result: 1 valid, 0 a mismatch, anything else a malformed signature.
    private static func outcome(_ result: Int32) -> SignatureCheck {
        switch result {
        case 1: return .valid
        case 0: return .invalid(reason: reason("signature does not match the message and public key"))
        default: return .invalid(reason: reason("signature is malformed"))
        }
    }

    /// Why a certificate's public key could not be decoded: `.invalid` for a known algorithm, else `.unsupported`.
    private static func keyFailure(_ x509: OpaquePointer) -> SignatureCheck {
        var object: OpaquePointer?
        if let publicKey = X509_get_X509_PUBKEY(x509) {
            X509_PUBKEY_get0_param(&object, nil, nil, nil, publicKey)
        }
        let oid = ObjectName.dotted(object) ?? "unknown"
        let name = ObjectName.longName(object, dotted: oid)
        if let object, [NID_rsaEncryption, NID_X9_62_id_ecPublicKey].contains(OBJ_obj2nid(object)) {
            return .invalid(reason: reason("the certificate's \(name) public key is malformed"))
        }
        return .unsupported(reason: reason("public key algorithm \(name) is not supported (RSA or EC only)"))
    }

    /// `message` followed by what the drained OpenSSL error queue means, and its raw entries (see OpenSSLErrorText).
    private static func reason(_ message: String) -> String {
        OpenSSLErrorText.annotate(message, OpenSSLErrorQueue.drain())
    }
}

/// A check that ends verification before it starts (no usable key, an empty signature), carried through `Result`.
struct SignatureCheckRefusal: Error {
    let check: SignatureCheck

    init(_ check: SignatureCheck) { self.check = check }
}
