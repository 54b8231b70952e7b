import ReceiptASN1
import ReceiptModel

/// The ids an in-app record is matched by, read straight from its bytes: only the transaction id (1703),
/// purchase date (1704) and original transaction id (1705) values are decoded, the rest is skipped.
///
/// This is the fast path for well-formed records; anything unusual (a field that is not `SEQUENCE { INTEGER,
/// INTEGER, OCTET STRING }`, a value that is not one UTF8String or IA5String, a read error) returns nil, and the
/// caller decodes the whole record instead, so both paths give the same keys.
struct RecordKeys: Hashable {
    var transactionID: String?
    var originalTransactionID: String?
    var purchaseDate: String?

    /// The keys of the record whose SET encoding is `range` of `payload.bytes`, or nil to decode it in full.
    static func scan(_ payload: ReceiptPayload, range: Range<Int>) -> RecordKeys? {
        let bytes = payload.bytes
        guard range.upperBound <= bytes.count else { return nil }
        var reader = ASN1Reader(bytes, rules: .ber, limits: payload.context.limits)
        var keys = RecordKeys()
        var seen = (transaction: false, original: false, purchase: false)
        do throws(ASN1Error) {
            let set = try reader.readSingle(in: range, depth: 0)
            guard set.tag == .set else { return nil }
            var cursor = reader.children(of: set)
            while let attribute = try reader.next(&cursor) {
                guard attribute.tag == .sequence else { return nil }
                var fields = reader.children(of: attribute)
                guard let typeNode = try reader.next(&fields), typeNode.tag == .integer,
                      let type = ASN1Primitives.int64(bytes, typeNode.contentRange)
                else { return nil }
                switch type {
                case 1703 where !seen.transaction: seen.transaction = true
                case 1704 where !seen.purchase: seen.purchase = true
                case 1705 where !seen.original: seen.original = true
                default: continue
                }
                guard let version = try reader.next(&fields), version.tag == .integer,
                      let value = try reader.next(&fields), value.tag == .octetString,
                      try reader.next(&fields) == nil
                else { return nil }
                let inner = try reader.readSingle(in: value.contentRange, depth: value.depth + 1)
                let text: String?
                switch inner.tag {
                case .utf8String: text = ASN1Primitives.utf8String(bytes, inner.contentRange)
                case .ia5String: text = ASN1Primitives.asciiString(bytes, inner.contentRange)
                default: return nil
                }
                guard let text else { return nil }
                switch type {
                case 1703: keys.transactionID = text
                case 1704: keys.purchaseDate = text
                default: keys.originalTransactionID = text
                }
            }
        } catch {
            return nil
        }
        return keys
    }

    /// The keys of a decoded record: the first attribute of each type counts.
    static func decode(_ record: InAppRecord, payload: ReceiptPayload) -> RecordKeys {
        var keys = RecordKeys()
        var seen = (transaction: false, original: false, purchase: false)
        for field in record.attributes {
            switch field.type {
            case 1703? where !seen.transaction:
                seen.transaction = true
                keys.transactionID = AttributeSnapshot.keyText(field, payload: payload)
            case 1704? where !seen.purchase:
                seen.purchase = true
                keys.purchaseDate = AttributeSnapshot.keyText(field, payload: payload)
            case 1705? where !seen.original:
                seen.original = true
                keys.originalTransactionID = AttributeSnapshot.keyText(field, payload: payload)
            default:
                break
            }
        }
        return keys
    }
}
