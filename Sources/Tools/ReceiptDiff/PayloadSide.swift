import ReceiptModel

/// One in-app record as the matcher sees it: where it is, and the ids it is matched by.
struct RecordEntry {
    /// The record's type-17 attribute's index among the payload's attributes.
    var attributeIndex: Int
    /// The record's index among the in-app records.
    var recordIndex: Int
    /// Absolute offset of the type-17 attribute.
    var offset: Int
    /// The type-17 attribute's encoded length and version.
    var length: Int
    var version: Int64?
    /// The record.
    var record: InAppRecord
    var transactionID: String?
    var originalTransactionID: String?
    var purchaseDate: String?
    /// How many earlier records on the same side have the same identity.
    var occurrence: Int

    /// What names the record in paths: its transaction id; else its original transaction id and purchase date;
    /// else its position.
    enum Identity: Hashable {
        case transaction(String)
        case original(String, String)
        case position(Int)
    }

    /// The record's identity, from the ids it has.
    var identity: Identity {
        if let transactionID { return .transaction(transactionID) }
        if let originalTransactionID, let purchaseDate { return .original(originalTransactionID, purchaseDate) }
        return .position(recordIndex)
    }

    /// `in_app[transaction_id=…]`, `in_app[original_transaction_id=…,purchase_date=…]` or `in_app[index=N]`,
    /// with `#N` for the N-th later record of the same identity.
    var path: DiffPath {
        var selector: String
        switch identity {
        case .transaction(let id): selector = "transaction_id=\(DiffPath.selectorValue(id))"
        case .original(let id, let date):
            selector =
                "original_transaction_id=\(DiffPath.selectorValue(id)),"
                + "purchase_date=\(DiffPath.selectorValue(date))"
        case .position(let index): selector = "index=\(index)"
        }
        if occurrence > 0 { selector += "#\(occurrence)" }
        return DiffPath("in_app", selector: selector)
    }
}

/// One side's payload as the diff reads it: the top-level attributes keyed, and the in-app records with the ids
/// they are matched by, all read from the payload's index.
struct PayloadSide {
    var payload: ReceiptPayload?
    var attributes: [KeyedAttribute] = []
    var records: [RecordEntry] = []

    /// One side (empty when it has no payload).
    init(_ receipt: Receipt?) {
        guard let payload = receipt?.payload else { return }
        self.payload = payload
        var attributeCounter = OccurrenceCounter<FieldKey.TypeKey>()
        var identityCounter = OccurrenceCounter<RecordEntry.Identity>()
        for (index, attribute) in payload.attributes.enumerated() {
            guard let record = attribute.record else {
                let occurrence = attributeCounter.next(FieldKey.TypeKey(attribute))
                attributes.append(KeyedAttribute(attribute, occurrence: occurrence))
                continue
            }
            var entry = RecordEntry(
                attributeIndex: index, recordIndex: records.count, offset: attribute.offset,
                length: attribute.length, version: attribute.version, record: record,
                transactionID: nil, originalTransactionID: nil, purchaseDate: nil, occurrence: 0)
            var seen = (transaction: false, original: false, purchase: false)
            for field in record.attributes {
                switch field.type {
                case 1703? where !seen.transaction:
                    seen.transaction = true
                    entry.transactionID = KeyedAttribute.keyText(field)
                case 1704? where !seen.purchase:
                    seen.purchase = true
                    entry.purchaseDate = KeyedAttribute.keyText(field)
                case 1705? where !seen.original:
                    seen.original = true
                    entry.originalTransactionID = KeyedAttribute.keyText(field)
                default:
                    break
                }
            }
            entry.occurrence = identityCounter.next(entry.identity)
            records.append(entry)
        }
    }
}
