import ReceiptASN1
import ReceiptPKCS7

/// What every on-demand decode needs: the payload buffer, where its offsets land in the file, and the limits.
public struct PayloadContext: Sendable {
    /// The buffer the attributes live in: the input file itself, or the reassembled segments of a constructed
    /// OCTET STRING.
    public let bytes: [UInt8]
    /// Translates offsets in `bytes` to absolute input offsets.
    public let map: SegmentMap
    public let limits: ASN1Limits
}

/// Decodes attributes and in-app records. The reading pass runs it with `recording` on to collect findings;
/// on-demand access runs the same code with `recording` off, so what is shown is always what was checked.
struct AttributeDecoder {
    var reader: ASN1Reader
    let context: PayloadContext
    let recording: Bool
    /// Whether the payload may be cut short (its container was): see `ASN1Reader.toleratesTruncation`.
    let toleratesTruncation: Bool
    var findings: FindingSink
    private(set) var anomalies = EncodingAnomalyLog(layer: "payload")

    init(context: PayloadContext, recording: Bool, nodesRead: Int = 0, toleratesTruncation: Bool) {
        self.context = context
        self.recording = recording
        self.toleratesTruncation = toleratesTruncation
        self.findings = FindingSink(recording: recording)
        self.reader = ASN1Reader(context.bytes, rules: .ber, limits: context.limits, nodesRead: nodesRead,
                                 toleratesTruncation: toleratesTruncation)
    }

    var bytes: [UInt8] { context.bytes }

    /// Findings met while decoding: kept when recording, dropped otherwise. Findings are built only on exceptional
    /// paths, so one built and dropped costs nothing on well-formed receipts.
    struct FindingSink {
        let recording: Bool
        private(set) var items: [Finding] = []

        init(recording: Bool) {
            self.recording = recording
        }

        mutating func append(_ finding: Finding) {
            if recording { items.append(finding) }
        }
    }

    func absolute(_ offset: Int) -> Int { context.map.fileOffset(offset) }

    /// Keeps a finding when recording; drops it (unbuilt, since `make` is not called) otherwise.
    mutating func note(_ make: @autoclosure () -> Finding) {
        if recording { note(make()) }
    }

    mutating func noteAnomalies(_ node: ASN1Node) {
        if recording { anomalies.note(node) }
    }

    /// Every finding recorded, encoding anomalies first.
    var allFindings: [Finding] { anomalies.findings + findings.items }

    // MARK: - SETs of attributes

    /// The attributes of a SET, with the partial list attached to any error that stops the walk.
    struct PartialRead: Error {
        var readError: ReceiptReadError
        var attributesSoFar: [ReceiptAttribute]
    }

    /// Walks a SET of attributes, handing each to `visit` as it is decoded (nothing is kept here).
    /// Throws on damage to the SET itself, after visiting everything before it.
    mutating func walkAttributes(of set: ASN1Node, scope: FieldScope,
                                 visit: (inout AttributeDecoder, ReceiptAttribute, ASN1Node) -> Void)
        throws(ReceiptReadError)
    {
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
                throw ReceiptReadError(payload: error, context: context, map: self.context.map)
            }
            noteAnomalies(node)
            if recording, let previous, !reportedUnsorted, !node.anomalies.contains(.truncated),
               !Self.lessOrEqual(bytes, previous, node.encodingRange) {
                reportedUnsorted = true
                findings.append(Finding(.info, "ber-unsorted-set", at: absolute(node.offset),
                             "\(scope == .receipt ? "payload" : "in-app record") SET OF is not in DER order"))
            }
            previous = node.encodingRange
            let attribute = readAttribute(node, scope: scope)
            if recording, let type = attribute.type, seen.countAndCheckSecond(type),
               type != FieldTable.inAppRecordType {
                noteDuplicate(attribute, type: type, scope: scope)
            }
            visit(&self, attribute, node)
        }
    }

    /// All attributes of a SET (an in-app record's), decoded; stops quietly where the SET is damaged.
    mutating func attributes(of set: ASN1Node, scope: FieldScope) -> [ReceiptAttribute] {
        var result: [ReceiptAttribute] = []
        try? walkAttributes(of: set, scope: scope) { _, attribute, _ in result.append(attribute) }
        return result
    }

    /// Decodes the one attribute whose element starts at `position` and must end by `limit`.
    mutating func attribute(at position: Int, limit: Int, depth: Int, scope: FieldScope) -> ReceiptAttribute? {
        guard let node = try? reader.readNode(at: position, limit: limit, depth: depth) else { return nil }
        return readAttribute(node, scope: scope)
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

    /// Keeps `range` of the buffer as the attribute's undecoded value.
    func keepRaw(_ attribute: inout ReceiptAttribute, _ range: Range<Int>) {
        attribute.valueRange = range
        attribute.valueOffset = absolute(range.lowerBound)
        attribute.value = .raw
    }

    /// "attribute at offset N", built only when a finding needs it.
    func place(_ attribute: ReceiptAttribute) -> String { "attribute at offset \(attribute.offset)" }

    mutating func readAttribute(_ node: ASN1Node, scope: FieldScope) -> ReceiptAttribute {
        var attribute = ReceiptAttribute(offset: absolute(node.offset), length: node.encodedLength, scope: scope)
        guard node.tag == .sequence else {
            findings.append(Finding(.error, "attribute-not-sequence", at: attribute.offset,
                                    "\(place(attribute)) is \(node.tag.name), not a SEQUENCE { type, version, value }"))
            keepRaw(&attribute, node.contentRange)
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
                noteAnomalies(field)
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
            keepRaw(&attribute, valueNode.encodingRange)
            return attribute
        }
        if valueNode.tag.isConstructed {
            findings.append(Finding(.warning, "attribute-value-constructed", at: absolute(valueNode.offset),
                                    "\(place(attribute)): value OCTET STRING is constructed; shown undecoded"))
            keepRaw(&attribute, valueNode.contentRange)
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
        noteAnomalies(inner)
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
                                    "\(valuePlace(attribute)): \"\(Self.printable(text))\" is not an RFC 3339 date: \(reason)"))
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
        if inner.tag != .set {
            findings.append(Finding(.error, "record-not-set", at: absolute(inner.offset),
                         "in-app record at offset \(absolute(inner.offset)) is \(inner.tag.name), not a SET"))
            guard inner.tag.isConstructed else {
                attribute.value = .raw
                return
            }
        }
        let record = InAppRecord(offset: absolute(inner.offset), length: inner.encodedLength, node: inner,
                                 context: context, toleratesTruncation: toleratesTruncation)
        if recording {
            // Check the record's own attributes now, so their findings are known; keep nothing.
            var count = 0
            do {
                try walkAttributes(of: inner, scope: .inApp) { _, _, _ in count += 1 }
            } catch {
                findings.append(Finding(.error, "record-malformed", at: error.offset,
                             "in-app record at offset \(record.offset): \(error.message)"))
            }
            if count == 0 {
                findings.append(Finding(.warning, "record-empty", at: record.offset,
                             "in-app record at offset \(record.offset) has no attributes"))
            }
        }
        attribute.record = record
    }
}
