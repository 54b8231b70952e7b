import FuzzSupport
import ReceiptASN1
import ReceiptModel

/// Reads a payload the way `dump` does and checks the invariants the index promises on the way: every attribute and
/// record lies inside the file, a record holds in-app attributes only and lies inside its type-17 attribute, and
/// every entry of the index is a top-level or a record attribute.
public struct PayloadTouch {
    public let harness: String
    /// Size of the file the payload's offsets point into.
    public let fileSize: Int
    /// Accumulated so the work cannot be optimised away.
    public private(set) var checksum = 0

    public init(harness: String, fileSize: Int) {
        self.harness = harness
        self.fileSize = fileSize
    }

    /// Reads `file` whole as a payload and touches every attribute, the records' ones included.
    public mutating func read(_ file: [UInt8]) -> ReceiptPayload {
        let payload = PayloadReader.read(
            file: file, segments: [0..<file.count], depth: 0, limits: .default,
            nodesRead: 0)
        touchFindings(payload)
        var entries = 0
        var records = 0
        for attribute in payload.attributes {
            entries += 1
            touch(attribute, scope: .receipt)
            guard let record = attribute.record else { continue }
            records += 1
            checkOffset(record.offset, "record offset")
            checkOffset(record.offset + record.length, "record end")
            guard record.offset >= attribute.offset,
                record.offset + record.length <= attribute.offset + attribute.length
            else {
                Fuzz.fail(harness, "record at \(record.offset)+\(record.length) outside its attribute", input: file)
            }
            for inner in record.attributes {
                entries += 1
                touch(inner, scope: .inApp)
                guard inner.offset >= record.offset, inner.offset + inner.length <= record.offset + record.length else {
                    Fuzz.fail(harness, "record attribute at \(inner.offset) outside its record", input: file)
                }
                if inner.record != nil { Fuzz.fail(harness, "an in-app attribute holds a nested record", input: file) }
            }
        }
        if records != payload.inAppRecords.count {
            Fuzz.fail(harness, "\(records) type-17 records listed, \(payload.inAppRecords.count) indexed", input: file)
        }
        if entries != payload.index.entryCount {
            Fuzz.fail(harness, "\(entries) attributes reachable, \(payload.index.entryCount) in the index", input: file)
        }
        if let first = payload.first(2), first.type != 2 {
            Fuzz.fail(harness, "first(2) returned an attribute of type \(String(describing: first.type))")
        }
        blackHole(checksum)
        return payload
    }

    /// Checks the offsets of the payload, its findings and its error.
    mutating func touchFindings(_ payload: ReceiptPayload) {
        checkOffset(payload.offset, "payload offset")
        for finding in payload.findings {
            if let offset = finding.offset { checkOffset(offset, "finding \(finding.code) offset") }
            checksum &+= finding.code.utf8.count &+ finding.message.utf8.count
        }
        if let error = payload.error {
            checkOffset(error.offset, "read error \(error.code) offset")
            checksum &+= error.code.utf8.count
        }
    }

    /// Touches every fact of one attribute and checks where it lies.
    public mutating func touch(_ attribute: Attribute, scope: FieldScope) {
        checkOffset(attribute.offset, "attribute offset")
        guard attribute.length >= 0 else { Fuzz.fail(harness, "attribute length \(attribute.length)") }
        checkOffset(attribute.offset + attribute.length, "attribute end")
        if attribute.scope != scope { Fuzz.fail(harness, "attribute at \(attribute.offset) in the wrong scope") }
        if let valueOffset = attribute.valueOffset {
            checkOffset(valueOffset + attribute.valueBytes.count, "value end")
        }
        checksum &+= attribute.valueBytes.count &+ attribute.contentBytes.count
        checksum &+= Int(truncatingIfNeeded: attribute.type ?? 0) &+ Int(truncatingIfNeeded: attribute.version ?? 0)
        switch attribute.kind {
        case .date: checksum &+= Int(truncatingIfNeeded: attribute.date?.millisecondsSinceEpoch ?? 1)
        case .integer: checksum &+= Int(truncatingIfNeeded: attribute.integer ?? 0)
        case .boolean: checksum &+= attribute.boolean == true ? 1 : 0
        default: checksum &+= 1
        }
    }

    /// Offsets point into the file (its end included, for "input ends here").
    func checkOffset(_ offset: Int, _ what: @autoclosure () -> String) {
        guard offset >= 0, offset <= fileSize else {
            Fuzz.fail(harness, "\(what()) \(offset) is outside the \(fileSize)-byte input")
        }
    }
}
