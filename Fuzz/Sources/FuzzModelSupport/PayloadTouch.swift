import FuzzSupport
import ReceiptASN1
import ReceiptModel
import ReceiptPKCS7

/// Reads a payload the way `dump` does and checks the invariants the model promises on the way: ranges stay inside
/// the buffer, offsets inside the file, and the reading pass decodes exactly what on-demand access decodes.
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

    /// Reads `file` whole as a payload, touching every view the reading pass hands out. With `checkingOnDemand`,
    /// it also decodes the payload again on demand and requires the same views in the same order (each record's
    /// attributes, then the type-17 attribute holding them): the strongest oracle here, and the costliest, so
    /// harnesses that are also speed references run it on a sample of inputs (`Fuzz.sample`).
    public mutating func read(_ file: [UInt8], checkingOnDemand: Bool) -> ReceiptPayload {
        var recorded: [AttributeView] = []
        let size = file.count
        let payload = PayloadReader.read(file: file, segments: [0..<file.count], depth: 0, limits: .default,
                                         nodesRead: 0) { view, _ in
            touch(view, bufferSize: size)
            if checkingOnDemand { recorded.append(view) }
        }
        touchFindings(payload)
        if checkingOnDemand { compareOnDemand(payload, recorded: recorded) }
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

    /// Decodes `payload` again on demand: the views must be `recorded`, view for view.
    func compareOnDemand(_ payload: ReceiptPayload, recorded: [AttributeView]) {
        var onDemand: [AttributeView] = []
        onDemand.reserveCapacity(recorded.count)
        var records = 0
        payload.withViews { views in
            for index in 0..<views.count {
                let attribute = views.attribute(at: index)
                guard attribute.scope == .receipt else { Fuzz.fail(harness, "top-level attribute with scope inApp") }
                if case .record(let set) = attribute.value {
                    records += 1
                    views.forEachAttribute(ofRecord: set) { inner, _ in
                        if inner.scope != .inApp { Fuzz.fail(harness, "record attribute with scope receipt") }
                        if case .record = inner.value { Fuzz.fail(harness, "an in-app attribute holds a nested record") }
                        onDemand.append(inner)
                    }
                }
                onDemand.append(attribute)
            }
        }
        guard onDemand == recorded else {
            let index = onDemand.indices.first { $0 >= recorded.count || onDemand[$0] != recorded[$0] } ?? onDemand.count
            Fuzz.fail(harness, "the reading pass and on-demand decoding disagree at view \(index) of "
                      + "\(recorded.count) recorded / \(onDemand.count) on demand:\n  recorded  "
                      + (index < recorded.count ? "\(recorded[index])" : "none")
                      + "\n  on demand " + (index < onDemand.count ? "\(onDemand[index])" : "none"))
        }
        guard payload.inAppRecords.count == records else {
            Fuzz.fail(harness, "the reading pass found \(payload.inAppRecords.count) in-app records, on-demand "
                      + "decoding \(records)")
        }
    }

    /// Touches every field of one view and checks its ranges.
    public mutating func touch(_ view: AttributeView, bufferSize: Int) {
        checkOffset(view.offset, "attribute offset")
        guard view.length >= 0 else { Fuzz.fail(harness, "attribute length \(view.length)") }
        for range in [view.valueRange, view.largeTypeRange, view.value.range].compactMap({ $0 }) {
            guard range.lowerBound >= 0, range.upperBound <= bufferSize else {
                Fuzz.fail(harness, "range \(range) outside the \(bufferSize)-byte payload buffer")
            }
            checksum &+= range.count
        }
        if let valueOffset = view.valueOffset { checkOffset(valueOffset, "value offset") }
        checksum &+= Int(truncatingIfNeeded: view.type ?? 0) &+ Int(truncatingIfNeeded: view.version ?? 0)
        switch view.value {
        case .date(_, let parsed?): checksum &+= Int(truncatingIfNeeded: parsed.millisecondsSinceEpoch)
        case .integer(let number): checksum &+= Int(truncatingIfNeeded: number)
        case .boolean(let flag): checksum &+= flag ? 1 : 0
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

extension DecodedValue {
    /// The buffer range a text, date, large-integer or record value points at.
    var range: Range<Int>? {
        switch self {
        case .text(let range), .date(let range, _), .largeInteger(let range): return range
        case .record(let set): return set.encodingRange
        case .integer, .boolean, .raw, .absent: return nil
        }
    }
}
