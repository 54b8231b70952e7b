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

    /// OpenSSL's method for this algorithm, fetched once per process from the default provider (never nil with it
    /// loaded). `EVP_sha256()` and its kind are fetched again implicitly at every use: about 0.4 µs a digest.
    var evpMD: OpaquePointer? {
        switch self {
        case .sha1: Self.fetchedSHA1
        case .sha224: Self.fetchedSHA224
        case .sha256: Self.fetchedSHA256
        case .sha384: Self.fetchedSHA384
        case .sha512: Self.fetchedSHA512
        }
    }

    // Fetched methods are never freed: they live as long as the process, and OpenSSL may use them from any thread.
    private nonisolated(unsafe) static let fetchedSHA1 = EVP_MD_fetch(nil, "SHA1", nil)
    private nonisolated(unsafe) static let fetchedSHA224 = EVP_MD_fetch(nil, "SHA224", nil)
    private nonisolated(unsafe) static let fetchedSHA256 = EVP_MD_fetch(nil, "SHA256", nil)
    private nonisolated(unsafe) static let fetchedSHA384 = EVP_MD_fetch(nil, "SHA384", nil)
    private nonisolated(unsafe) static let fetchedSHA512 = EVP_MD_fetch(nil, "SHA512", nil)
}
