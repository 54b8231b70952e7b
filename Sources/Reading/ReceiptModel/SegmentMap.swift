/// Maps offsets in a reassembled buffer (the concatenated segments of a constructed OCTET STRING) back to
/// absolute offsets in the input file. The identity map when the payload is read in place.
package struct SegmentMap: Sendable, Hashable {
    /// (start in the buffer, start in the file, length), in buffer order.
    private var pieces: [(bufferStart: Int, fileStart: Int, length: Int)]
    private var isIdentity: Bool

    package static let identity = SegmentMap(pieces: [], isIdentity: true)

    /// The map for a buffer made by concatenating `segments` (file ranges) in order.
    package init(concatenating segments: [Range<Int>]) {
        var pieces: [(Int, Int, Int)] = []
        var position = 0
        for segment in segments {
            pieces.append((position, segment.lowerBound, segment.count))
            position += segment.count
        }
        self.init(pieces: pieces, isIdentity: false)
    }

    private init(pieces: [(bufferStart: Int, fileStart: Int, length: Int)], isIdentity: Bool) {
        self.pieces = pieces
        self.isIdentity = isIdentity
    }

    /// The file offset of buffer offset `offset` (the end of the last segment for offsets past the end).
    /// Whether buffer offsets are file offsets (the payload is one segment of the file).
    package var isIdentityMap: Bool { isIdentity }

    @inline(__always)
    package func fileOffset(_ offset: Int) -> Int {
        isIdentity ? offset : mappedOffset(offset)
    }

    private func mappedOffset(_ offset: Int) -> Int {
        guard let last = pieces.last else { return offset }
        var low = 0
        var high = pieces.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if pieces[middle].bufferStart <= offset { low = middle } else { high = middle - 1 }
        }
        let piece = pieces[low]
        if offset >= piece.bufferStart + piece.length && low == pieces.count - 1 {
            return last.fileStart + last.length
        }
        return piece.fileStart + (offset - piece.bufferStart)
    }

    package static func == (lhs: SegmentMap, rhs: SegmentMap) -> Bool {
        lhs.isIdentity == rhs.isIdentity && lhs.pieces.elementsEqual(rhs.pieces) { $0 == $1 }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(isIdentity)
        hasher.combine(pieces.count)
    }
}
