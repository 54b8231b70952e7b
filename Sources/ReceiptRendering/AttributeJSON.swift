import ReceiptASN1
import ReceiptModel

/// Writes attribute values as JSON, shared by the `attributes` list and the `receipt` object. Works on views:
/// text and raw bytes go from the payload buffer straight into the output, never through a String.
enum AttributeJSON {
    /// The decoded value: string, number, boolean, or null when it is raw bytes or a record.
    static func writeValue(_ attribute: AttributeView, _ buffer: UnsafeBufferPointer<UInt8>, to json: inout JSONWriter) {
        switch attribute.value {
        case .text(let range), .date(let range, _): json.string(utf8: buffer.slice(range))
        case .integer(let number): json.number(number)
        case .largeInteger(let range): json.string("0x" + ASN1Primitives.hex(Array(buffer.slice(range))))
        case .boolean(let flag): json.bool(flag)
        case .raw, .record, .absent: json.null()
        }
    }

    /// The value as the `receipt` object shows it: decoded where possible, hex where raw.
    static func writeFieldValue(_ attribute: AttributeView, _ buffer: UnsafeBufferPointer<UInt8>,
                                to json: inout JSONWriter) {
        switch attribute.value {
        case .raw: json.hexString(valueBytes(attribute, buffer))
        case .absent: json.null()
        default: writeValue(attribute, buffer, to: &json)
        }
    }

    /// The raw value octets of `attribute`.
    static func valueBytes(_ attribute: AttributeView, _ buffer: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        buffer.slice(attribute.valueRange ?? 0..<0)
    }

    /// One entry of the `attributes` list (and of a record's `records` list).
    static func writeAttribute(_ attribute: AttributeView, _ views: inout PayloadViews, to json: inout JSONWriter) {
        let buffer = views.buffer
        json.object { json in
            json.member("type", attribute.type)
            if attribute.type == nil {
                json.member("typeHex", attribute.largeTypeRange.map { ASN1Primitives.hex(Array(buffer.slice($0))) })
            }
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
            json.hexString(valueBytes(attribute, buffer))
            json.key("value")
            writeValue(attribute, buffer, to: &json)
            if case .date(_, let parsed) = attribute.value {
                json.key("utc")
                if let parsed { parsed.withRFC3339UTC { json.string(utf8: $0) } } else { json.null() }
            }
            if case .record(let set) = attribute.value {
                json.member("recordOffset", views.map.fileOffset(set.offset))
                json.key("records")
                json.array { json in
                    views.forEachAttribute(ofRecord: set) { inner, views in writeAttribute(inner, &views, to: &json) }
                }
            }
        }
    }
}
