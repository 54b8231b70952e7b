/// Bytes as a dictionary key that hashes fast: by their count and a few samples — 16 bytes at a quarter, half and
/// three quarters of the way and the last 32 (a certificate's signature, a token header's last certificate) — and
/// compared in full, eight bytes at a time. Keys that share the samples only collide, which costs a comparison,
/// never a wrong answer; a cache keeps at most `LeastRecentlyUsed.keysPerHash` keys of one hash, so even inputs made
/// to collide cost a few comparisons a lookup.
package struct SampledBytes: Hashable, Sendable {
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The most bytes a key may hold to be kept by a process-wide cache: what every token of an era repeats (a
    /// header, a certificate) is a few kilobytes, and a cache of hostile documents must not keep large ones alive.
    package static let largestKept = 16 * 1024

    /// Whether a cache may keep an entry under this key (`largestKept`).
    package var isSmallEnoughToKeep: Bool { bytes.count <= Self.largestKept }

    package func hash(into hasher: inout Hasher) {
        let count = bytes.count
        hasher.combine(count)
        bytes.withUnsafeBytes { buffer in
            for quarter in 1...3 {
                let start = count / 4 * quarter
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: buffer[start..<min(count, start + 16)]))
            }
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: buffer.suffix(32)))
        }
    }

    package static func == (lhs: SampledBytes, rhs: SampledBytes) -> Bool {
        guard lhs.bytes.count == rhs.bytes.count else { return false }
        return lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                var index = 0
                while index + 8 <= left.count {
                    guard
                        left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                            == right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    else { return false }
                    index += 8
                }
                while index < left.count {
                    guard left[index] == right[index] else { return false }
                    index += 1
                }
                return true
            }
        }
    }
}
