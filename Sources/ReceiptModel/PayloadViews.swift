import ReceiptASN1

/// The payload's attributes and records as views over the borrowed payload buffer (see
/// `ReceiptPayload.withViews`): what hot consumers such as the JSON dump read, decoding each attribute when asked
/// and allocating nothing. Valid only inside the closure that received it.
public struct PayloadViews {
    let payload: ReceiptPayload
    var decoder: AttributeDecoder

    /// The buffer the views' ranges index.
    public var buffer: UnsafeBufferPointer<UInt8> { decoder.buffer }

    /// Translates buffer offsets to absolute input offsets.
    public var map: SegmentMap { payload.map }

    /// How many top-level attributes there are.
    public var count: Int { payload.positions.count }

    /// The top-level attribute at `index` (0 ..< count).
    public mutating func attribute(at index: Int) -> AttributeView {
        let position = payload.positions[index]
        return decoder.attribute(at: position, limit: payload.contentEnd, depth: payload.depth, scope: .receipt)
            ?? AttributeView(offset: payload.map.fileOffset(position), length: 0, scope: .receipt)
    }

    /// How many in-app records (type-17 attributes holding a record) there are.
    public var recordCount: Int { payload.recordIndices.count }

    /// The SET of the in-app record at `index` (0 ..< recordCount).
    public mutating func recordSet(at index: Int) -> ASN1Node? {
        guard case .record(let set) = attribute(at: payload.recordIndices[index]).value else { return nil }
        return set
    }

    /// Visits the attributes of the in-app record `set` (from a `.record` value), in order; `body` gets these
    /// views back to read bytes with.
    public mutating func forEachAttribute(ofRecord set: ASN1Node, _ body: (AttributeView, inout PayloadViews) -> Void) {
        var cursor = decoder.recordCursor(set)
        while let view = decoder.nextRecordAttribute(&cursor) { body(view, &self) }
    }

    /// The bytes of `range` (a view's value, text or date range), empty when it is outside the buffer.
    public func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { buffer.slice(range) }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes of `range` (a view's value, text or date range), empty when it is not inside this buffer. Hot
    /// consumers take the payload buffer once and slice it, rather than passing `PayloadViews` around (a copy of
    /// which retains what it holds).
    public func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        guard range.lowerBound >= 0, range.upperBound <= count else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: self[range])
    }
}
