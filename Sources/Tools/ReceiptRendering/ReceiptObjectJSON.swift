import ReceiptASN1
import ReceiptJSON
import ReceiptModel

/// The `receipt` object of `rcpt.dump/1`: the payload as named fields (Apple's verifyReceipt names where one
/// exists), in-app records as objects, unknown types under `unknown`. The first of duplicated attributes is shown;
/// duplicates are reported as findings.
enum ReceiptObjectJSON {
    /// Writes the object; the records come from `records`.
    static func write(_ payload: ReceiptPayload, to json: inout JSONWriter, records: inout RecordRereader) {
        let table = payload.index.table
        var receiptFields = FieldSlots(scope: .receipt)
        var recordFields = FieldSlots(scope: .inApp)
        for entry in payload.index.topLevel { receiptFields.add(Int(entry), in: table) }
        json.object { json in
            receiptFields.write(in: table, to: &json) { json in
                json.array("in_app") { json in
                    for record in payload.index.records {
                        records.withAttributes(ofRecord: Int(record)) { recordTable, children in
                            recordFields.reset()
                            for child in children { recordFields.add(child, in: recordTable) }
                            json.object { json in recordFields.write(in: recordTable, to: &json) { _ in } }
                        }
                    }
                }
            }
        }
    }

    /// The first entry of each field-table row (found without hashing), and the unknown ones in order.
    /// Reused from record to record, so writing a record allocates nothing when all its types are known.
    private struct FieldSlots {
        let scope: FieldScope
        let fields: [FieldDescriptor]
        /// The entry of each row's first attribute, -1 where there is none.
        var firstByRow: [Int32]
        var unknown: [(key: String, entry: Int32)] = []

        init(scope: FieldScope) {
            self.scope = scope
            fields = scope == .receipt ? FieldTable.receiptFields : FieldTable.inAppFields
            firstByRow = [Int32](repeating: -1, count: fields.count)
        }

        mutating func reset() {
            for row in firstByRow.indices { firstByRow[row] = -1 }
            if !unknown.isEmpty { unknown.removeAll(keepingCapacity: true) }
        }

        mutating func add(_ entry: Int, in table: EntryTable) {
            let key = Int32(truncatingIfNeeded: entry)
            guard let type = table.type(entry) else {
                unknown.append(("0x" + (table.typeHex(entry) ?? ""), key))
                return
            }
            guard let row = FieldTable.row(of: type, in: scope) else {
                unknown.append((String(type), key))
                return
            }
            if firstByRow[row] < 0 { firstByRow[row] = key }
        }

        /// Named fields in field-table order, then `extra` (the in-app list), then `empty` (the date fields present
        /// with an empty value, left out above as Apple's JSON leaves them out, so `select(.cancellation_date)`
        /// means what it says; `rcpt build` puts them back), then `unknown`. The entries are `table`'s.
        func write(in table: EntryTable, to json: inout JSONWriter, extra: (inout JSONWriter) -> Void) {
            var empty: [String] = []
            table.bytes.withUnsafeBufferPointer { buffer in
                for (row, descriptor) in fields.enumerated() where descriptor.kind != .inAppRecords {
                    let entry = Int(firstByRow[row])
                    guard entry >= 0 else { continue }
                    let attribute = table.decoded(entry)
                    let conventional = FieldTable.conventionalVersion(of: descriptor.type, in: scope)
                    if attribute.kind == .date, attribute.contentRange.isEmpty, attribute.valueTag == .ia5String,
                        attribute.version == conventional
                    {
                        empty.append(descriptor.name)
                        continue
                    }
                    json.key(named: descriptor.name)
                    if let version = attribute.version, version != conventional {
                        // Unusual version: the explicit form keeps it, so `rcpt build` rebuilds the same bytes.
                        json.object { json in
                            json.key("raw")
                            json.hexString(AttributeJSON.valueBytes(attribute, in: buffer))
                            json.member("version", version)
                        }
                    } else {
                        AttributeJSON.writeFieldValue(attribute, in: buffer, to: &json)
                    }
                    if let parsed = attribute.date {
                        json.key(named: descriptor.name, suffix: "_ms")
                        json.quotedNumber(parsed.millisecondsSinceEpoch)
                    }
                }
            }
            extra(&json)
            if !empty.isEmpty { json.member("empty", strings: empty) }
            json.object("unknown") { json in
                var written: Set<String> = []
                for (key, entry) in unknown where !written.contains(key) {
                    written.insert(key)
                    json.key(named: key)
                    ReceiptObjectJSON.writeUnknownValue(Int(entry), in: table, to: &json)
                }
            }
        }
    }

    /// An unknown type's value in a form `rcpt build` turns back into the same bytes: plain strings for
    /// UTF8String, numbers for INTEGER, and `{"asn1": …, "value": …}` or `{"raw": hex}` otherwise.
    static func writeUnknownValue(_ entry: Int, in table: EntryTable, to json: inout JSONWriter) {
        switch table.kind(entry) {
        case .text where table.valueTag(entry) == .utf8String && table.version(entry) == 1:
            table.withContentBytes(entry) { json.string(utf8: $0) }
        case .integer where table.version(entry) == 1:
            json.number(table.number(entry))
        case .text where table.valueTag(entry) == .ia5String && table.version(entry) == 1:
            json.object { json in
                json.member("asn1", "IA5String")
                json.key("value")
                table.withContentBytes(entry) { json.string(utf8: $0) }
            }
        default:
            json.object { json in
                json.key("raw")
                table.withValueBytes(entry) { json.hexString($0) }
                if let version = table.version(entry), version != 1 { json.member("version", version) }
            }
        }
    }
}
