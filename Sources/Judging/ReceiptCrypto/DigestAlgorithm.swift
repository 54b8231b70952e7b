import COpenSSL

/// A hash function from the SHA-1 and SHA-2 families, as named in receipts and certificates.
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    /// SHA-1 (20 bytes); still used by Apple certificates and receipts from 2006–2016.
    case sha1
    /// SHA-224 (28 bytes).
    case sha224
    /// SHA-256 (32 bytes).
    case sha256
    /// SHA-384 (48 bytes).
    case sha384
    /// SHA-512 (64 bytes).
    case sha512

    /// The algorithm whose digest-algorithm OID (dotted decimal) is `oid`, or nil for any other OID.
    public init?(oid: String) {
        guard let match = DigestAlgorithm.allCases.first(where: { $0.oid == oid }) else {
            return nil
        }
        self = match
    }

    /// The digest-algorithm OID in dotted decimal, as it appears in a PKCS#7 `digestAlgorithms` set.
    public var oid: String {
        switch self {
        case .sha1: "1.3.14.3.2.26"
        case .sha224: "2.16.840.1.101.3.4.2.4"
        case .sha256: "2.16.840.1.101.3.4.2.1"
        case .sha384: "2.16.840.1.101.3.4.2.2"
        case .sha512: "2.16.840.1.101.3.4.2.3"
        }
    }

    /// The name as standards write it: "SHA-1", "SHA-256".
    package var displayName: String {
        switch self {
        case .sha1: "SHA-1"
        case .sha224: "SHA-224"
        case .sha256: "SHA-256"
        case .sha384: "SHA-384"
        case .sha512: "SHA-512"
        }
    }

    /// Length of the digest in bytes.
    package var outputLength: Int {
        switch self {
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// OpenSSL's built-in method for this algorithm (never nil with the default provider loaded).
    var evpMD: OpaquePointer? {
        switch self {
        case .sha1: EVP_sha1()
        case .sha224: EVP_sha224()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
    }
}
