import ReceiptJSON
import ReceiptASN1
import ReceiptModel

/// The `receipt` object of `rcpt.dump/1`: the payload as named fields (Apple's verifyReceipt names where one
/// exists), in-app records as objects, unknown types under `unknown`. The first of duplicated attributes is shown;
/// duplicates are reported as findings.
enum ReceiptObjectJSON {
    static func write(_ payload: ReceiptPayload, to json: inout JSONWriter) {
        var receiptFields = FieldSlots(scope: .receipt)
        var recordFields = FieldSlots(scope: .inApp)
        for attribute in payload.attributes { receiptFields.add(attribute) }
        json.object { json in
            receiptFields.write(to: &json) { json in
                json.key("in_app")
                json.array { json in
                    for record in payload.inAppRecords {
                        recordFields.reset()
                        for attribute in record.attributes { recordFields.add(attribute) }
                        json.object { json in recordFields.write(to: &json) { _ in } }
                    }
                }
            }
        }
    }

    /// The first attribute of each field-table row (found without hashing), and the unknown ones in order.
    /// Reused from record to record, so writing a record allocates nothing when all its types are known.
    private struct FieldSlots {
        let scope: FieldScope
        let table: [FieldDescriptor]
        var firstByRow: [Attribute?]
        var unknown: [(key: String, attribute: Attribute)] = []

        init(scope: FieldScope) {
            self.scope = scope
            table = scope == .receipt ? FieldTable.receiptFields : FieldTable.inAppFields
            firstByRow = [Attribute?](repeating: nil, count: table.count)
        }

        mutating func reset() {
            for row in firstByRow.indices { firstByRow[row] = nil }
            if !unknown.isEmpty { unknown.removeAll(keepingCapacity: true) }
        }

        mutating func add(_ attribute: Attribute) {
            guard let type = attribute.type else {
                unknown.append(("0x" + (attribute.typeHex ?? ""), attribute))
                return
            }
            guard let row = FieldTable.row(of: type, in: scope) else {
                unknown.append((String(type), attribute))
                return
            }
            if firstByRow[row] == nil { firstByRow[row] = attribute }
        }

        /// Named fields in field-table order, then `extra` (the in-app list), then `empty` (the date fields present
        /// with an empty value, left out above as Apple's JSON leaves them out, so `select(.cancellation_date)`
        /// means what it says; `rcpt build` puts them back), then `unknown`.
        func write(to json: inout JSONWriter,
                   extra: (inout JSONWriter) -> Void) {
            var empty: [String] = []
            for (row, descriptor) in table.enumerated() where descriptor.kind != .inAppRecords {
                guard let attribute = firstByRow[row] else { continue }
                if attribute.kind == .date, attribute.contentBytes.isEmpty, attribute.valueTag == .ia5String,
                   attribute.version == FieldTable.conventionalVersion(of: descriptor.type, in: scope) {
                    empty.append(descriptor.name)
                    continue
                }
                json.key(named: descriptor.name)
                if let version = attribute.version,
                   version != FieldTable.conventionalVersion(of: descriptor.type, in: scope) {
                    // Unusual version: the explicit form keeps it, so `rcpt build` rebuilds the same bytes.
                    json.object { json in
                        json.key("raw")
                        json.hexString(attribute.valueBytes)
                        json.member("version", version)
                    }
                } else {
                    AttributeJSON.writeFieldValue(attribute, to: &json)
                }
                if let parsed = attribute.date {
                    json.key(named: descriptor.name, suffix: "_ms")
                    json.quotedNumber(parsed.millisecondsSinceEpoch)
                }
            }
            extra(&json)
            if !empty.isEmpty { json.member("empty", strings: empty) }
            json.key("unknown")
            json.object { json in
                var written: Set<String> = []
                for (key, attribute) in unknown where !written.contains(key) {
                    written.insert(key)
                    json.key(named: key)
                    ReceiptObjectJSON.writeUnknownValue(attribute, to: &json)
                }
            }
        }
    }

    /// An unknown type's value in a form `rcpt build` turns back into the same bytes: plain strings for
    /// UTF8String, numbers for INTEGER, and `{"asn1": …, "value": …}` or `{"raw": hex}` otherwise.
    static func writeUnknownValue(_ attribute: Attribute, to json: inout JSONWriter) {
        switch attribute.kind {
        case .text where attribute.valueTag == .utf8String && attribute.version == 1:
            json.string(utf8: attribute.contentBytes)
        case .integer where attribute.version == 1:
            json.number(attribute.integer ?? 0)
        case .text where attribute.valueTag == .ia5String && attribute.version == 1:
            json.object { json in
                json.member("asn1", "IA5String")
                json.key("value")
                json.string(utf8: attribute.contentBytes)
            }
        default:
            json.object { json in
                json.key("raw")
                json.hexString(attribute.valueBytes)
                if let version = attribute.version, version != 1 { json.member("version", version) }
            }
        }
    }
}
