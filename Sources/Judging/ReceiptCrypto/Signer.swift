import COpenSSL
import ReceiptDiagnostics

/// Creation of RSA PKCS#1 v1.5 and ECDSA signatures, for building test receipts.
package enum Signer {
    /// RSA PKCS#1 v1.5 (or ECDSA) signature over the concatenation of `message`.
    package static func sign(
        _ message: [ArraySlice<UInt8>],
        digest: DigestAlgorithm,
        key: PrivateKey
    ) throws(CryptoError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        return try withExtendedLifetime(key) { () throws(CryptoError) -> [UInt8] in
            try sign(message, digest: digest, pkey: key.pkey)
        }
    }

    private static func sign(
        _ message: [ArraySlice<UInt8>],
        digest: DigestAlgorithm,
        pkey: OpaquePointer
    ) throws(CryptoError) -> [UInt8] {
        guard EVP_PKEY_is_a(pkey, "RSA") == 1 || EVP_PKEY_is_a(pkey, "EC") == 1 else {
            throw CryptoError(
                .signingFailed,
                message: "only RSA and EC keys can sign (RSA PKCS#1 v1.5 or ECDSA)"
            )
        }
        guard let md = digest.evpMD, let context = EVP_MD_CTX_new() else {
            throw .openSSL(.signingFailed, "cannot create a signing context")
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, md, nil, pkey) == 1 else {
            throw .openSSL(.signingFailed, "EVP_DigestSignInit failed for \(digest.rawValue)")
        }
        for part in message where !part.isEmpty {
            let updated = part.withUnsafeBytes { buffer in
                EVP_DigestSignUpdate(context, buffer.baseAddress, buffer.count)
            }
            guard updated == 1 else {
                throw .openSSL(.signingFailed, "EVP_DigestSignUpdate failed")
            }
        }
        var length = 0
        guard EVP_DigestSignFinal(context, nil, &length) == 1, length > 0 else {
            throw .openSSL(.signingFailed, "cannot determine the signature length")
        }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = signature.withUnsafeMutableBufferPointer { buffer in
            EVP_DigestSignFinal(context, buffer.baseAddress, &length)
        }
        guard signed == 1, length <= signature.count else {
            throw .openSSL(.signingFailed, "EVP_DigestSignFinal failed")
        }
        return Array(signature.prefix(length))
    }
}
