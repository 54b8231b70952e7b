import ReceiptASN1
import ReceiptModel

/// Writes attribute values as JSON, shared by the `attributes` list and the `receipt` object.
enum AttributeJSON {
    /// The decoded value: string, number, boolean, or null when it is raw bytes or a record.
    static func writeValue(_ attribute: ReceiptAttribute, to json: inout JSONWriter) {
        switch attribute.value {
        case .text(let text): json.string(text)
        case .date(let text, _): json.string(text)
        case .integer(let number): json.number(number)
        case .largeInteger(let hex): json.string("0x" + hex)
        case .boolean(let flag): json.bool(flag)
        case .raw, .record, .absent: json.null()
        }
    }

    /// The value as the `receipt` object shows it: decoded where possible, hex where raw.
    static func writeFieldValue(_ attribute: ReceiptAttribute, payload: ReceiptPayload, to json: inout JSONWriter) {
        switch attribute.value {
        case .raw: json.hexString(payload.valueBytes(attribute))
        case .absent: json.null()
        default: writeValue(attribute, to: &json)
        }
    }

    /// One entry of the `attributes` list (and of a record's `records` list).
    static func writeAttribute(_ attribute: ReceiptAttribute, payload: ReceiptPayload, to json: inout JSONWriter) {
        json.object { json in
            json.member("type", attribute.type)
            if attribute.type == nil { json.member("typeHex", attribute.typeHex) }
            json.member("name", attribute.name)
            json.member("documented", attribute.descriptor?.isDocumented ?? false)
            json.member("version", attribute.version)
            json.member("offset", attribute.offset)
            json.member("length", attribute.length)
            json.member("valueOffset", attribute.valueOffset)
            json.member("asn1", attribute.asn1TypeName)
            json.key("raw")
            json.hexString(payload.valueBytes(attribute))
            json.key("value")
            writeValue(attribute, to: &json)
            if case .date(_, let parsed) = attribute.value {
                json.member("utc", parsed?.rfc3339UTC)
            }
            if let record = attribute.record {
                json.member("recordOffset", record.offset)
                json.key("records")
                json.array { json in
                    for inner in record.attributes { writeAttribute(inner, payload: payload, to: &json) }
                }
            }
        }
    }
}
