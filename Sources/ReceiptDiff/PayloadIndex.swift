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
    /// Where the record's SET encoding is in the payload buffer.
    var valueRange: Range<Int>?
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
            selector = "original_transaction_id=\(DiffPath.selectorValue(id)),"
                + "purchase_date=\(DiffPath.selectorValue(date))"
        case .position(let index): selector = "index=\(index)"
        }
        if occurrence > 0 { selector += "#\(occurrence)" }
        return DiffPath("in_app", selector: selector)
    }
}

/// One side's payload, read once: snapshots of the top-level attributes and the in-app records' ids. Records are
/// decoded again only when they must be compared field by field.
struct PayloadIndex {
    var payload: ReceiptPayload?
    var attributes: [AttributeSnapshot] = []
    var records: [RecordEntry] = []

    /// Reads one side's payload once (empty when it has none).
    init(_ receipt: Receipt?) {
        guard let payload = receipt?.payload else { return }
        self.payload = payload
        var attributeCounter = OccurrenceCounter<FieldKey.TypeKey>()
        var identityCounter = OccurrenceCounter<RecordEntry.Identity>()
        for (index, attribute) in payload.attributes.enumerated() {
            guard let record = attribute.record else {
                let occurrence = attributeCounter.next(FieldKey.TypeKey(attribute))
                attributes.append(AttributeSnapshot(attribute, payload: payload, occurrence: occurrence))
                continue
            }
            let keys = attribute.valueRange.flatMap { RecordKeys.scan(payload, range: $0) }
                ?? RecordKeys.decode(record, payload: payload)
            var entry = RecordEntry(attributeIndex: index, recordIndex: records.count, offset: attribute.offset,
                                    length: attribute.length, version: attribute.version,
                                    valueRange: attribute.valueRange, transactionID: keys.transactionID,
                                    originalTransactionID: keys.originalTransactionID,
                                    purchaseDate: keys.purchaseDate, occurrence: 0)
            entry.occurrence = identityCounter.next(entry.identity)
            records.append(entry)
        }
    }
}
