import Dispatch
import ReceiptCrypto
import ReceiptPKCS7

/// The signed content's digests, one per digest algorithm its SignerInfos name, each computed once however many
/// SignerInfos use it. A large content is hashed on another core while the reading pass reads the payload (on a
/// 40 MB receipt the two take about as long); `digest` waits for it. The digests are the same whichever thread
/// computes them, so the verdict does not depend on it.
final class ContentDigests: @unchecked Sendable {
    /// Contents smaller than this are hashed when first asked for, on the asking thread: handing them to another
    /// thread would cost more than it saves.
    static let backgroundThreshold = 1 << 20

    private let parts: [ArraySlice<UInt8>]
    /// Written by the background work before `done` is signalled, or by the asking thread; read after either.
    private var digests: [DigestAlgorithm: [UInt8]?] = [:]
    private let done: DispatchGroup?

    private init(parts: [ArraySlice<UInt8>], background: Bool) {
        self.parts = parts
        done = background ? DispatchGroup() : nil
    }

    /// Starts hashing the content of `signedData` (read from `bytes`) with every supported algorithm its
    /// SignerInfos name, in the background when the content is large.
    static func start(_ bytes: [UInt8], _ signedData: SignedData) -> ContentDigests {
        let segments = signedData.encapsulatedContent?.segments ?? []
        let parts = segments.compactMap { segment in
            segment.lowerBound >= 0 && segment.upperBound <= bytes.count ? bytes[segment] : nil
        }
        let size = parts.reduce(0) { $0 + $1.count }
        var algorithms: [DigestAlgorithm] = []
        for signer in signedData.signers {
            if let algorithm = DigestAlgorithm(oid: signer.digestAlgorithm.oid), !algorithms.contains(algorithm) {
                algorithms.append(algorithm)
            }
        }
        let digests = ContentDigests(parts: parts, background: size >= backgroundThreshold && !algorithms.isEmpty)
        if let done = digests.done {
            let wanted = algorithms
            done.enter()
            DispatchQueue.global(qos: .userInitiated).async {
                for algorithm in wanted { digests.digests[algorithm] = digests.compute(algorithm) }
                done.leave()
            }
        }
        return digests
    }

    /// The content's digest by `algorithm` (nil when OpenSSL cannot compute it).
    func digest(_ algorithm: DigestAlgorithm) -> [UInt8]? {
        done?.wait()
        if let known = digests[algorithm] { return known }
        let computed = compute(algorithm)
        digests[algorithm] = computed
        return computed
    }

    private func compute(_ algorithm: DigestAlgorithm) -> [UInt8]? { try? Digest.hash(parts, algorithm: algorithm) }
}
