import ReceiptASN1
import ReceiptDiagnostics
import ReceiptPKCS7

/// The reading pass: decodes every attribute and in-app record once, over the payload buffer borrowed for the
/// decoder's life, appending each to the index being built and recording findings. On a well-formed receipt the
/// path through here builds no String: findings are built only on exceptional paths.
struct AttributeDecoder {
    var reader: ASN1BufferReader
    let map: SegmentMap
    private(set) var findings: [Finding] = []
    private(set) var anomalies = EncodingAnomalyLog(layer: "payload")
    /// How many nodes had an encoding anomaly (a record read without one, and without a finding, can be read again
    /// to the same entries).
    private var anomalousNodes = 0
    /// Whether the text value `decodeElement` last accepted holds a NUL byte (found by the same check).
    private var lastTextContainsNUL = false
    /// The index being built.
    var index: PayloadIndex.Builder

    /// Whether attributes in the shape Apple writes take `canonicalFields`, the fast path (always, but in the test
    /// that holds both paths to the same result).
    let takesCanonicalPath: Bool

    /// The field table's expected encodings, looked up once for the whole read.
    let fieldKinds = FieldTable.kinds

    /// Where each in-app record goes once read (see `RecordSink`), and whether the index keeps a record's entries
    /// after the sink has taken it.
    let recordSink: RecordSink?
    let keepsRecordEntries: Bool

    init(buffer: UnsafeBufferPointer<UInt8>, index: PayloadIndex.Builder, limits: ASN1Limits, nodesRead: Int,
         toleratesTruncation: Bool, takesCanonicalPath: Bool = true, recordSink: RecordSink? = nil,
         keepsRecordEntries: Bool = true) {
        self.takesCanonicalPath = takesCanonicalPath
        self.recordSink = recordSink
        self.keepsRecordEntries = keepsRecordEntries
        self.reader = ASN1BufferReader(buffer, state: ASN1ReadState(rules: .ber, limits: limits, nodesRead: nodesRead,
                                                                    toleratesTruncation: toleratesTruncation))
        self.map = index.table.map
        self.mapIsIdentity = index.table.map.isIdentityMap
        self.index = index
        // Reserved even when records' entries are dropped: a payload may hold no record, and what is reserved but
        // never written takes no memory.
        self.index.reserveEntries()
    }

    var buffer: UnsafeBufferPointer<UInt8> { reader.buffer }

    /// Whether `map` is the identity, looked up once.
    let mapIsIdentity: Bool

    @inline(__always)
    func absolute(_ offset: Int) -> Int { mapIsIdentity ? offset : map.fileOffset(offset) }

    /// Appends `finding`. The first one reserves room for sixteen: a damaged payload has dozens, which would
    /// otherwise grow the list five times.
    mutating func note(_ finding: Finding) {
        if findings.capacity == 0 { findings.reserveCapacity(16) }
        findings.append(finding)
    }

    /// A malformed value of the field at `place`: as it is for a type Apple documents; for one Apple does not (Apple
    /// tells validators to ignore those), a warning that stays visible, marked `ignorable` — the strict judgement
    /// (`InspectionOptions.strict`) makes it an error again.
    mutating func noteValue(_ finding: Finding, _ place: ValuePlace) {
        var finding = finding
        if finding.severity == .error, let type = place.type,
           FieldTable.descriptor(type, in: place.scope)?.isDocumented != true {
            finding.severity = .warning
            finding.fields.append(FindingField(Finding.ignorableField, "undocumented type \(type)"))
        }
        note(finding)
    }

    @inline(__always)
    mutating func noteAnomalies(_ node: ASN1Node) {
        if !node.anomalies.isEmpty {
            anomalies.note(node)
            anomalousNodes &+= 1
        }
    }

    /// Every finding recorded, encoding anomalies first.
    var allFindings: [Finding] { anomalies.findings + findings }

    // MARK: - SETs of attributes

    /// Walks a SET of attributes, appending each to the index (a record's attributes right after the type-17
    /// attribute holding them) and handing each top-level entry to `visit`. Throws on damage to the SET itself,
    /// after appending everything before it.
    mutating func walkAttributes(of set: ASN1Node, scope: FieldScope, visit: (inout AttributeDecoder, Int) -> Void = { _, _ in })
        throws(ReceiptReadError)
    {
        var cursor = reader.children(of: set)
        var previous: Range<Int>?
        var reportedUnsorted = false
        var seen = TypeCounter()
        while true {
            // An attribute in the shape Apple writes, header to value, in one inlined step.
            if takesCanonicalPath, cursor.position < cursor.end,
               let canonical = appendCanonical(at: cursor.position, limit: cursor.end, depth: cursor.depth, scope: scope) {
                let range = cursor.position..<canonical.end
                cursor.position = canonical.end
                if let previous, !reportedUnsorted, !Self.inOrder(buffer, previous, range) {
                    reportedUnsorted = true
                    noteUnsorted(at: range.lowerBound, scope: scope)
                }
                previous = range
                if seen.countAndCheckSecond(canonical.type), canonical.type != FieldTable.inAppRecordType {
                    noteDuplicate(at: range.lowerBound, type: canonical.type, scope: scope)
                }
                visit(&self, canonical.entry)
                continue
            }
            let node: ASN1Node
            do {
                guard let next = try reader.next(&cursor) else { break }
                node = next
            } catch {
                let context = scope == .receipt ? "the attribute SET" : "an in-app record"
                throw ReceiptReadError(payload: error, context: context, map: map)
            }
            noteAnomalies(node)
            if let previous, !reportedUnsorted, !node.anomalies.contains(.truncated),
               !Self.inOrder(buffer, previous, node.encodingRange) {
                reportedUnsorted = true
                noteUnsorted(at: node.offset, scope: scope)
            }
            previous = node.encodingRange
            let (entry, type) = readAttribute(node, scope: scope)
            if let type, seen.countAndCheckSecond(type), type != FieldTable.inAppRecordType {
                noteDuplicate(at: node.offset, type: type, scope: scope)
            }
            visit(&self, entry)
        }
    }

    mutating func noteUnsorted(at position: Int, scope: FieldScope) {
        let what = scope == .receipt ? "payload" : "in-app record"
        note(Finding(.berUnsortedSet, at: absolute(position), "\(what) SET OF is not in DER order"))
    }

    mutating func noteDuplicate(at position: Int, type: Int64, scope: FieldScope) {
        let documented = FieldTable.descriptor(type, in: scope)?.isDocumented ?? false
        let place = scope == .receipt ? "the receipt" : "an in-app record"
        note(Finding(.duplicateAttribute, severity: documented ? .error : .warning, at: absolute(position),
                     "type \(type) (\(FieldTable.displayName(of: type, in: scope))) occurs more than once in \(place): validators disagree on which one counts"))
    }

    /// `lessOrEqual`, decided inline by the first eight bytes when they differ (as they do for nearly every pair of
    /// neighbouring attributes).
    @inline(__always)
    static func inOrder(_ buffer: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        if lhs.count >= 8, rhs.count >= 8, lhs.lowerBound >= 0, rhs.lowerBound >= 0,
           lhs.upperBound <= buffer.count, rhs.upperBound <= buffer.count, let base = buffer.baseAddress {
            let raw = UnsafeRawPointer(base)
            let left = raw.loadUnaligned(fromByteOffset: lhs.lowerBound, as: UInt64.self).bigEndian
            let right = raw.loadUnaligned(fromByteOffset: rhs.lowerBound, as: UInt64.self).bigEndian
            if left != right { return left < right }
        }
        return lessOrEqual(buffer, lhs, rhs)
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
    func keepRaw(_ attribute: inout DecodedAttribute, _ range: Range<Int>) {
        attribute.valueRange = range
        attribute.kind = .raw
    }

    /// "attribute at offset N": the place a finding's message names, kept as a number until the message is read.
    /// Written straight into the message that interpolates it (TextOutputStreamable): no String of its own, so a
    /// damaged input's many findings cost one allocation a message fewer.
    struct AttributePlace: CustomStringConvertible, TextOutputStreamable {
        var offset: Int
        var description: String { "attribute at offset \(offset)" }

        func write<Target: TextOutputStream>(to target: inout Target) {
            target.write("attribute at offset ")
            offset.description.write(to: &target)
        }
    }

    func place(_ attribute: DecodedAttribute) -> AttributePlace { AttributePlace(offset: absolute(attribute.start)) }

    /// The finding of a field (`type`, `version`) that is not an INTEGER.
    func notInteger(_ node: ASN1Node, _ field: StaticString, of place: AttributePlace, _ code: FindingCode) -> Finding {
        let tag = node.tag
        return Finding(code, at: absolute(node.offset), "\(place): \(field) is \(tag.name), not INTEGER")
    }

    /// Decodes the attribute `node` and appends it (and, for a record, its attributes after it); returns its entry
    /// and its type. The attributes `appendCanonical` takes do not come here.
    mutating func readAttribute(_ node: ASN1Node, scope: FieldScope) -> (entry: Int, type: Int64?) {
        var attribute = DecodedAttribute(start: node.offset, end: node.end, scope: scope)
        let entry = readAttribute(node, into: &attribute)
        return (entry, attribute.type)
    }

    /// `readAttribute`'s work, decoding into `attribute`; returns the entry.
    private mutating func readAttribute(_ node: ASN1Node, into attribute: inout DecodedAttribute) -> Int {
        let scope = attribute.scope
        let place = place(attribute)
        guard node.tag == .sequence else {
            let tag = node.tag
            note(Finding(.attributeNotSequence, at: absolute(node.offset),
                         "\(place) is \(tag.name), not a SEQUENCE { type, version, value }"))
            keepRaw(&attribute, node.contentRange)
            return index.append(attribute)
        }
        if takesCanonicalPath {
            if let fields = canonicalFields(of: node) {
                attribute.type = fields.type
                attribute.version = fields.version
                attribute.valueRange = fields.value.contentRange
                return decodeValue(&attribute, valueNode: fields.value, scope: scope)
            }
        }
        // type, version, value: read into fixed slots (no per-attribute allocation), counting any extras.
        // Kept in place, not as optionals: `fieldCount` says which were read.
        let unread = ASN1Node(tag: .endOfContents, offset: 0, contentStart: 0, contentEnd: 0, end: 0, depth: 0,
                              anomalies: [])
        var typeNode = unread
        var versionNode = unread
        var valueNode = unread
        var fieldCount = 0
        var cursor = reader.children(of: node)
        do {
            while let field = try reader.next(&cursor) {
                noteAnomalies(field)
                switch fieldCount {
                case 0: typeNode = field
                case 1: versionNode = field
                case 2: valueNode = field
                default: break
                }
                fieldCount += 1
            }
        } catch {
            note(Finding(.attributeMalformed, at: absolute(error.offset), "\(place): \(error.message)"))
        }
        if fieldCount != 3 {
            let count = fieldCount
            note(Finding(.attributeFieldCount, at: absolute(node.offset),
                         "\(place) has \(count) fields, not 3 (type, version, value)"))
        }
        if fieldCount >= 1 {
            let typeTag = typeNode.tag
            if typeTag == .integer {
                attribute.type = ASN1Primitives.int64(buffer, typeNode.contentRange)
                if attribute.type == nil {
                    attribute.largeTypeRange = typeNode.contentRange
                    let octets = Array(buffer[typeNode.contentRange])
                    note(Finding(.attributeTypeOutOfRange, at: absolute(typeNode.offset),
                                 "\(place): type INTEGER \(ASN1Primitives.hex(octets)) does not fit in 64 bits"))
                }
                if ASN1Primitives.isNonMinimalInteger(buffer, typeNode.contentRange) {
                    note(Finding(.berNonMinimalInteger, at: absolute(typeNode.offset),
                                 "\(place): type INTEGER has redundant leading octets"))
                }
            } else {
                note(notInteger(typeNode, "type", of: place, .attributeTypeNotInteger))
            }
        }
        if fieldCount >= 2 {
            let versionTag = versionNode.tag
            if versionTag == .integer {
                attribute.version = ASN1Primitives.int64(buffer, versionNode.contentRange)
            } else {
                note(notInteger(versionNode, "version", of: place, .attributeVersionNotInteger))
            }
        }
        guard fieldCount >= 3 else { return index.append(attribute) }
        let valueTag = valueNode.tag
        guard valueTag.tagClass == .universal, valueTag.number == 4 else {
            note(Finding(.attributeValueNotOctetString, at: absolute(valueNode.offset),
                         "\(place): value is \(valueTag.name), not OCTET STRING"))
            keepRaw(&attribute, valueNode.encodingRange)
            return index.append(attribute)
        }
        if valueNode.tag.isConstructed {
            note(Finding(.attributeValueConstructed, at: absolute(valueNode.offset),
                         "\(place): value OCTET STRING is constructed; shown undecoded"))
            keepRaw(&attribute, valueNode.contentRange)
            return index.append(attribute)
        }
        attribute.valueRange = valueNode.contentRange
        return decodeValue(&attribute, valueNode: valueNode, scope: scope)
    }

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
                noteValue(Finding(.valueNotAsn1, at: absolute(error.offset),
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
                    note(Finding(.berNonMinimalInteger, at: absolute(node.offset),
                                 "\(place): INTEGER has redundant leading octets"))
                }
                attribute.kind = .integer
                attribute.number = value
                return
            }
            if range.isEmpty {
                let place = ValuePlace(attribute, self)
                noteValue(Finding(.valueInvalidInteger, at: absolute(node.offset),
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
                noteValue(isUTF8String
                          ? Finding(.valueInvalidUtf8, at: absolute(node.offset), "\(place): UTF8String is not valid UTF-8")
                          : Finding(.valueInvalidAscii, at: absolute(node.offset), "\(place): \(tag.name) holds bytes above 0x7F"),
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
            note(Finding(.valueUnexpectedType, at: absolute(inner.offset),
                         "\(place): expected \(expected.name(against: inner.tag)), found \(inner.tag.name(against: expected))"))
        }
        switch attribute.kind {
        case .text:
            if kind == .date { date(&attribute, at: inner.offset) }
            if lastTextContainsNUL {
                let place = ValuePlace(attribute, self)
                noteValue(Finding(.valueEmbeddedNul, at: absolute(inner.offset),
                                  "\(place): text contains a NUL byte; C-string validators see a shorter value"), place)
            }
        case .integer where kind == .flag:
            if attribute.number == 0 || attribute.number == 1 {
                attribute.kind = .boolean
            } else {
                let place = ValuePlace(attribute, self)
                let number = attribute.number
                noteValue(Finding(.valueFlagOutOfRange, at: absolute(inner.offset),
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
            noteValue(Finding(.valueInvalidDate, at: absolute(offset),
                              "\(place): \"\(Self.printable(String(decoding: text, as: UTF8.self)))\" is not an RFC 3339 date: \(reason)"),
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
            note(Finding(.recordNotSet, at: recordOffset,
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
            note(Finding(.recordMalformed, at: error.offset,
                         "in-app record at offset \(recordOffset): \(error.message)"))
        }
        index.closeRecord(entry, end: index.count)
        if count == 0 {
            note(Finding(.recordEmpty, at: recordOffset, "in-app record at offset \(recordOffset) has no attributes"))
        }
        if let recordSink, recordSink.recordRead(entry, in: index.table, firstByType: index.firstByType, buffer: buffer),
           !keepsRecordEntries {
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
