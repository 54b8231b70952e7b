import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptPKCS7

/// Which SignerInfo signatureAlgorithm values rcpt accepts (RFC 5652 §5.3, RFC 3370, RFC 5754): the algorithm must
/// fit the signer's key and name no other digest than the SignerInfo's digestAlgorithm. For an RSA key,
/// `rsaEncryption` or the `…WithRSAEncryption` OID of that digest (verified as PKCS#1 v1.5); for an EC key, the
/// `ecdsa-with-…` OID of that digest. RSASSA-PSS, DSA, MD5 and unknown OIDs are refused: rcpt would not be
/// checking what the receipt claims.
enum SignatureAlgorithmPolicy {
    /// The key family an OID is for, and the digest it names (nil for plain rsaEncryption).
    static let known: [String: (key: KeyAlgorithm, digest: DigestAlgorithm?)] = [
        "1.2.840.113549.1.1.1": (.rsa, nil),
        "1.2.840.113549.1.1.5": (.rsa, .sha1),
        "1.2.840.113549.1.1.14": (.rsa, .sha224),
        "1.2.840.113549.1.1.11": (.rsa, .sha256),
        "1.2.840.113549.1.1.12": (.rsa, .sha384),
        "1.2.840.113549.1.1.13": (.rsa, .sha512),
        "1.2.840.10045.4.1": (.ec, .sha1),
        "1.2.840.10045.4.3.1": (.ec, .sha224),
        "1.2.840.10045.4.3.2": (.ec, .sha256),
        "1.2.840.10045.4.3.3": (.ec, .sha384),
        "1.2.840.10045.4.3.4": (.ec, .sha512),
    ]

    /// What the policy concluded.
    enum Outcome {
        /// The scheme that will be verified, e.g. "RSA PKCS#1 v1.5 with SHA-256".
        case success(String)
        /// The error finding that stops verification.
        case failure(Finding)
    }

    /// The scheme that will be verified, or the error finding that stops verification.
    static func check(_ algorithm: AlgorithmIdentifier, digest: DigestAlgorithm, key: KeyAlgorithm, place: String)
        -> Outcome
    {
        guard let entry = known[algorithm.oid] else {
            return .failure(
                Finding(
                    .signatureAlgorithmUnsupported, at: algorithm.offset,
                    "\(place): signature algorithm \(algorithm.name) is not one rcpt accepts (RSA PKCS#1 v1.5 or ECDSA with SHA-1 or SHA-2)"
                ))
        }
        guard entry.key == key else {
            return .failure(
                Finding(
                    .signatureAlgorithmKeyMismatch, at: algorithm.offset,
                    "\(place): signature algorithm \(algorithm.name) is for \(entry.key.rawValue) keys, but the signer's key is \(key.rawValue)"
                ))
        }
        if let named = entry.digest, named != digest {
            return .failure(
                Finding(
                    .signatureAlgorithmMismatch, at: algorithm.offset,
                    "\(place): signature algorithm \(algorithm.name) implies \(named.rawValue) but the digest algorithm is \(digest.rawValue)"
                ))
        }
        let family = key == .rsa ? "RSA PKCS#1 v1.5" : "ECDSA"
        return .success("\(family) with \(digest.displayName)")
    }
}
