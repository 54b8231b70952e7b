import ReceiptASN1
import ReceiptDiagnostics
import ReceiptPKCS7

/// The reading pass: decodes every attribute and in-app record once, over the payload buffer borrowed for the
/// decoder's life, appending each to the index being built and recording findings. On a well-formed receipt the
/// path through here builds no String: findings are built only on exceptional paths.
struct AttributeDecoder {
    var reader: ASN1BufferReader
    let map: SegmentMap
    internal(set) var findings: [Finding] = []
    internal(set) var anomalies = EncodingAnomalyLog(layer: "payload")
    /// How many nodes had an encoding anomaly (a record read without one, and without a finding, can be read again
    /// to the same entries).
    var anomalousNodes = 0
    /// Whether the text value `decodeElement` last accepted holds a NUL byte (found by the same check).
    var lastTextContainsNUL = false
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

    init(
        buffer: UnsafeBufferPointer<UInt8>, index: PayloadIndex.Builder, limits: ASN1Limits, nodesRead: Int,
        toleratesTruncation: Bool, takesCanonicalPath: Bool = true, recordSink: RecordSink? = nil,
        keepsRecordEntries: Bool = true
    ) {
        self.takesCanonicalPath = takesCanonicalPath
        self.recordSink = recordSink
        self.keepsRecordEntries = keepsRecordEntries
        self.reader = ASN1BufferReader(
            buffer,
            state: ASN1ReadState(
                rules: .ber, limits: limits, nodesRead: nodesRead,
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
            FieldTable.descriptor(type, in: place.scope)?.isDocumented != true
        {
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
    mutating func walkAttributes(
        of set: ASN1Node, scope: FieldScope, visit: (inout AttributeDecoder, Int) -> Void = { _, _ in }
    )
        throws(ReceiptReadError)
    {
        var cursor = reader.children(of: set)
        var previous: Range<Int>?
        var reportedUnsorted = false
        var seen = TypeCounter()
        while true {
            // An attribute in the shape Apple writes, header to value, in one inlined step.
            if takesCanonicalPath, cursor.position < cursor.end,
                let canonical = appendCanonical(
                    at: cursor.position, limit: cursor.end, depth: cursor.depth, scope: scope)
            {
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
                !Self.inOrder(buffer, previous, node.encodingRange)
            {
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
        let judged = FieldTable.descriptor(type, in: scope)?.isJudged ?? false
        let place = scope == .receipt ? "the receipt" : "an in-app record"
        note(
            Finding(
                .duplicateAttribute, severity: judged ? .error : .warning, at: absolute(position),
                "type \(type) (\(FieldTable.displayName(of: type, in: scope))) occurs more than once in \(place): validators disagree on which one counts"
            ))
    }

    /// `lessOrEqual`, decided inline by the first eight bytes when they differ (as they do for nearly every pair of
    /// neighbouring attributes).
    @inline(__always)
    static func inOrder(_ buffer: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        if lhs.count >= 8, rhs.count >= 8, lhs.lowerBound >= 0, rhs.lowerBound >= 0,
            lhs.upperBound <= buffer.count, rhs.upperBound <= buffer.count, let base = buffer.baseAddress
        {
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
    mutating func readAttribute(_ node: ASN1Node, into attribute: inout DecodedAttribute) -> Int {
        let scope = attribute.scope
        let place = place(attribute)
        guard node.tag == .sequence else {
            let tag = node.tag
            note(
                Finding(
                    .attributeNotSequence, at: absolute(node.offset),
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
        let unread = ASN1Node(
            tag: .endOfContents, offset: 0, contentStart: 0, contentEnd: 0, end: 0, depth: 0,
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
            note(
                Finding(
                    .attributeFieldCount, at: absolute(node.offset),
                    "\(place) has \(count) fields, not 3 (type, version, value)"))
        }
        if fieldCount >= 1 {
            let typeTag = typeNode.tag
            if typeTag == .integer {
                attribute.type = ASN1Primitives.int64(buffer, typeNode.contentRange)
                if attribute.type == nil {
                    attribute.largeTypeRange = typeNode.contentRange
                    let octets = Array(buffer[typeNode.contentRange])
                    note(
                        Finding(
                            .attributeTypeOutOfRange, at: absolute(typeNode.offset),
                            "\(place): type INTEGER \(ASN1Primitives.hex(octets)) does not fit in 64 bits"))
                }
                if ASN1Primitives.isNonMinimalInteger(buffer, typeNode.contentRange) {
                    note(
                        Finding(
                            .berNonMinimalInteger, at: absolute(typeNode.offset),
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
            note(
                Finding(
                    .attributeValueNotOctetString, at: absolute(valueNode.offset),
                    "\(place): value is \(valueTag.name), not OCTET STRING"))
            keepRaw(&attribute, valueNode.encodingRange)
            return index.append(attribute)
        }
        if valueNode.tag.isConstructed {
            note(
                Finding(
                    .attributeValueConstructed, at: absolute(valueNode.offset),
                    "\(place): value OCTET STRING is constructed; shown undecoded"))
            keepRaw(&attribute, valueNode.contentRange)
            return index.append(attribute)
        }
        attribute.valueRange = valueNode.contentRange
        return decodeValue(&attribute, valueNode: valueNode, scope: scope)
    }
}
