import ReceiptASN1

/// How the reading pass read the in-app records whose entries it dropped: their SETs' depth and the reader's rules.
/// Reading such a record again this way yields the entries it had.
struct RecordRereading: Sendable {
    var depth: Int
    var limits: ASN1Limits
    var toleratesTruncation: Bool
    var takesCanonicalPath: Bool
}

/// Hands a renderer the entries of each in-app record of an index, whether the index kept them or dropped them
/// (`InspectionOptions.keepsRecords` false). A dropped record is read again from its bytes by one decoder, over the
/// payload buffer borrowed for the rereader's life (`reading`), into one table reused from record to record, so
/// showing every record of a large receipt holds one record's entries at a time. Only a record the first read found
/// nothing wrong with is ever dropped (see `PayloadIndex.Builder.dropRecordEntries`), so its entries come back as
/// they were, and it had no finding to lose.
package struct RecordRereader {
    private let index: PayloadIndex
    /// Reads the dropped records; nil when the index dropped none.
    private var decoder: AttributeDecoder?

    /// Calls `body` with a rereader of `index`'s records, valid for the call.
    package static func reading<Result>(_ index: PayloadIndex, _ body: (inout RecordRereader) -> Result) -> Result {
        index.table.bytes.withUnsafeBufferPointer { buffer in
            var rereader = RecordRereader(index, buffer: buffer)
            return body(&rereader)
        }
    }

    private init(_ index: PayloadIndex, buffer: UnsafeBufferPointer<UInt8>) {
        self.index = index
        guard let reading = index.rereading else { return }
        decoder = AttributeDecoder(
            buffer: buffer,
            index: PayloadIndex.Builder(
                bytes: index.table.bytes, map: index.table.map,
                expectedBytes: 0),
            limits: reading.limits, nodesRead: 0,
            toleratesTruncation: reading.toleratesTruncation,
            takesCanonicalPath: reading.takesCanonicalPath)
    }

    /// Calls `body` with the table holding the attributes of the record held by `entry`, and their entries there.
    package mutating func withAttributes<Result>(
        ofRecord entry: Int,
        _ body: (EntryTable, Range<Int>) -> Result
    ) -> Result {
        guard reread(entry), let table = decoder?.index.table else {
            return body(index.table, index.table.children(entry))
        }
        return body(table, 0..<table.entries.count)
    }

    /// The record held by `entry` as an index of its own (its attributes are the index's entries, in order), when
    /// its entries were dropped: what `InAppRecord.attributes` shows then.
    static func index(ofDroppedRecord entry: Int, in index: PayloadIndex) -> PayloadIndex? {
        reading(index) { rereader in
            guard rereader.reread(entry), let builder = rereader.decoder?.index else { return nil }
            return PayloadIndex(builder)
        }
    }

    /// Reads the record held by `entry` again into the decoder's table when its entries were dropped; false when
    /// they were kept (or `entry` holds no record).
    private mutating func reread(_ entry: Int) -> Bool {
        let table = index.table
        guard decoder != nil, entry >= 0, entry < table.entries.count, table.entries[entry].state.kind == .record,
            table.entries[entry].state.entriesDropped, let reading = index.rereading,
            let range = table.valueRange(entry)
        else { return false }
        decoder?.index.table.entries.removeAll(keepingCapacity: true)
        decoder?.index.table.wide.removeAll(keepingCapacity: true)
        // A fresh budget for each record: the first read took the record within a budget no larger.
        decoder?.reader.state.nodesRead = 0
        // The first read of these bytes threw nothing; were this one to, the entries read so far are shown.
        if let set = try? decoder?.reader.readSingle(in: range, depth: reading.depth) {
            try? decoder?.walkAttributes(of: set, scope: .inApp)
        }
        return true
    }
}
