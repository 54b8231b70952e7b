import COpenSSL
import ReceiptDiagnostics

/// An owned OpenSSL private key (`EVP_PKEY`), used to sign test receipts and issue test certificates.
///
/// Immutable after init, so it is safe to share across threads.
public final class PrivateKey: @unchecked Sendable {
    /// The owned OpenSSL key; freed in deinit.
    let pkey: OpaquePointer

    /// The key as unencrypted PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----").
    package let pemEncoded: String
    /// "RSA 2048", "EC 256 (prime256v1)", "Ed25519", or "unknown".
    package let publicKeyDescription: String

    /// Decodes an unencrypted PEM private key: PKCS#8 "PRIVATE KEY" or traditional "RSA PRIVATE KEY".
    ///
    /// Encrypted keys are rejected (never prompts for a passphrase).
    package convenience init(pemEncoded: [UInt8]) throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let decoded = try MemoryBIO.reading(pemEncoded) { bio throws(CryptoError) in
            // A passphrase callback that supplies nothing, so encrypted keys fail instead of prompting on a terminal.
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let decoded, let key = decoded else {
            throw .openSSL(.keyDecodeFailed, "bytes are not an unencrypted PEM private key")
        }
        try self.init(taking: key)
    }

    /// Takes ownership of `key`, freeing it if the PEM encoding cannot be produced.
    private init(taking key: OpaquePointer) throws(CryptoError) {
        let pem = MemoryBIO.collect { bio in
            PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1
        }
        guard let pem else {
            EVP_PKEY_free(key)
            throw .openSSL(.keyEncodeFailed, "cannot encode the private key as PKCS#8 PEM")
        }
        self.pkey = key
        self.pemEncoded = String(decoding: pem, as: UTF8.self)
        self.publicKeyDescription = PublicKeyDescription.describe(key)
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// Generates a new RSA key pair with public exponent 65537.
    package static func generateRSA(bits: Int) throws(CryptoError) -> PrivateKey {
        guard let bitCount = Int32(exactly: bits), bitCount >= 512, bitCount <= 16_384 else {
            throw CryptoError(.keyGenerationFailed, message: "RSA key size \(bits) is outside 512...16384")
        }
        return try generate("RSA", described: "RSA-\(bits)") { EVP_PKEY_CTX_set_rsa_keygen_bits($0, bitCount) }
    }

    /// Generates a new EC key pair on the named curve (`P-256`, `P-384`).
    package static func generateEC(curve: String) throws(CryptoError) -> PrivateKey {
        guard ["P-256", "P-384", "P-521"].contains(curve) else {
            throw CryptoError(.keyGenerationFailed, message: "EC curve \(curve) is not P-256, P-384 or P-521")
        }
        return try generate("EC", described: "EC \(curve)") { EVP_PKEY_CTX_set_group_name($0, curve) }
    }

    /// Generates a key of OpenSSL's `algorithm`, its parameters set by `configure` (which returns OpenSSL's 1 on
    /// success).
    private static func generate(
        _ algorithm: String, described: String,
        configure: (OpaquePointer) -> Int32
    ) throws(CryptoError) -> PrivateKey {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw .openSSL(.keyGenerationFailed, "cannot create an \(algorithm) key generation context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, configure(context) == 1, EVP_PKEY_generate(context, &key) == 1,
            let key
        else {
            throw .openSSL(.keyGenerationFailed, "\(described) key generation failed")
        }
        return try PrivateKey(taking: key)
    }
}
