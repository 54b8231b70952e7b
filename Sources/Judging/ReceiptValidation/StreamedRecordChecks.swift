import ReceiptModel

/// The record checks run as the reading pass reads each record (a `RecordSink`), so the index need not keep a
/// record's entries to check it later. They need the receipt's creation date when the first record is read: when
/// it comes before the records (as in every receipt Apple writes: DER order puts the short type-12 attribute first)
/// they take every record; when it does not, they take none, and the checks run after the read over the index.
final class StreamedRecordChecks: RecordSink {
    /// The checks, once the first record found the creation date read; nil before, and for good when it was not.
    /// Only the reading pass's thread touches them, one record after another (no dynamic exclusivity check a
    /// record).
    @exclusivity(unchecked) private(set) var checks: RecordChecks?
    private var declined = false

    func recordRead(
        _ record: Int, in table: EntryTable, firstByType: [Int32],
        buffer: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        if checks == nil {
            guard !declined else { return false }
            // The receipt's creation date is its first top-level type-12 attribute's (`Receipt.creationDate`).
            let creation = Int(firstByType[12])
            guard creation >= 0 else {
                declined = true
                return false
            }
            // Sized for the records a payload of this size can hold (Apple's take 300 bytes and more), up to a
            // million: beyond, the table grows as ids come.
            checks = RecordChecks(created: table.date(creation), expectedRecords: min(buffer.count / 256, 1 << 20))
        }
        checks?.check(record: record, in: table, buffer)
        return true
    }

    func readEnded(in table: EntryTable, buffer: UnsafeBufferPointer<UInt8>) {
        checks?.close()
    }
}
