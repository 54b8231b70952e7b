import ReceiptASN1
import ReceiptModel

/// The `receipt` object of `rcpt.dump/1`: the payload as named fields (Apple's verifyReceipt names where one
/// exists), in-app records as objects, unknown types under `unknown`. The first of duplicated attributes is shown;
/// duplicates are reported as findings.
enum ReceiptJSON {
    static func write(_ payload: ReceiptPayload, to json: inout JSONWriter) {
        payload.withViews { views in
            var receiptFields = FieldSlots(scope: .receipt)
            var recordFields = FieldSlots(scope: .inApp)
            let buffer = views.buffer
            for index in 0..<views.count { receiptFields.add(views.attribute(at: index), buffer) }
            json.object { json in
                receiptFields.write(buffer, to: &json) { json in
                    json.key("in_app")
                    json.array { json in
                        for index in 0..<views.recordCount {
                            guard let set = views.recordSet(at: index) else { continue }
                            recordFields.reset()
                            views.forEachAttribute(ofRecord: set) { attribute, _ in
                                recordFields.add(attribute, buffer)
                            }
                            json.object { json in recordFields.write(buffer, to: &json) { _ in } }
                        }
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
        var firstByRow: [AttributeView?]
        var unknown: [(key: String, attribute: AttributeView)] = []

        init(scope: FieldScope) {
            self.scope = scope
            table = scope == .receipt ? FieldTable.receiptFields : FieldTable.inAppFields
            firstByRow = [AttributeView?](repeating: nil, count: table.count)
        }

        mutating func reset() {
            for row in firstByRow.indices { firstByRow[row] = nil }
            if !unknown.isEmpty { unknown.removeAll(keepingCapacity: true) }
        }

        mutating func add(_ attribute: AttributeView, _ buffer: UnsafeBufferPointer<UInt8>) {
            guard let type = attribute.type else {
                let hex = attribute.largeTypeRange.map { ASN1Primitives.hex(Array(buffer.slice($0))) } ?? ""
                unknown.append(("0x" + hex, attribute))
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
        func write(_ buffer: UnsafeBufferPointer<UInt8>, to json: inout JSONWriter,
                   extra: (inout JSONWriter) -> Void) {
            var empty: [String] = []
            for (row, descriptor) in table.enumerated() where descriptor.kind != .inAppRecords {
                guard let attribute = firstByRow[row] else { continue }
                if case .date(let range, nil) = attribute.value, range.isEmpty, attribute.valueTag == .ia5String,
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
                        json.hexString(AttributeJSON.valueBytes(attribute, buffer))
                        json.member("version", version)
                    }
                } else {
                    AttributeJSON.writeFieldValue(attribute, buffer, to: &json)
                }
                if case .date(_, let parsed?) = attribute.value {
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
                    ReceiptJSON.writeUnknownValue(attribute, buffer, to: &json)
                }
            }
        }
    }

    /// An unknown type's value in a form `rcpt build` turns back into the same bytes: plain strings for
    /// UTF8String, numbers for INTEGER, and `{"asn1": …, "value": …}` or `{"raw": hex}` otherwise.
    static func writeUnknownValue(_ attribute: AttributeView, _ buffer: UnsafeBufferPointer<UInt8>,
                                  to json: inout JSONWriter) {
        switch attribute.value {
        case .text(let range) where attribute.valueTag == .utf8String && attribute.version == 1:
            json.string(utf8: buffer.slice(range))
        case .integer(let number) where attribute.version == 1:
            json.number(number)
        case .text(let range) where attribute.valueTag == .ia5String && attribute.version == 1:
            json.object { json in
                json.member("asn1", "IA5String")
                json.key("value")
                json.string(utf8: buffer.slice(range))
            }
        default:
            json.object { json in
                json.key("raw")
                json.hexString(AttributeJSON.valueBytes(attribute, buffer))
                if let version = attribute.version, version != 1 { json.member("version", version) }
            }
        }
    }
}
