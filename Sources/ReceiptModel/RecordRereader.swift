import ReceiptASN1

/// How the reading pass read the in-app records whose entries it dropped: their SETs' depth and the reader's rules.
/// Reading such a record again this way yields the entries it had.
struct RecordRereading: Equatable, Sendable {
    var depth: Int
    var limits: ASN1Limits
    var toleratesTruncation: Bool
    var takesCanonicalPath: Bool
}

/// Hands a renderer the entries of each in-app record of an index, whether the index kept them or dropped them
/// (`InspectionOptions.keepsRecords` false). A dropped record is read again from its bytes into a table of the
/// rereader's own, reused from record to record, so showing every record of a large receipt holds one record's
/// entries at a time. Only a record the first read found nothing wrong with is ever dropped (see
/// `PayloadIndex.Builder.dropRecordEntries`), so its entries come back as they were, and it had no finding to lose.
package struct RecordRereader {
    private let index: PayloadIndex
    /// The table dropped records are read into, reused.
    private var scratch: PayloadIndex.Builder?

    package init(_ index: PayloadIndex) {
        self.index = index
    }

    /// Calls `body` with the table holding the attributes of the record held by `entry`, and their entries there.
    package mutating func withAttributes<Result>(ofRecord entry: Int,
                                                 _ body: (EntryTable, Range<Int>) -> Result) -> Result {
        guard reread(entry), let builder = scratch else { return body(index.table, index.table.children(entry)) }
        return body(builder.table, 0..<builder.table.entries.count)
    }

    /// The record held by `entry` as an index of its own (its attributes are the index's entries, in order), when
    /// its entries were dropped: what `InAppRecord.attributes` shows then.
    static func index(ofDroppedRecord entry: Int, in index: PayloadIndex) -> PayloadIndex? {
        var rereader = RecordRereader(index)
        guard rereader.reread(entry), let builder = rereader.scratch else { return nil }
        return PayloadIndex(builder)
    }

    /// Reads the record held by `entry` again into `scratch` when its entries were dropped; false when they were
    /// kept (or `entry` holds no record).
    private mutating func reread(_ entry: Int) -> Bool {
        let table = index.table
        guard entry >= 0, entry < table.entries.count, table.entries[entry].state.kind == .record,
              table.entries[entry].state.entriesDropped, let reading = index.rereading,
              let range = table.valueRange(entry)
        else { return false }
        if scratch == nil {
            scratch = PayloadIndex.Builder(bytes: table.bytes, map: table.map, expectedBytes: range.count)
        }
        scratch?.table.entries.removeAll(keepingCapacity: true)
        scratch?.table.wide.removeAll(keepingCapacity: true)
        scratch?.topLevel.removeAll(keepingCapacity: true)
        scratch = table.bytes.withUnsafeBufferPointer { buffer in
            // Moved into the decoder and back, so its entries are appended in place, never copied.
            guard let builder = scratch.take() else { return nil }
            var decoder = AttributeDecoder(buffer: buffer, index: builder, limits: reading.limits, nodesRead: 0,
                                           toleratesTruncation: reading.toleratesTruncation,
                                           takesCanonicalPath: reading.takesCanonicalPath)
            // The first read of these bytes threw nothing; were this one to, the entries read so far are shown.
            if let set = try? decoder.reader.readSingle(in: range, depth: reading.depth) {
                try? decoder.walkAttributes(of: set, scope: .inApp)
            }
            return decoder.index
        }
        return scratch != nil
    }
}
