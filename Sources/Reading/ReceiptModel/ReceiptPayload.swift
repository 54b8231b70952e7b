import ReceiptASN1
import ReceiptDiagnostics
import ReceiptPKCS7

/// The receipt payload: the SET of attributes inside the signed content, as the reading pass decoded it.
public struct ReceiptPayload: Sendable {
    /// Every attribute, decoded once.
    public let index: PayloadIndex
    /// Offset of the payload's outer element in the file.
    public var offset: Int
    /// The payload's outer element tag (SET in a well-formed receipt).
    public var tag: ASN1Tag?
    public var findings: [Finding]
    /// The error that stopped the read, if one did; attributes before it are kept.
    public var error: ReceiptReadError?
    /// The payload's non-DER choices (attributes and records).
    public var encoding: EncodingSummary
    /// The bytes the attributes were read from: the signed content (its segments joined when it was chunked).
    public let content: ArraySlice<UInt8>

    /// The top-level attributes, in order.
    public var attributes: AttributeList { AttributeList(index, entries: nil) }

    /// The in-app purchase records, in order.
    public var inAppRecords: RecordList { RecordList(index: index) }

    /// Every top-level attribute of `type`, in order.
    public func attributes(ofType type: Int64) -> [Attribute] { attributes.filter { $0.type == type } }

    /// The first top-level attribute named `field`.
    public func first(_ field: ReceiptField) -> Attribute? { first(field.rawValue) }

    /// The first top-level attribute of `type` (constant time for types 0–63).
    public func first(_ type: Int64) -> Attribute? {
        if type >= 0, type < Int64(index.firstByType.count) {
            let entry = index.firstByType[Int(type)]
            return entry >= 0 ? Attribute(index, Int(entry)) : nil
        }
        return attributes.first { $0.type == type }
    }
}
