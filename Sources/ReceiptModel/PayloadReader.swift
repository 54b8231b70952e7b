import ReceiptASN1
import ReceiptPKCS7

/// Reads the receipt payload (a SET OF ReceiptAttribute) and every type-17 in-app record inside it.
///
/// Structural damage to one attribute's value is a finding on that attribute and the read goes on; only damage to
/// the outer SET stops it. The node budget and depth are carried from the container read.
public enum PayloadReader {
    /// Reads the payload held in `segments` of `file` (file ranges, concatenated when more than one).
    public static func read(file: [UInt8], segments: [Range<Int>], depth: Int, limits: ASN1Limits,
                            nodesRead: Int) -> ReceiptPayload {
        let buffer: [UInt8]
        let range: Range<Int>
        let map: SegmentMap
        if segments.count == 1, let only = segments.first {
            buffer = file
            range = only
            map = .identity
        } else {
            var joined: [UInt8] = []
            joined.reserveCapacity(segments.reduce(0) { $0 + $1.count })
            for segment in segments { joined.append(contentsOf: file[segment]) }
            buffer = joined
            range = 0..<joined.count
            map = SegmentMap(concatenating: segments)
        }
        var state = State(reader: ASN1Reader(buffer, rules: .ber, limits: limits, nodesRead: nodesRead,
                                             toleratesTruncation: true), map: map)
        return state.readPayload(in: range, depth: depth)
    }

    private struct State {
        var reader: ASN1Reader
        let map: SegmentMap
        var findings: [Finding] = []
        var anomalies = EncodingAnomalyLog(layer: "payload")
        var bytes: [UInt8] { reader.bytes }

        func absolute(_ offset: Int) -> Int { map.fileOffset(offset) }

        /// Reads the payload, then attaches every finding met on the way.
        mutating func readPayload(in range: Range<Int>, depth: Int) -> ReceiptPayload {
            var payload = readAttributeSet(in: range, depth: depth)
            payload.findings = anomalies.findings + findings
            if payload.error == nil, let truncation = reader.truncation {
                payload.error = ReceiptReadError(payload: truncation, context: "the attribute SET, which is truncated",
                                                 map: map)
            }
            return payload
        }

        mutating func readAttributeSet(in range: Range<Int>, depth: Int) -> ReceiptPayload {
            var payload = ReceiptPayload(bytes: reader.bytes, map: map, offset: absolute(range.lowerBound), tag: nil,
                                         attributes: [], findings: [], error: nil)
            if range.isEmpty {
                payload.error = ReceiptReadError(.payload, code: "payload-empty", at: absolute(range.lowerBound),
                                                 "the signed content is empty: there is no attribute SET")
                return payload
            }
            let outer: ASN1Node
            do {
                outer = try reader.readNode(at: range.lowerBound, limit: range.upperBound, depth: depth)
            } catch {
                payload.error = ReceiptReadError(payload: error, context: "the attribute SET", map: map)
                return payload
            }
            anomalies.note(outer)
            payload.tag = outer.tag
            if outer.end < range.upperBound {
                findings.append(Finding(.warning, "payload-trailing-bytes", at: absolute(outer.end),
                                        "\(range.upperBound - outer.end) bytes follow the attribute SET in the content"))
            }
            if outer.tag == .sequence {
                findings.append(Finding(.error, "payload-not-set", at: absolute(outer.offset),
                                        "the payload is a SEQUENCE, not a SET: not the shape Apple signs"))
            } else if outer.tag != .set {
                payload.error = ReceiptReadError(.payload, code: "payload-not-set", at: absolute(outer.offset),
                                                 "the signed content is \(outer.tag.name), not a SET of attributes")
                return payload
            }
            do {
                payload.attributes = try readAttributes(of: outer, scope: .receipt)
            } catch {
                payload.error = error.readError
                payload.attributes = error.attributesSoFar
            }
            return payload
        }

        /// The attributes of a SET, with the partial list attached to any error that stops the walk.
        struct PartialRead: Error {
            var readError: ReceiptReadError
            var attributesSoFar: [ReceiptAttribute]
        }

        mutating func readAttributes(of set: ASN1Node, scope: FieldScope) throws(PartialRead)
            -> [ReceiptAttribute]
        {
            var attributes: [ReceiptAttribute] = []
            var cursor = reader.children(of: set)
            var previous: Range<Int>?
            var reportedUnsorted = false
            var seen = TypeCounter()
            while true {
                let node: ASN1Node
                do {
                    guard let next = try reader.next(&cursor) else { break }
                    node = next
                } catch {
                    let context = scope == .receipt ? "the attribute SET" : "an in-app record"
                    throw PartialRead(readError: ReceiptReadError(payload: error, context: context, map: map),
                                      attributesSoFar: attributes)
                }
                anomalies.note(node)
                if let previous, !reportedUnsorted, !State.lessOrEqual(bytes, previous, node.encodingRange) {
                    reportedUnsorted = true
                    findings.append(Finding(.info, "ber-unsorted-set", at: absolute(node.offset),
                                            "\(scope == .receipt ? "payload" : "in-app record") SET OF is not in DER order"))
                }
                previous = node.encodingRange
                let attribute = readAttribute(node, scope: scope)
                if let type = attribute.type, seen.countAndCheckSecond(type), type != FieldTable.inAppRecordType {
                    noteDuplicate(attribute, type: type, scope: scope)
                }
                attributes.append(attribute)
            }
            return attributes
        }

        mutating func noteDuplicate(_ attribute: ReceiptAttribute, type: Int64, scope: FieldScope) {
            let documented = attribute.descriptor?.isDocumented ?? false
            let place = scope == .receipt ? "the receipt" : "an in-app record"
            findings.append(Finding(documented ? .error : .warning, "duplicate-attribute", at: attribute.offset,
                                    "type \(type) (\(attribute.name)) occurs more than once in \(place): validators disagree on which one counts"))
        }

        /// DER SET OF order: encodings compared as octet strings, a shorter prefix first.
        static func lessOrEqual(_ bytes: [UInt8], _ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
            var left = lhs.lowerBound
            var right = rhs.lowerBound
            while left < lhs.upperBound && right < rhs.upperBound {
                if bytes[left] != bytes[right] { return bytes[left] < bytes[right] }
                left += 1
                right += 1
            }
            return lhs.count <= rhs.count
        }

        // MARK: One attribute

        /// "attribute at offset N", built only when a finding needs it.
        func place(_ attribute: ReceiptAttribute) -> String { "attribute at offset \(attribute.offset)" }

        mutating func readAttribute(_ node: ASN1Node, scope: FieldScope) -> ReceiptAttribute {
            var attribute = ReceiptAttribute(offset: absolute(node.offset), length: node.encodedLength, type: nil,
                                             typeHex: nil, version: nil, valueRange: nil, valueOffset: nil,
                                             valueTag: nil, value: .absent, record: nil, descriptor: nil)
            guard node.tag == .sequence else {
                findings.append(Finding(.error, "attribute-not-sequence", at: attribute.offset,
                                        "\(place(attribute)) is \(node.tag.name), not a SEQUENCE { type, version, value }"))
                attribute.valueRange = node.contentRange
                attribute.valueOffset = absolute(node.contentStart)
                attribute.value = .raw
                return attribute
            }
            // type, version, value: read into fixed slots (no per-attribute allocation), counting any extras.
            var typeField: ASN1Node?
            var versionField: ASN1Node?
            var valueField: ASN1Node?
            var fieldCount = 0
            var cursor = reader.children(of: node)
            do {
                while let field = try reader.next(&cursor) {
                    anomalies.note(field)
                    switch fieldCount {
                    case 0: typeField = field
                    case 1: versionField = field
                    case 2: valueField = field
                    default: break
                    }
                    fieldCount += 1
                }
            } catch {
                findings.append(Finding(.error, "attribute-malformed", at: absolute(error.offset),
                                        "\(place(attribute)): \(error.message)"))
            }
            if fieldCount != 3 {
                findings.append(Finding(.error, "attribute-field-count", at: attribute.offset,
                                        "\(place(attribute)) has \(fieldCount) fields, not 3 (type, version, value)"))
            }
            if let typeNode = typeField {
                if typeNode.tag == .integer {
                    attribute.type = ASN1Primitives.int64(bytes, typeNode.contentRange)
                    if attribute.type == nil {
                        attribute.typeHex = ASN1Primitives.hex(bytes, typeNode.contentRange)
                        findings.append(Finding(.error, "attribute-type-out-of-range", at: absolute(typeNode.offset),
                                                "\(place(attribute)): type INTEGER \(attribute.typeHex ?? "") does not fit in 64 bits"))
                    }
                    if ASN1Primitives.isNonMinimalInteger(bytes, typeNode.contentRange) {
                        findings.append(Finding(.warning, "ber-non-minimal-integer", at: absolute(typeNode.offset),
                                                "\(place(attribute)): type INTEGER has redundant leading octets"))
                    }
                } else {
                    findings.append(Finding(.error, "attribute-type-not-integer", at: absolute(typeNode.offset),
                                            "\(place(attribute)): type is \(typeNode.tag.name), not INTEGER"))
                }
            }
            if let type = attribute.type { attribute.descriptor = FieldTable.descriptor(type, in: scope) }
            if let versionNode = versionField {
                if versionNode.tag == .integer {
                    attribute.version = ASN1Primitives.int64(bytes, versionNode.contentRange)
                } else {
                    findings.append(Finding(.error, "attribute-version-not-integer", at: absolute(versionNode.offset),
                                            "\(place(attribute)): version is \(versionNode.tag.name), not INTEGER"))
                }
            }
            guard let valueNode = valueField else { return attribute }
            guard valueNode.tag.tagClass == .universal, valueNode.tag.number == 4 else {
                findings.append(Finding(.error, "attribute-value-not-octet-string", at: absolute(valueNode.offset),
                                        "\(place(attribute)): value is \(valueNode.tag.name), not OCTET STRING"))
                attribute.valueRange = valueNode.encodingRange
                attribute.valueOffset = absolute(valueNode.offset)
                attribute.value = .raw
                return attribute
            }
            if valueNode.tag.isConstructed {
                findings.append(Finding(.warning, "attribute-value-constructed", at: absolute(valueNode.offset),
                                        "\(place(attribute)): value OCTET STRING is constructed; shown undecoded"))
                attribute.valueRange = valueNode.contentRange
                attribute.valueOffset = absolute(valueNode.contentStart)
                attribute.value = .raw
                return attribute
            }
            attribute.valueRange = valueNode.contentRange
            attribute.valueOffset = absolute(valueNode.contentStart)
            decodeValue(&attribute, valueNode: valueNode, scope: scope)
            return attribute
        }

        // MARK: Values

        mutating func decodeValue(_ attribute: inout ReceiptAttribute, valueNode: ASN1Node, scope: FieldScope) {
            let kind = attribute.descriptor?.kind ?? .unknown
            if kind == .raw {
                attribute.value = .raw
                return
            }
            let inner: ASN1Node
            do {
                inner = try reader.readSingle(in: valueNode.contentRange, depth: valueNode.depth + 1)
            } catch {
                attribute.value = .raw
                if kind != .unknown {
                    findings.append(Finding(.error, "value-not-asn1", at: absolute(error.offset),
                                            "\(valuePlace(attribute)): value is not one ASN.1 element (\(error.message))"))
                }
                return
            }
            anomalies.note(inner)
            attribute.valueTag = inner.tag
            if kind == .inAppRecords && scope == .receipt {
                readRecord(&attribute, inner)
                return
            }
            attribute.value = decodeElement(inner, of: attribute)
            checkKind(&attribute, kind: kind, inner: inner)
        }

        /// "bundle_id at offset N", built only when a finding needs it.
        func valuePlace(_ attribute: ReceiptAttribute) -> String { "\(attribute.name) at offset \(attribute.offset)" }

        /// Decodes one element by its own tag, whatever the field table expects.
        mutating func decodeElement(_ node: ASN1Node, of attribute: ReceiptAttribute) -> AttributeValue {
            let tag = node.tag
            guard tag.tagClass == .universal, !tag.isConstructed else { return .raw }
            switch tag.number {
            case 1:
                guard let flag = ASN1Primitives.boolean(bytes, node.contentRange) else { return .raw }
                return .boolean(flag)
            case 2:
                if let value = ASN1Primitives.int64(bytes, node.contentRange) {
                    if ASN1Primitives.isNonMinimalInteger(bytes, node.contentRange) {
                        findings.append(Finding(.warning, "ber-non-minimal-integer", at: absolute(node.offset),
                                                "\(valuePlace(attribute)): INTEGER has redundant leading octets"))
                    }
                    return .integer(value)
                }
                if node.contentRange.isEmpty {
                    findings.append(Finding(.error, "value-invalid-integer", at: absolute(node.offset),
                                            "\(valuePlace(attribute)): INTEGER with no content octets"))
                    return .raw
                }
                return .largeInteger(hex: ASN1Primitives.hex(bytes, node.contentRange))
            case 12:
                guard let text = ASN1Primitives.utf8String(bytes, node.contentRange) else {
                    findings.append(Finding(.error, "value-invalid-utf8", at: absolute(node.offset),
                                            "\(valuePlace(attribute)): UTF8String is not valid UTF-8"))
                    return .raw
                }
                return .text(text)
            case 18, 19, 22, 26:
                guard let text = ASN1Primitives.asciiString(bytes, node.contentRange) else {
                    findings.append(Finding(.error, "value-invalid-ascii", at: absolute(node.offset),
                                            "\(valuePlace(attribute)): \(tag.name) holds bytes above 0x7F"))
                    return .raw
                }
                return .text(text)
            default:
                return .raw
            }
        }

        /// Reconciles the decoded value with the field table's expectation, with findings for mismatches.
        mutating func checkKind(_ attribute: inout ReceiptAttribute, kind: FieldKind, inner: ASN1Node) {
            let expected: ASN1Tag?
            switch kind {
            case .utf8String: expected = .utf8String
            case .ia5String, .date: expected = .ia5String
            case .integer, .flag: expected = .integer
            case .inAppRecords: expected = .set
            case .raw, .unknown: expected = nil
            }
            if let expected, inner.tag != expected {
                findings.append(Finding(.warning, "value-unexpected-type", at: absolute(inner.offset),
                                        "\(valuePlace(attribute)): expected \(expected.name), found \(inner.tag.name)"))
            }
            if kind == .date, case .text(let text) = attribute.value {
                attribute.value = date(text, bytes: inner.contentRange, at: inner.offset, of: attribute)
            }
            if kind == .flag, case .integer(let number) = attribute.value {
                if number == 0 || number == 1 {
                    attribute.value = .boolean(number == 1)
                } else {
                    findings.append(Finding(.error, "value-flag-out-of-range", at: absolute(inner.offset),
                                            "\(valuePlace(attribute)): flag is \(number), not 0 or 1"))
                }
            }
            if containsNUL(attribute.value, inner.contentRange) {
                findings.append(Finding(.error, "value-embedded-nul", at: absolute(inner.offset),
                                        "\(valuePlace(attribute)): text contains a NUL byte; C-string validators see a shorter value"))
            }
        }

        /// Whether a text value's bytes hold a NUL (checked on the bytes, not the String).
        func containsNUL(_ value: AttributeValue, _ range: Range<Int>) -> Bool {
            switch value {
            case .text, .date:
                for index in range where bytes[index] == 0 { return true }
                return false
            default:
                return false
            }
        }

        mutating func date(_ text: String, bytes range: Range<Int>, at offset: Int, of attribute: ReceiptAttribute)
            -> AttributeValue
        {
            switch ReceiptDate.parse(bytes[range]) {
            case .success(let parsed):
                return .date(text: text, parsed: parsed)
            case .failure(.empty):
                return .date(text: text, parsed: nil)
            case .failure(let reason):
                findings.append(Finding(.error, "value-invalid-date", at: absolute(offset),
                                        "\(valuePlace(attribute)): \"\(State.printable(text))\" is not an RFC 3339 date: \(reason)"))
                return .date(text: text, parsed: nil)
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

        mutating func readRecord(_ attribute: inout ReceiptAttribute, _ inner: ASN1Node) {
            attribute.value = .record
            let place = "in-app record at offset \(absolute(inner.offset))"
            if inner.tag != .set {
                findings.append(Finding(.error, "record-not-set", at: absolute(inner.offset),
                                        "\(place) is \(inner.tag.name), not a SET"))
                guard inner.tag.isConstructed else {
                    attribute.value = .raw
                    return
                }
            }
            var record = InAppRecord(offset: absolute(inner.offset), length: inner.encodedLength, attributes: [])
            do {
                record.attributes = try readAttributes(of: inner, scope: .inApp)
            } catch {
                record.attributes = error.attributesSoFar
                findings.append(Finding(.error, "record-malformed", at: error.readError.offset,
                                        "\(place): \(error.readError.message)"))
            }
            if record.attributes.isEmpty {
                findings.append(Finding(.warning, "record-empty", at: record.offset, "\(place) has no attributes"))
            }
            attribute.record = record
        }
    }
}
