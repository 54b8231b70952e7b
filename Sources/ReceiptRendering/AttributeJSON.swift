import ReceiptJSON
import ReceiptASN1
import ReceiptModel

/// Writes attribute values as JSON, shared by the `attributes` list and the `receipt` object: text and raw bytes
/// go from the payload straight into the output, never through a String.
enum AttributeJSON {
    /// The decoded value: string, number, boolean, or null when it is raw bytes or a record.
    static func writeValue(_ attribute: Attribute, to json: inout JSONWriter) {
        switch attribute.kind {
        case .text, .date: attribute.withContentBytes { json.string(utf8: $0) }
        case .integer: json.number(attribute.integer ?? 0)
        case .largeInteger: json.string("0x" + ASN1Primitives.hex(attribute.contentBytes))
        case .boolean: json.bool(attribute.boolean ?? false)
        case .raw, .record, .absent: json.null()
        }
    }

    /// The value as the `receipt` object shows it: decoded where possible, hex where raw.
    static func writeFieldValue(_ attribute: Attribute, to json: inout JSONWriter) {
        switch attribute.kind {
        case .raw: attribute.withValueBytes { json.hexString($0) }
        case .absent: json.null()
        default: writeValue(attribute, to: &json)
        }
    }

    /// One entry of the `attributes` list (and of a record's `records` list).
    static func writeAttribute(_ attribute: Attribute, to json: inout JSONWriter) {
        json.object { json in
            let type = attribute.type
            json.member("type", type)
            if type == nil { json.member("typeHex", attribute.typeHex) }
            let descriptor = attribute.descriptor
            json.member("name", descriptor?.name ?? attribute.name)
            json.member("documented", descriptor?.isDocumented ?? false)
            json.member("version", attribute.version)
            json.member("offset", attribute.offset)
            json.member("length", attribute.length)
            json.member("valueOffset", attribute.valueOffset)
            json.key("asn1")
            if let tag = attribute.valueTag, tag.tagClass == .universal, let name = ASN1Tag.universalName(tag.number) {
                json.string(name)
            } else {
                json.string(attribute.asn1TypeName)
            }
            json.key("raw")
            attribute.withValueBytes { json.hexString($0) }
            json.key("value")
            writeValue(attribute, to: &json)
            if attribute.kind == .date {
                json.key("utc")
                if let parsed = attribute.date { parsed.withRFC3339UTC { json.string(utf8: $0) } } else { json.null() }
            }
            if let record = attribute.record {
                json.member("recordOffset", record.offset)
                json.key("records")
                json.array { json in
                    for inner in record.attributes { writeAttribute(inner, to: &json) }
                }
            }
        }
    }
}
