import ReceiptASN1
import ReceiptDiagnostics
import ReceiptPKCS7

/// The receipt payload: the SET of attributes inside the signed content.
///
/// Reading checks every attribute once (collecting findings) but keeps only each attribute's position; attributes
/// and in-app records are decoded from the shared buffer when accessed. Memory beyond the input is a few bytes
/// per attribute, whatever the receipt's size.
public struct ReceiptPayload: Sendable {
    public let context: PayloadContext
    /// Absolute offset of the payload's outer element.
    public var offset: Int
    /// The payload's outer element tag (SET in a well-formed receipt).
    public var tag: ASN1Tag?
    public var findings: [Finding]
    /// The error that stopped the read, if one did; attributes before it are kept.
    public var error: ReceiptReadError?
    /// Buffer positions of the top-level attributes' elements, in order.
    var positions: [Int]
    /// Indices into `positions` of the type-17 attributes.
    var recordIndices: [Int]
    /// For types 0–63: the index into `positions` of the first attribute of that type, or -1.
    var firstIndexByType: [Int]
    /// Where the attribute SET's content ends in the buffer, and the attributes' depth.
    var contentEnd: Int
    var depth: Int
    /// Whether the payload was read as possibly cut short (its container was).
    var toleratesTruncation: Bool

    /// The buffer the attributes' value ranges index into.
    public var bytes: [UInt8] { context.bytes }
    /// Translates offsets in `bytes` to absolute input offsets.
    public var map: SegmentMap { context.map }

    /// The top-level attributes, in order, decoded on access.
    public var attributes: Attributes { Attributes(payload: self) }

    /// The in-app purchase records, in order, decoded on access.
    public var inAppRecords: InAppRecords { InAppRecords(payload: self) }

    /// The raw value bytes of `attribute`.
    public func valueBytes(_ attribute: ReceiptAttribute) -> ArraySlice<UInt8> {
        guard let range = attribute.valueRange, range.upperBound <= bytes.count else { return [] }
        return bytes[range]
    }

    /// Every attribute of `type`, in order.
    public func attributes(ofType type: Int64) -> [ReceiptAttribute] { attributes.filter { $0.type == type } }

    /// The first attribute of `type` (constant time for types 0–63).
    public func first(_ type: Int64) -> ReceiptAttribute? {
        if type >= 0, type < Int64(firstIndexByType.count) {
            let index = firstIndexByType[Int(type)]
            return index >= 0 ? attribute(at: index) : nil
        }
        return attributes.first { $0.type == type }
    }

    /// Decodes the top-level attribute at `index` of `positions`.
    func attribute(at index: Int) -> ReceiptAttribute {
        ReceiptAttribute(withViews { $0.attribute(at: index) }, context: context,
                         toleratesTruncation: toleratesTruncation)
    }

    /// Runs `body` with allocation-free access to the attributes as views, over the buffer borrowed once.
    public func withViews<Result>(_ body: (inout PayloadViews) throws -> Result) rethrows -> Result {
        try context.bytes.withUnsafeBufferPointer { buffer in
            var views = PayloadViews(payload: self, decoder: AttributeDecoder(
                buffer: buffer, map: context.map, limits: context.limits, recording: false,
                toleratesTruncation: toleratesTruncation))
            return try body(&views)
        }
    }

    /// The payload's top-level attributes as a random-access collection that decodes each element when read.
    public struct Attributes: RandomAccessCollection, Sendable {
        let payload: ReceiptPayload
        public var startIndex: Int { 0 }
        public var endIndex: Int { payload.positions.count }
        public subscript(index: Int) -> ReceiptAttribute { payload.attribute(at: index) }
    }

    /// The payload's in-app records as a random-access collection that decodes each record when read.
    public struct InAppRecords: RandomAccessCollection, Sendable {
        let payload: ReceiptPayload
        public var startIndex: Int { 0 }
        public var endIndex: Int { payload.recordIndices.count }
        public subscript(index: Int) -> InAppRecord {
            let attribute = payload.attribute(at: payload.recordIndices[index])
            return attribute.record ?? InAppRecord(offset: attribute.offset, length: attribute.length,
                                                   node: ASN1Node(tag: .set, offset: 0, contentStart: 0, contentEnd: 0,
                                                                  end: 0, depth: 0, anomalies: []),
                                                   context: payload.context, toleratesTruncation: false)
        }
    }
}
