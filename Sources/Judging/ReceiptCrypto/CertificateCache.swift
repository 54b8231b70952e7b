import ReceiptCaching

/// Certificates decoded once per distinct encoding, for the whole process: every token of an App Store era carries the
/// same two or three certificates and every receipt of an era the same chain, and decoding one with OpenSSL 3 (its
/// public key through the provider machinery) costs more than verifying a token's own signature. Bounded (the least
/// recently used forgotten), thread safe. A `Certificate`'s fields are entirely derived from its bytes (the key it
/// keeps set up for verification gives every signature the verdict a fresh one would), so the one decoded earlier is
/// the one decoding would give: sharing it changes nothing a reader sees. A failure is never kept (the next decode
/// fails again, with the same error).
package final class CertificateCache: Sendable {
    /// The cache the inspectors use.
    package static let shared = CertificateCache(capacity: 512)

    private let entries: SharedCache<SampledBytes, Certificate>

    package init(capacity: Int) {
        entries = SharedCache(capacity: capacity)
    }

    /// The certificate `der` encodes (exactly all of it), decoded when it was not already.
    package func certificate(der: ArraySlice<UInt8>) throws(CryptoError) -> Certificate {
        let key = SampledBytes(Array(der))
        if let known = entries.value(key) { return known }
        let certificate = try Certificate(derEncoded: key.bytes[...])
        if key.isSmallEnoughToKeep { entries.set(key, certificate) }
        return certificate
    }

    /// Forgets every certificate (tests judge with a cold cache so).
    package func removeAll() { entries.removeAll() }

    /// How many certificates it holds.
    package var count: Int { entries.count }
}
