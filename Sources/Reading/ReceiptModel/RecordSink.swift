/// What the reading pass hands each in-app record to as soon as the record's attributes are read, while its
/// entries are still at hand: a check that needs every record (the record checks) runs there, in the same pass, and
/// a caller that renders no record (`rcpt verify`) can then let the index drop the record's entries, so its memory
/// stays that of the input however many records there are.
package protocol RecordSink: AnyObject {
    /// The record held by entry `record` is read: its attributes are `table.children(record)`, and `firstByType`
    /// holds the receipt's first top-level attribute of each type 0–63 read so far (-1 where none is yet). Returns
    /// whether the sink took what it needs of the record; only then may its entries be dropped.
    func recordRead(
        _ record: Int, in table: EntryTable, firstByType: [Int32],
        buffer: UnsafeBufferPointer<UInt8>
    ) -> Bool

    /// The read is over and `buffer` (the payload, as `recordRead` had it) is still lent: nothing may keep a pointer
    /// into it after this returns.
    func readEnded(in table: EntryTable, buffer: UnsafeBufferPointer<UInt8>)
}
