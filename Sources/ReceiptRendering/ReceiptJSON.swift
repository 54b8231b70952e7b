import ReceiptModel

/// The `receipt` object of `rcpt.dump/1`: the payload as named fields (Apple's verifyReceipt names where one
/// exists), in-app records as objects, unknown types under `unknown`. The first of duplicated attributes is shown;
/// duplicates are reported as findings.
enum ReceiptJSON {
    static func write(_ payload: ReceiptPayload, to json: inout JSONWriter) {
        json.object { json in
            writeFields(payload.attributes, scope: .receipt, payload: payload, to: &json) { json in
                json.key("in_app")
                json.array { json in
                    for record in payload.inAppRecords {
                        json.object { json in
                            writeFields(record.attributes, scope: .inApp, payload: payload, to: &json) { _ in }
                        }
                    }
                }
            }
        }
    }

    /// Named fields in field-table order, then `extra` (the in-app list), then `unknown`.
    private static func writeFields(_ attributes: some Sequence<ReceiptAttribute>, scope: FieldScope,
                                    payload: ReceiptPayload,
                                    to json: inout JSONWriter, extra: (inout JSONWriter) -> Void) {
        let table = scope == .receipt ? FieldTable.receiptFields : FieldTable.inAppFields
        // The first attribute of each field-table row, found in one pass without hashing.
        var firstByRow = [ReceiptAttribute?](repeating: nil, count: table.count)
        var unknown: [(key: String, attribute: ReceiptAttribute)] = []
        for attribute in attributes {
            guard let type = attribute.type else {
                unknown.append(("0x" + (attribute.typeHex ?? ""), attribute))
                continue
            }
            guard let row = FieldTable.row(of: type, in: scope) else {
                unknown.append((String(type), attribute))
                continue
            }
            if firstByRow[row] == nil { firstByRow[row] = attribute }
        }
        for (row, descriptor) in table.enumerated() where descriptor.kind != .inAppRecords {
            guard let attribute = firstByRow[row] else { continue }
            json.key(descriptor.name)
            if let version = attribute.version, version != FieldTable.conventionalVersion(of: descriptor.type, in: scope) {
                // Unusual version: the explicit form keeps it, so `rcpt build` rebuilds the same bytes.
                json.object { json in
                    json.key("raw")
                    json.hexString(payload.valueBytes(attribute))
                    json.member("version", version)
                }
            } else {
                AttributeJSON.writeFieldValue(attribute, payload: payload, to: &json)
            }
            if case .date(_, let parsed?) = attribute.value {
                json.member(descriptor.name + "_ms", String(parsed.millisecondsSinceEpoch))
            }
        }
        extra(&json)
        json.key("unknown")
        json.object { json in
            var written: Set<String> = []
            for (key, attribute) in unknown where !written.contains(key) {
                written.insert(key)
                json.key(key)
                writeUnknownValue(attribute, payload: payload, to: &json)
            }
        }
    }

    /// An unknown type's value in a form `rcpt build` turns back into the same bytes: plain strings for
    /// UTF8String, numbers for INTEGER, and `{"asn1": …, "value": …}` or `{"raw": hex}` otherwise.
    private static func writeUnknownValue(_ attribute: ReceiptAttribute, payload: ReceiptPayload,
                                          to json: inout JSONWriter) {
        switch attribute.value {
        case .text(let text) where attribute.valueTag == .utf8String && attribute.version == 1:
            json.string(text)
        case .integer(let number) where attribute.version == 1:
            json.number(number)
        case .text(let text) where attribute.valueTag == .ia5String && attribute.version == 1:
            json.object { json in
                json.member("asn1", "IA5String")
                json.member("value", text)
            }
        default:
            json.object { json in
                json.key("raw")
                json.hexString(payload.valueBytes(attribute))
                if let version = attribute.version, version != 1 { json.member("version", version) }
            }
        }
    }
}
