import ReceiptASN1
import ReceiptJSON
import ReceiptModel

/// How `rcpt.dump/1` writes one attribute, unpacked once from its entry in the payload's table (no `Attribute`
/// view, so no reference counting per attribute on a receipt of millions), its bytes read from the payload buffer
/// borrowed once per list.
enum AttributeJSON {
    /// The decoded value: string, number, boolean, or null when it is raw bytes or a record.
    static func writeValue(
        _ attribute: DecodedAttribute, in buffer: UnsafeBufferPointer<UInt8>,
        to json: inout JSONWriter
    ) {
        switch attribute.kind {
        case .text, .date: json.string(utf8: UnsafeBufferPointer(rebasing: buffer[attribute.contentRange]))
        case .integer: json.number(attribute.number)
        case .largeInteger:
            json.string("0x" + ASN1Primitives.hex(UnsafeBufferPointer(rebasing: buffer[attribute.contentRange])))
        case .boolean: json.bool(attribute.number != 0)
        case .raw, .record, .absent: json.null()
        }
    }

    /// The value as the `receipt` object shows it: decoded where possible, hex where raw.
    static func writeFieldValue(
        _ attribute: DecodedAttribute, in buffer: UnsafeBufferPointer<UInt8>,
        to json: inout JSONWriter
    ) {
        switch attribute.kind {
        case .raw: json.hexString(valueBytes(attribute, in: buffer))
        case .absent: json.null()
        default: writeValue(attribute, in: buffer, to: &json)
        }
    }

    /// The raw value octets (empty when there is no value).
    @inline(__always)
    static func valueBytes(
        _ attribute: DecodedAttribute,
        in buffer: UnsafeBufferPointer<UInt8>
    ) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[attribute.valueRange ?? 0..<0])
    }

    /// One entry of the `attributes` list (`buffer` is `table.bytes`, borrowed); a type-17 attribute's record comes
    /// from `records`, listed the same way.
    static func writeAttribute(
        _ entry: Int, in table: EntryTable, buffer: UnsafeBufferPointer<UInt8>,
        to json: inout JSONWriter, records: inout RecordRereader
    ) {
        json.object { json in
            writeMembers(entry, in: table, buffer: buffer, to: &json)
            guard table.kind(entry) == .record else { return }
            json.member("recordOffset", table.recordOffset(entry))
            json.array("records") { json in
                records.withAttributes(ofRecord: entry) { recordTable, children in
                    recordTable.bytes.withUnsafeBufferPointer { buffer in
                        for child in children {
                            json.object { json in
                                writeMembers(child, in: recordTable, buffer: buffer, to: &json)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The members of one attribute's object, its record apart.
    private static func writeMembers(
        _ entry: Int, in table: EntryTable, buffer: UnsafeBufferPointer<UInt8>,
        to json: inout JSONWriter
    ) {
        let attribute = table.decoded(entry)
        json.member("type", attribute.type)
        if attribute.type == nil {
            json.member("typeHex", attribute.largeTypeRange.map { ASN1Primitives.hex(table.bytes, $0) })
        }
        // The two facts of the field table's row, read in place (a whole descriptor is copied with its strings).
        if let type = attribute.type, let row = FieldTable.row(of: type, in: attribute.scope) {
            let fields = attribute.scope == .receipt ? FieldTable.receiptFields : FieldTable.inAppFields
            json.member("name", fields[row].name)
            json.member("documented", fields[row].isDocumented)
        } else {
            json.member("name", attribute.name)
            json.member("documented", false)
        }
        json.member("version", attribute.version)
        json.member("offset", table.fileOffset(attribute.start))
        json.member("length", attribute.end - attribute.start)
        json.member("valueOffset", attribute.valueRange.map { table.fileOffset($0.lowerBound) })
        json.key("asn1")
        if let tag = attribute.valueTag, tag.tagClass == .universal, let name = ASN1Tag.universalName(tag.number) {
            json.string(name)
        } else {
            json.string(attribute.asn1TypeName)
        }
        json.key("raw")
        json.hexString(valueBytes(attribute, in: buffer))
        json.key("value")
        writeValue(attribute, in: buffer, to: &json)
        if attribute.kind == .date {
            json.key("utc")
            if let parsed = attribute.date { parsed.withRFC3339UTC { json.string(utf8: $0) } } else { json.null() }
        }
    }
}
