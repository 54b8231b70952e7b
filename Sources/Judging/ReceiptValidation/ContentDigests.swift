import ReceiptCrypto
import ReceiptPKCS7

/// The signed content's digests, one per digest algorithm its SignerInfos name, each computed once however many
/// SignerInfos use it. A large content is hashed on another core while the reading pass reads the payload (on a
/// 40 MB receipt the two take about as long); `digest` waits for it. The digests are the same whichever thread
/// computes them, so the verdict does not depend on it.
struct ContentDigests {
    private let parts: [ArraySlice<UInt8>]
    /// The digests by every supported algorithm a SignerInfo names.
    private let named: BackgroundValue<[DigestAlgorithm: [UInt8]]>

    /// Starts hashing the content of `signedData` (read from `bytes`) with every supported algorithm its
    /// SignerInfos name, in the background when the content is large.
    static func start(_ bytes: [UInt8], _ signedData: SignedData) -> ContentDigests {
        let segments = signedData.encapsulatedContent?.segments ?? []
        let parts = segments.compactMap { segment in
            segment.lowerBound >= 0 && segment.upperBound <= bytes.count ? bytes[segment] : nil
        }
        var algorithms: [DigestAlgorithm] = []
        for signer in signedData.signers {
            if let algorithm = DigestAlgorithm(oid: signer.digestAlgorithm.oid), !algorithms.contains(algorithm) {
                algorithms.append(algorithm)
            }
        }
        let wanted = algorithms
        let size = algorithms.isEmpty ? 0 : parts.reduce(0) { $0 + $1.count }
        return ContentDigests(
            parts: parts,
            named: BackgroundValue(size: size) {
                var digests: [DigestAlgorithm: [UInt8]] = [:]
                for algorithm in wanted { digests[algorithm] = try? Digest.hash(parts, algorithm: algorithm) }
                return digests
            })
    }

    /// The content's digest by `algorithm` (nil when OpenSSL cannot compute it).
    func digest(_ algorithm: DigestAlgorithm) -> [UInt8]? {
        if let known = named.value[algorithm] { return known }
        return try? Digest.hash(parts, algorithm: algorithm)
    }
}
