import ReceiptASN1
import ReceiptDiagnostics
import ReceiptPKCS7

/// The reading pass, continued: an attribute's value decoded by the kind the field table gives its type, and a
/// type-17 value read as an in-app record.
extension AttributeDecoder {
    // MARK: Values

    /// Decodes the value octets of `attribute` and appends it; returns its entry.
    mutating func decodeValue(_ attribute: inout DecodedAttribute, valueNode: ASN1Node, scope: FieldScope) -> Int {
        let kind = attribute.type.map { fieldKinds.kind(of: $0, in: attribute.scope) } ?? .unknown
        if kind == .raw {
            attribute.kind = .raw
            return index.append(attribute)
        }
        let inner: ASN1Node
        do {
            inner = try reader.readSingle(in: valueNode.contentRange, depth: valueNode.depth + 1)
        } catch {
            attribute.kind = .raw
            if kind != .unknown {
                let place = ValuePlace(attribute, self)
                noteValue(
                    Finding(
                        .valueNotAsn1, at: absolute(error.offset),
                        "\(place): value is not one ASN.1 element (\(error.message))"), place)
            }
            return index.append(attribute)
        }
        noteAnomalies(inner)
        attribute.valueTag = inner.tag
        attribute.innerHeader = inner.headerLength
        if kind == .inAppRecords && scope == .receipt {
            return readRecord(&attribute, inner)
        }
        decodeElement(&attribute, inner)
        checkKind(&attribute, kind: kind, inner: inner)
        return index.append(attribute)
    }

    /// Which attribute a value finding is about: the few facts its message needs.
    struct ValuePlace: CustomStringConvertible, TextOutputStreamable {
        var type: Int64?
        var scope: FieldScope
        var offset: Int

        init(_ attribute: DecodedAttribute, _ decoder: AttributeDecoder) {
            type = attribute.type
            scope = attribute.scope
            offset = decoder.absolute(attribute.start)
        }

        /// "bundle_id at offset N".
        var description: String { "\(FieldTable.displayName(of: type, in: scope)) at offset \(offset)" }

        func write<Target: TextOutputStream>(to target: inout Target) {
            FieldTable.displayName(of: type, in: scope).write(to: &target)
            target.write(" at offset ")
            offset.description.write(to: &target)
        }
    }

    /// Decodes one element by its own tag, whatever the field table expects.
    mutating func decodeElement(_ attribute: inout DecodedAttribute, _ node: ASN1Node) {
        attribute.kind = .raw
        let tag = node.tag
        guard tag.tagClass == .universal, !tag.isConstructed else { return }
        let range = node.contentRange
        switch tag.number {
        case 1:
            guard range.count == 1 else { return }
            attribute.kind = .boolean
            attribute.number = buffer[range.lowerBound] != 0 ? 1 : 0
        case 2:
            if let value = ASN1Primitives.int64(buffer, range) {
                if ASN1Primitives.isNonMinimalInteger(buffer, range) {
                    let place = ValuePlace(attribute, self)
                    note(
                        Finding(
                            .berNonMinimalInteger, at: absolute(node.offset),
                            "\(place): INTEGER has redundant leading octets"))
                }
                attribute.kind = .integer
                attribute.number = value
                return
            }
            if range.isEmpty {
                let place = ValuePlace(attribute, self)
                noteValue(
                    Finding(
                        .valueInvalidInteger, at: absolute(node.offset),
                        "\(place): INTEGER with no content octets"), place)
                return
            }
            attribute.kind = .largeInteger
        case 12, 18, 19, 22, 26:
            // UTF8String must be UTF-8; NumericString, PrintableString, IA5String and VisibleString ASCII.
            let check = TextCheck.of(buffer, range)
            lastTextContainsNUL = check.containsNUL
            let isUTF8String = tag.number == 12
            guard isUTF8String ? check.isValidUTF8 : check.isASCII else {
                let place = ValuePlace(attribute, self)
                noteValue(
                    isUTF8String
                        ? Finding(
                            .valueInvalidUtf8, at: absolute(node.offset), "\(place): UTF8String is not valid UTF-8")
                        : Finding(
                            .valueInvalidAscii, at: absolute(node.offset),
                            "\(place): \(tag.name) holds bytes above 0x7F"),
                    place)
                return
            }
            attribute.kind = .text
        default:
            return
        }
    }

    /// Reconciles the decoded value with the field table's expectation, with findings for mismatches.
    mutating func checkKind(_ attribute: inout DecodedAttribute, kind: FieldKind, inner: ASN1Node) {
        let expected: ASN1Tag?
        switch kind {
        case .utf8String: expected = .utf8String
        case .ia5String, .date: expected = .ia5String
        case .integer, .flag: expected = .integer
        case .inAppRecords: expected = .set
        case .raw, .unknown: expected = nil
        }
        if let expected, inner.tag != expected {
            let place = ValuePlace(attribute, self)
            note(
                Finding(
                    .valueUnexpectedType, at: absolute(inner.offset),
                    "\(place): expected \(expected.name(against: inner.tag)), found \(inner.tag.name(against: expected))"
                ))
        }
        switch attribute.kind {
        case .text:
            if kind == .date { date(&attribute, at: inner.offset) }
            if lastTextContainsNUL {
                let place = ValuePlace(attribute, self)
                noteValue(
                    Finding(
                        .valueEmbeddedNul, at: absolute(inner.offset),
                        "\(place): text contains a NUL byte; C-string validators see a shorter value"), place)
            }
        case .integer where kind == .flag:
            if attribute.number == 0 || attribute.number == 1 {
                attribute.kind = .boolean
            } else {
                let place = ValuePlace(attribute, self)
                let number = attribute.number
                noteValue(
                    Finding(
                        .valueFlagOutOfRange, at: absolute(inner.offset),
                        "\(place): flag is \(number), not 0 or 1"), place)
            }
        default:
            break
        }
    }

    /// Reads the text of a date field as a date.
    mutating func date(_ attribute: inout DecodedAttribute, at offset: Int) {
        attribute.kind = .date
        let range = attribute.contentRange
        switch ReceiptDate.parse(buffer, range) {
        case .success(let parsed):
            attribute.date = parsed
        case .failure(.empty):
            break
        case .failure(let reason):
            let place = ValuePlace(attribute, self)
            let text = Array(buffer[range])
            noteValue(
                Finding(
                    .valueInvalidDate, at: absolute(offset),
                    "\(place): \"\(Self.printable(String(decoding: text, as: UTF8.self)))\" is not an RFC 3339 date: \(reason)"
                ),
                place)
        }
    }

    static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: In-app records

    /// Appends the type-17 `attribute`, then the attributes of its record `inner`; returns its entry.
    mutating func readRecord(_ attribute: inout DecodedAttribute, _ inner: ASN1Node) -> Int {
        let recordOffset = absolute(inner.offset)
        if inner.tag != .set {
            note(
                Finding(
                    .recordNotSet, at: recordOffset,
                    "in-app record at offset \(recordOffset) is \(inner.tag.name), not a SET"))
            guard inner.tag.isConstructed else {
                attribute.kind = .raw
                return index.append(attribute)
            }
        }
        attribute.kind = .record
        let entry = index.append(attribute)
        let findingsBefore = findings.count
        let anomaliesBefore = anomalousNodes
        var count = 0
        do {
            try walkAttributes(of: inner, scope: .inApp) { _, _ in count += 1 }
        } catch {
            note(
                Finding(
                    .recordMalformed, at: error.offset,
                    "in-app record at offset \(recordOffset): \(error.message)"))
        }
        index.closeRecord(entry, end: index.count)
        if count == 0 {
            note(Finding(.recordEmpty, at: recordOffset, "in-app record at offset \(recordOffset) has no attributes"))
        }
        if let recordSink,
            recordSink.recordRead(entry, in: index.table, firstByType: index.firstByType, buffer: buffer),
            !keepsRecordEntries
        {
            // Only a record read without a finding or an anomaly is dropped: reading it again from its bytes, at
            // its depth, with the same rules and a node budget no smaller, then yields the same entries.
            if findings.count == findingsBefore, anomalousNodes == anomaliesBefore, inner.anomalies.isEmpty {
                if index.rereading == nil {
                    index.rereading = RecordRereading(
                        depth: inner.depth, limits: reader.state.limits,
                        toleratesTruncation: reader.state.toleratesTruncation, takesCanonicalPath: takesCanonicalPath)
                }
                index.dropRecordEntries(entry, depth: inner.depth)
            }
        }
        return entry
    }
}
