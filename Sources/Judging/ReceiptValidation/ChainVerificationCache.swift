import ReceiptCaching
import ReceiptCrypto
import Synchronization

/// Chain verifications that succeeded, kept for the whole process and shared by every inspection (the batch engine's
/// threads, `rcpt status`, a library caller): every token of an App Store era carries the same chain and every
/// receipt of an era the same one, and verifying it (two P-384 or RSA signatures, OpenSSL's store and path building)
/// costs several times a document's own signature. A document then checks only what depends on it: its own
/// signature, the signing policy over the path, and every certificate's validity at its own evaluation time.
///
/// **Never a different verdict.** An entry is keyed by the chain as given (every certificate's SHA-256, leaf first)
/// and the anchors, and holds one verification per *validity pattern*: for each of those certificates, whether the
/// evaluation time is before its notBefore, inside its window or after its notAfter. OpenSSL's verification depends
/// on the time only through that pattern (the window checks, and which candidate issuer it prefers), so the same
/// chain, anchors and pattern verify the same way. A time within two seconds of any window's edge is never looked up
/// or kept (a certificate's times can carry fractions of a second, which `Certificate` reads as whole seconds). A
/// verification that failed is never kept: the next one runs OpenSSL again. Bounded: the least recently used chain
/// is forgotten.
package final class ChainVerificationCache: Sendable {
    /// The cache every inspection uses unless its options name another.
    package static let shared = ChainVerificationCache(capacity: 128)

    private struct Key: Hashable, Sendable {
        var chain: [String]
        var anchors: [String]
    }

    private struct Verified: Sendable {
        var pattern: [UInt8]
        var verification: ChainVerification
    }

    /// At most this many patterns a chain (a chain is seldom judged at more than two).
    private static let patternsPerChain = 4
    private let entries: SharedCache<Key, [Verified]>
    private let counters = Mutex((hits: 0, misses: 0))

    package init(capacity: Int) {
        entries = SharedCache(capacity: capacity)
    }

    /// `ChainVerifier.verify(leaf:intermediates:anchors:at:)`, or its earlier result when the chain, the anchors
    /// and the validity pattern at `time` are those of a verification that succeeded.
    package func verify(leaf: Certificate, intermediates: [Certificate], anchors: [Certificate], at time: Int64)
        -> ChainVerification
    {
        let given = [leaf] + intermediates
        guard let pattern = Self.pattern(given + anchors, at: time) else {
            return ChainVerifier.verify(leaf: leaf, intermediates: intermediates, anchors: anchors, at: time)
        }
        let key = Key(chain: given.map(\.sha256Fingerprint), anchors: anchors.map(\.sha256Fingerprint))
        if let known = entries.value(key)?.first(where: { $0.pattern == pattern }) {
            counters.withLock { $0.hits += 1 }
            return known.verification
        }
        counters.withLock { $0.misses += 1 }
        let verification = ChainVerifier.verify(leaf: leaf, intermediates: intermediates, anchors: anchors, at: time)
        guard verification.isValid else { return verification }
        entries.withEntries { entries in
            var verified = entries.value(key) ?? []
            verified.removeAll { $0.pattern == pattern }
            verified.insert(Verified(pattern: pattern, verification: verification), at: 0)
            entries.set(key, Array(verified.prefix(Self.patternsPerChain)))
        }
        return verification
    }

    /// Where `time` stands in each certificate's window: 0 before its notBefore, 1 inside, 2 at or after its
    /// notAfter (OpenSSL's reading: a certificate is not yet valid when notBefore is later than the time, expired
    /// when notAfter is not). Nil when the time is within two seconds of an edge.
    private static func pattern(_ certificates: [Certificate], at time: Int64) -> [UInt8]? {
        var pattern: [UInt8] = []
        pattern.reserveCapacity(certificates.count)
        for certificate in certificates {
            for edge in [certificate.notBefore, certificate.notAfter] {
                let (distance, overflow) = time.subtractingReportingOverflow(edge)
                if !overflow && distance.magnitude <= 2 { return nil }
            }
            pattern.append(time < certificate.notBefore ? 0 : time < certificate.notAfter ? 1 : 2)
        }
        return pattern
    }

    /// Verifications answered from the cache and verifications run, since the process started (or `reset`).
    package var statistics: (hits: Int, misses: Int) { counters.withLock { $0 } }

    /// Forgets every verification (a cold cache, for tests and benchmarks).
    package func reset() {
        entries.withEntries { $0.removeAll() }
        counters.withLock { $0 = (0, 0) }
    }
}
