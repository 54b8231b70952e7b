import ReceiptDiagnostics
import ReceiptModel

/// Upgrades in a receipt. A receipt has no is_upgraded: Apple gives the upgraded subscription's record a
/// cancellation_date, the second another product of the same original transaction was bought. Such a cancellation is
/// an upgrade, not a refund (`purchase-upgraded`, as `rcpt status` reads it); only receipts with a cancelled
/// subscription record take this second look.
extension RecordChecks {
    /// Where a cancellation may be an upgrade: the original transaction and the second. Cancellations are looked up
    /// by it, one hash a record, so a receipt of many cancelled records costs no more than one of few.
    struct UpgradeMoment: Hashable {
        var original: String
        var seconds: Int64
    }

    /// A second look at every record of `index` when any subscription record was cancelled, whether the reading
    /// pass kept the records' entries or dropped them (`RecordRereader` reads those again, one at a time): a record
    /// bought at the second another product of its original transaction was cancelled makes that cancellation an
    /// upgrade (`purchase-upgraded`). Records come in any order, so this waits for every cancellation.
    mutating func noteUpgrades(in index: PayloadIndex) {
        guard !cancellations.isEmpty else { return }
        RecordRereader.reading(index) { rereader in
            for record in index.records {
                rereader.withAttributes(ofRecord: Int(record)) { table, attributes in
                    table.bytes.withUnsafeBufferPointer { buffer in noteUpgrade(attributes, in: table, buffer) }
                }
            }
        }
    }

    /// The second look at one record, whose attributes are `attributes` of `table`.
    private mutating func noteUpgrade(
        _ attributes: Range<Int>, in table: borrowing EntryTable, _ buffer: UnsafeBufferPointer<UInt8>
    ) {
        table.firstOfEachType(in: attributes, types: 1701...1712, into: &fields)
        func field(_ type: Int) -> Int? {
            let entry = fields[type - 1701]
            return entry < 0 ? nil : Int(entry)
        }
        guard let purchase = field(1704), let bought = table.dateSeconds(purchase), let originalEntry = field(1705),
            let productEntry = field(1702), table.kind(productEntry) == .text,
            let original = TransactionKey(table, originalEntry, buffer)?.display
        else { return }
        let product = ByteKey(buffer, table.contentRange(productEntry)).text
        for cancellation in cancellations[UpgradeMoment(original: original, seconds: bought)] ?? []
        where cancellation.product != product && findings[cancellation.finding].kind == .purchaseCancelled {
            let offset = findings[cancellation.finding].offset
            findings[cancellation.finding] = Finding(
                .purchaseUpgraded, at: offset,
                "\(cancellation.product) was upgraded to \(product) at \(ReceiptDate.format(epochSeconds: bought)) (its cancellation_date is the second the new product was bought: a receipt dates an upgrade so, not a refund)",
                fields: [
                    FindingField("product_id", cancellation.product), FindingField("upgraded_to", product),
                    FindingField("original_transaction_id", original),
                ])
        }
    }
}
