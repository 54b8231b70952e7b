import ReceiptASN1
import ReceiptPKCS7

/// The receipt payload: the SET of attributes inside the signed content, as read.
public struct ReceiptPayload: Sendable {
    /// The buffer the attributes' value ranges index into: the input file itself, or the reassembled content
    /// of a constructed OCTET STRING.
    public var bytes: [UInt8]
    /// Translates offsets in `bytes` to absolute input offsets.
    public var map: SegmentMap
    /// Absolute offset of the payload's outer element.
    public var offset: Int
    /// The payload's outer element tag (SET in a well-formed receipt).
    public var tag: ASN1Tag?
    public var attributes: [ReceiptAttribute]
    public var findings: [Finding]
    /// The error that stopped the read, if one did; attributes before it are kept.
    public var error: ReceiptReadError?

    /// The raw value bytes of `attribute`.
    public func valueBytes(_ attribute: ReceiptAttribute) -> ArraySlice<UInt8> {
        guard let range = attribute.valueRange, range.upperBound <= bytes.count else { return [] }
        return bytes[range]
    }

    /// Every attribute of `type`, in order.
    public func attributes(ofType type: Int64) -> [ReceiptAttribute] { attributes.filter { $0.type == type } }

    /// The first attribute of `type`.
    public func first(_ type: Int64) -> ReceiptAttribute? { attributes.first { $0.type == type } }

    /// The in-app purchase records, in order.
    public var inAppRecords: [InAppRecord] { attributes.compactMap(\.record) }
}
