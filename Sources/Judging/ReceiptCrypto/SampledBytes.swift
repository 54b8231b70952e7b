/// Bytes as a dictionary key that hashes fast: by their count and their last 32 bytes (for a certificate or its
/// base64, signature bytes, which differ for every certificate), compared in full. Keys that share a tail only
/// collide, which costs a comparison, never a wrong answer; the caches that use it are bounded, so even inputs made
/// to collide cost a few hundred comparisons at most.
package struct SampledBytes: Hashable, Sendable {
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { buffer in
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: buffer.suffix(32)))
        }
    }

    package static func == (lhs: SampledBytes, rhs: SampledBytes) -> Bool { lhs.bytes == rhs.bytes }
}
