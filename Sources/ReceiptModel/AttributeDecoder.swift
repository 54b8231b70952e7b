import ReceiptASN1
import ReceiptDiagnostics
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

/// Decodes attributes and in-app records into views, over the payload buffer borrowed for the decoder's life.
///
/// The reading pass runs it with `recording` on to collect findings; on-demand access runs the same code with
/// `recording` off, so what is shown is always what was checked. On a well-formed receipt the path through here
/// allocates nothing and builds no String: findings are built only when recording, on exceptional paths.
struct AttributeDecoder {
    var reader: ASN1BufferReader
    let map: SegmentMap
    let recording: Bool
    /// Whether the payload may be cut short (its container was): see `ASN1ReadState.toleratesTruncation`.
    let toleratesTruncation: Bool
    private(set) var findings: [Finding] = []
    private(set) var anomalies = EncodingAnomalyLog(layer: "payload")
    /// Whether the text value `decodeElement` last accepted holds a NUL byte (found by the same check).
    private var lastTextContainsNUL = false

    /// Whether attributes in the canonical DER shape take `canonicalFields` (off only to test it against the
    /// general path).
    let usesCanonicalPath: Bool

    init(buffer: UnsafeBufferPointer<UInt8>, map: SegmentMap, limits: ASN1Limits, recording: Bool,
         nodesRead: Int = 0, toleratesTruncation: Bool, usesCanonicalPath: Bool = true) {
        self.usesCanonicalPath = usesCanonicalPath
        self.reader = ASN1BufferReader(buffer, state: ASN1ReadState(rules: .ber, limits: limits, nodesRead: nodesRead,
                                                                    toleratesTruncation: toleratesTruncation))
        self.map = map
        self.mapIsIdentity = map.isIdentityMap
        self.recording = recording
        self.toleratesTruncation = toleratesTruncation
    }

    var buffer: UnsafeBufferPointer<UInt8> { reader.buffer }

    /// Whether `map` is the identity, looked up once: the hot path translates two offsets per attribute.
    let mapIsIdentity: Bool

    @inline(__always)
    func absolute(_ offset: Int) -> Int { mapIsIdentity ? offset : map.fileOffset(offset) }

    /// Keeps a finding when recording, drops it otherwise. Findings are built only on exceptional paths, so one
    /// built and dropped costs nothing on a well-formed receipt.
    mutating func note(_ finding: Finding) {
        if recording { findings.append(finding) }
    }

    @inline(__always)
    mutating func noteAnomalies(_ node: ASN1Node) {
        if recording && !node.anomalies.isEmpty { anomalies.note(node) }
    }

    /// Every finding recorded, encoding anomalies first.
    var allFindings: [Finding] { anomalies.findings + findings }

    // MARK: - SETs of attributes

    /// Walks a SET of attributes, handing each view to `visit` as it is decoded (nothing is kept here). When
    /// recording, the attributes of each in-app record are handed to `visitRecordAttribute` as the record is
    /// checked, before the type-17 attribute that holds them. Throws on damage to the SET itself, after visiting
    /// everything before it.
    mutating func walkAttributes(of set: ASN1Node, scope: FieldScope,
                                 visitRecordAttribute: (AttributeView) -> Void = { _ in },
                                 visit: (inout AttributeDecoder, AttributeView, ASN1Node) -> Void)
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
                throw ReceiptReadError(payload: error, context: context, map: map)
            }
            noteAnomalies(node)
            if recording, let previous, !reportedUnsorted, !node.anomalies.contains(.truncated),
               !Self.lessOrEqual(buffer, previous, node.encodingRange) {
                reportedUnsorted = true
                note(Finding(.berUnsortedSet, at: absolute(node.offset),
                             "\(scope == .receipt ? "payload" : "in-app record") SET OF is not in DER order"))
            }
            previous = node.encodingRange
            let attribute = readAttribute(node, scope: scope, visitRecordAttribute: visitRecordAttribute)
            if recording, let type = attribute.type, seen.countAndCheckSecond(type),
               type != FieldTable.inAppRecordType {
                noteDuplicate(attribute, type: type, scope: scope)
            }
            visit(&self, attribute, node)
        }
    }

    /// Decodes the one attribute whose element starts at `position` and must end by `limit`.
    mutating func attribute(at position: Int, limit: Int, depth: Int, scope: FieldScope) -> AttributeView? {
        guard let node = try? reader.readNode(at: position, limit: limit, depth: depth) else { return nil }
        return readAttribute(node, scope: scope)
    }

    mutating func noteDuplicate(_ attribute: AttributeView, type: Int64, scope: FieldScope) {
        let documented = attribute.descriptor?.isDocumented ?? false
        let place = scope == .receipt ? "the receipt" : "an in-app record"
        note(Finding(.duplicateAttribute, severity: documented ? .error : .warning, at: attribute.offset,
                     "type \(type) (\(attribute.name)) occurs more than once in \(place): validators disagree on which one counts"))
    }

    /// DER SET OF order: encodings compared as octet strings, a shorter prefix first. Compares eight bytes at a
    /// time: consecutive type-17 attributes share long prefixes.
    static func lessOrEqual(_ buffer: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        guard lhs.lowerBound >= 0, rhs.lowerBound >= 0, lhs.upperBound <= buffer.count,
              rhs.upperBound <= buffer.count, let base = buffer.baseAddress
        else { return true }
        let common = Swift.min(lhs.count, rhs.count)
        var index = 0
        let raw = UnsafeRawPointer(base)
        while common &- index >= 8 {
            let left = raw.loadUnaligned(fromByteOffset: lhs.lowerBound &+ index, as: UInt64.self).bigEndian
            let right = raw.loadUnaligned(fromByteOffset: rhs.lowerBound &+ index, as: UInt64.self).bigEndian
            if left != right { return left < right }
            index &+= 8
        }
        while index < common {
            let left = buffer[lhs.lowerBound &+ index]
            let right = buffer[rhs.lowerBound &+ index]
            if left != right { return left < right }
            index &+= 1
        }
        return lhs.count <= rhs.count
    }

    // MARK: One attribute

    /// Keeps `range` of the buffer as the attribute's undecoded value.
    func keepRaw(_ attribute: inout AttributeView, _ range: Range<Int>) {
        attribute.valueRange = range
        attribute.valueOffset = absolute(range.lowerBound)
        attribute.value = .raw
    }

    /// "attribute at offset N", built only when a finding needs it.
    func place(_ attribute: AttributeView) -> String { "attribute at offset \(attribute.offset)" }

    mutating func readAttribute(_ node: ASN1Node, scope: FieldScope,
                                visitRecordAttribute: (AttributeView) -> Void = { _ in }) -> AttributeView {
        var attribute = AttributeView(offset: absolute(node.offset), length: node.encodedLength, scope: scope)
        guard node.tag == .sequence else {
            note(Finding(.attributeNotSequence, at: attribute.offset,
                         "\(place(attribute)) is \(node.tag.name), not a SEQUENCE { type, version, value }"))
            keepRaw(&attribute, node.contentRange)
            return attribute
        }
        if usesCanonicalPath, let value = canonicalFields(of: node, into: &attribute) {
            let valueNode = ASN1Node(tag: .octetString, offset: value.offset, contentStart: value.contentStart,
                                     contentEnd: node.contentEnd, end: node.contentEnd, depth: node.depth &+ 1,
                                     anomalies: [])
            attribute.valueRange = valueNode.contentRange
            attribute.valueOffset = absolute(valueNode.contentStart)
            decodeValue(&attribute, valueNode: valueNode, scope: scope, visitRecordAttribute: visitRecordAttribute)
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
            note(Finding(.attributeMalformed, at: absolute(error.offset),
                         "\(place(attribute)): \(error.message)"))
        }
        if fieldCount != 3 {
            note(Finding(.attributeFieldCount, at: attribute.offset,
                         "\(place(attribute)) has \(fieldCount) fields, not 3 (type, version, value)"))
        }
        if let typeNode = typeField {
            if typeNode.tag == .integer {
                attribute.type = ASN1Primitives.int64(buffer, typeNode.contentRange)
                if attribute.type == nil {
                    attribute.largeTypeRange = typeNode.contentRange
                    note(Finding(.attributeTypeOutOfRange, at: absolute(typeNode.offset),
                                 "\(place(attribute)): type INTEGER \(ASN1Primitives.hex(Array(buffer[typeNode.contentRange]))) does not fit in 64 bits"))
                }
                if ASN1Primitives.isNonMinimalInteger(buffer, typeNode.contentRange) {
                    note(Finding(.berNonMinimalInteger, at: absolute(typeNode.offset),
                                 "\(place(attribute)): type INTEGER has redundant leading octets"))
                }
            } else {
                note(Finding(.attributeTypeNotInteger, at: absolute(typeNode.offset),
                             "\(place(attribute)): type is \(typeNode.tag.name), not INTEGER"))
            }
        }
        if let versionNode = versionField {
            if versionNode.tag == .integer {
                attribute.version = ASN1Primitives.int64(buffer, versionNode.contentRange)
            } else {
                note(Finding(.attributeVersionNotInteger, at: absolute(versionNode.offset),
                             "\(place(attribute)): version is \(versionNode.tag.name), not INTEGER"))
            }
        }
        guard let valueNode = valueField else { return attribute }
        guard valueNode.tag.tagClass == .universal, valueNode.tag.number == 4 else {
            note(Finding(.attributeValueNotOctetString, at: absolute(valueNode.offset),
                         "\(place(attribute)): value is \(valueNode.tag.name), not OCTET STRING"))
            keepRaw(&attribute, valueNode.encodingRange)
            return attribute
        }
        if valueNode.tag.isConstructed {
            note(Finding(.attributeValueConstructed, at: absolute(valueNode.offset),
                         "\(place(attribute)): value OCTET STRING is constructed; shown undecoded"))
            keepRaw(&attribute, valueNode.contentRange)
            return attribute
        }
        attribute.valueRange = valueNode.contentRange
        attribute.valueOffset = absolute(valueNode.contentStart)
        decodeValue(&attribute, valueNode: valueNode, scope: scope, visitRecordAttribute: visitRecordAttribute)
        return attribute
    }

    /// The three fields of an attribute in the shape Apple writes them (a minimal INTEGER type and an INTEGER
    /// version of 1–8 octets, then a primitive OCTET STRING ending the SEQUENCE, all with short-form headers),
    /// read in one go. Anything else gives nil and takes the general path, which reads every shape and reports
    /// what is unusual. The node budget is spent as the general path spends it, so both see the same limits;
    /// tests check that both paths decode every corpus receipt to the same attributes and findings. Sets the type
    /// and version and returns where the value OCTET STRING starts and where its content starts (it ends with the
    /// attribute); on nil, nothing was set.
    @inline(__always)
    mutating func canonicalFields(of node: ASN1Node, into attribute: inout AttributeView)
        -> (offset: Int, contentStart: Int)?
    {
        let start = node.contentStart
        let end = node.contentEnd
        guard node.depth < reader.state.limits.maximumDepth, end <= buffer.count, end &- start >= 8,
              reader.state.limits.maximumNodes &- reader.state.nodesRead >= 3,
              buffer[start] == 0x02
        else { return nil }
        let typeLength = Int(buffer[start &+ 1])
        guard typeLength >= 1, typeLength <= 8 else { return nil }
        let versionAt = start &+ 2 &+ typeLength
        guard end &- versionAt >= 5, buffer[versionAt] == 0x02 else { return nil }
        let versionLength = Int(buffer[versionAt &+ 1])
        guard versionLength >= 1, versionLength <= 8 else { return nil }
        let valueAt = versionAt &+ 2 &+ versionLength
        guard end &- valueAt >= 2, buffer[valueAt] == 0x04 else { return nil }
        guard let (valueLength, valueStart) = ASN1BufferReader.shortLength(buffer, at: valueAt &+ 1, limit: end),
              end &- valueStart == valueLength
        else { return nil }
        let typeRange = (start &+ 2)..<versionAt
        guard !ASN1Primitives.isNonMinimalInteger(buffer, typeRange),
              let type = ASN1Primitives.int64(buffer, typeRange),
              let version = ASN1Primitives.int64(buffer, (versionAt &+ 2)..<valueAt)
        else { return nil }
        reader.state.nodesRead &+= 3
        attribute.type = type
        attribute.version = version
        return (valueAt, valueStart)
    }

    // MARK: Values

    mutating func decodeValue(_ attribute: inout AttributeView, valueNode: ASN1Node, scope: FieldScope,
                              visitRecordAttribute: (AttributeView) -> Void) {
        let kind = attribute.kind
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
                note(Finding(.valueNotAsn1, at: absolute(error.offset),
                             "\(valuePlace(attribute)): value is not one ASN.1 element (\(error.message))"))
            }
            return
        }
        noteAnomalies(inner)
        attribute.valueTag = inner.tag
        if kind == .inAppRecords && scope == .receipt {
            readRecord(&attribute, inner, visitRecordAttribute: visitRecordAttribute)
            return
        }
        attribute.value = decodeElement(inner, of: ValuePlace(attribute))
        checkKind(&attribute, kind: kind, inner: inner)
    }

    /// "bundle_id at offset N", built only when a finding needs it.
    func valuePlace(_ attribute: AttributeView) -> String { ValuePlace(attribute).description }

    /// Which attribute a value finding is about: the few facts its message needs, so the value decoders take
    /// these instead of a copy of the whole view they are filling in.
    struct ValuePlace: CustomStringConvertible {
        var type: Int64?
        var scope: FieldScope
        var offset: Int

        init(_ attribute: AttributeView) {
            type = attribute.type
            scope = attribute.scope
            offset = attribute.offset
        }

        /// "bundle_id at offset N".
        var description: String { "\(FieldTable.displayName(of: type, in: scope)) at offset \(offset)" }
    }

    /// Decodes one element by its own tag, whatever the field table expects.
    mutating func decodeElement(_ node: ASN1Node, of place: ValuePlace) -> DecodedValue {
        let tag = node.tag
        guard tag.tagClass == .universal, !tag.isConstructed else { return .raw }
        let range = node.contentRange
        switch tag.number {
        case 1:
            guard range.count == 1 else { return .raw }
            return .boolean(buffer[range.lowerBound] != 0)
        case 2:
            if let value = ASN1Primitives.int64(buffer, range) {
                if ASN1Primitives.isNonMinimalInteger(buffer, range) {
                    note(Finding(.berNonMinimalInteger, at: absolute(node.offset),
                                 "\(place): INTEGER has redundant leading octets"))
                }
                return .integer(value)
            }
            if range.isEmpty {
                note(Finding(.valueInvalidInteger, at: absolute(node.offset),
                             "\(place): INTEGER with no content octets"))
                return .raw
            }
            return .largeInteger(range)
        case 12:
            let check = TextCheck.of(buffer, range)
            lastTextContainsNUL = check.containsNUL
            guard check.isValidUTF8 else {
                note(Finding(.valueInvalidUtf8, at: absolute(node.offset),
                             "\(place): UTF8String is not valid UTF-8"))
                return .raw
            }
            return .text(range)
        case 18, 19, 22, 26:
            let check = TextCheck.of(buffer, range)
            lastTextContainsNUL = check.containsNUL
            guard check.isASCII else {
                note(Finding(.valueInvalidAscii, at: absolute(node.offset),
                             "\(place): \(tag.name) holds bytes above 0x7F"))
                return .raw
            }
            return .text(range)
        default:
            return .raw
        }
    }

    /// Reconciles the decoded value with the field table's expectation, with findings for mismatches.
    mutating func checkKind(_ attribute: inout AttributeView, kind: FieldKind, inner: ASN1Node) {
        let expected: ASN1Tag?
        switch kind {
        case .utf8String: expected = .utf8String
        case .ia5String, .date: expected = .ia5String
        case .integer, .flag: expected = .integer
        case .inAppRecords: expected = .set
        case .raw, .unknown: expected = nil
        }
        if let expected, inner.tag != expected {
            note(Finding(.valueUnexpectedType, at: absolute(inner.offset),
                         "\(valuePlace(attribute)): expected \(expected.name), found \(inner.tag.name)"))
        }
        switch attribute.value {
        case .text(let range):
            if kind == .date { attribute.value = date(range, at: inner.offset, of: ValuePlace(attribute)) }
            if lastTextContainsNUL {
                note(Finding(.valueEmbeddedNul, at: absolute(inner.offset),
                             "\(valuePlace(attribute)): text contains a NUL byte; C-string validators see a shorter value"))
            }
        case .integer(let number) where kind == .flag:
            if number == 0 || number == 1 {
                attribute.value = .boolean(number == 1)
            } else {
                note(Finding(.valueFlagOutOfRange, at: absolute(inner.offset),
                             "\(valuePlace(attribute)): flag is \(number), not 0 or 1"))
            }
        default:
            break
        }
    }

    mutating func date(_ range: Range<Int>, at offset: Int, of place: ValuePlace) -> DecodedValue {
        switch ReceiptDate.parse(buffer, range) {
        case .success(let parsed):
            return .date(range, parsed)
        case .failure(.empty):
            return .date(range, nil)
        case .failure(let reason):
            note(Finding(.valueInvalidDate, at: absolute(offset),
                         "\(place): \"\(Self.printable(String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)))\" is not an RFC 3339 date: \(reason)"))
            return .date(range, nil)
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

    mutating func readRecord(_ attribute: inout AttributeView, _ inner: ASN1Node,
                             visitRecordAttribute: (AttributeView) -> Void) {
        if inner.tag != .set {
            note(Finding(.recordNotSet, at: absolute(inner.offset),
                         "in-app record at offset \(absolute(inner.offset)) is \(inner.tag.name), not a SET"))
            guard inner.tag.isConstructed else {
                attribute.value = .raw
                return
            }
        }
        attribute.value = .record(inner)
        guard recording else { return }
        // Check the record's own attributes now, so their findings are known; keep nothing.
        var count = 0
        do {
            try walkAttributes(of: inner, scope: .inApp) { _, view, _ in
                count += 1
                visitRecordAttribute(view)
            }
        } catch {
            note(Finding(.recordMalformed, at: error.offset,
                         "in-app record at offset \(absolute(inner.offset)): \(error.message)"))
        }
        if count == 0 {
            note(Finding(.recordEmpty, at: absolute(inner.offset),
                         "in-app record at offset \(absolute(inner.offset)) has no attributes"))
        }
    }

    /// Visits the attributes of an in-app record's SET (quietly: stops where the SET is damaged).
    mutating func forEachAttribute(ofRecord set: ASN1Node, _ body: (AttributeView) -> Void) {
        var cursor = recordCursor(set)
        while let view = nextRecordAttribute(&cursor) { body(view) }
    }

    /// A cursor over an in-app record's attributes, for callers that need the decoder between them.
    func recordCursor(_ set: ASN1Node) -> ASN1Cursor { reader.children(of: set) }

    /// The record attribute at `cursor`, decoded quietly; nil at the end or where the SET is damaged.
    mutating func nextRecordAttribute(_ cursor: inout ASN1Cursor) -> AttributeView? {
        guard let node = try? reader.next(&cursor) else { return nil }
        return readAttribute(node, scope: .inApp)
    }
}
