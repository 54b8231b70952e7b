import FuzzSupport
import ReceiptASN1
import ReceiptModel
import ReceiptPKCS7

/// Reads every decoded part of a payload the way `dump` does, checking the invariants the model promises on the way:
/// ranges stay inside the buffer, offsets inside the file, and the reading pass agrees with on-demand decoding.
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

    /// Touches every attribute, every in-app record and every record attribute of `payload`.
    public mutating func touch(_ payload: ReceiptPayload) {
        checkOffset(payload.offset, "payload offset")
        for finding in payload.findings {
            if let offset = finding.offset { checkOffset(offset, "finding \(finding.code) offset") }
            checksum &+= finding.code.utf8.count &+ finding.message.utf8.count
        }
        if let error = payload.error {
            checkOffset(error.offset, "read error \(error.code) offset")
            checksum &+= error.code.utf8.count
        }
        // Each attribute and each record attribute is decoded once, as `dump` does; the reading pass (which
        // decided where the records are) and the on-demand decoding must agree on how many there are.
        var recordsSeen = 0
        for attribute in payload.attributes {
            touch(attribute, in: payload.bytes)
            if let record = attribute.record {
                recordsSeen += 1
                touch(record, in: payload.bytes)
            }
        }
        guard payload.inAppRecords.count == recordsSeen else {
            Fuzz.fail(harness, "the reading pass found \(payload.inAppRecords.count) in-app records, on-demand "
                      + "decoding \(recordsSeen)")
        }
        if let first = payload.first(2), first.type != 2 {
            Fuzz.fail(harness, "first(2) returned an attribute of type \(String(describing: first.type))")
        }
        blackHole(checksum)
    }

    /// Touches one in-app record and its attributes.
    public mutating func touch(_ record: InAppRecord, in bytes: [UInt8]) {
        checkOffset(record.offset, "record offset")
        for attribute in record.attributes {
            guard attribute.scope == .inApp else {
                Fuzz.fail(harness, "record attribute with scope \(attribute.scope)")
            }
            guard attribute.record == nil else { Fuzz.fail(harness, "an in-app attribute holds a nested record") }
            touch(attribute, in: bytes)
        }
    }

    /// Touches every field of one attribute and checks its ranges.
    public mutating func touch(_ attribute: ReceiptAttribute, in bytes: [UInt8]) {
        checkOffset(attribute.offset, "attribute offset")
        guard attribute.length >= 0 else { Fuzz.fail(harness, "attribute length \(attribute.length)") }
        if let range = attribute.valueRange {
            guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
                Fuzz.fail(harness, "value range \(range) outside the \(bytes.count)-byte payload buffer")
            }
            checksum &+= range.count
        }
        if let valueOffset = attribute.valueOffset { checkOffset(valueOffset, "value offset") }
        checksum &+= Int(truncatingIfNeeded: attribute.type ?? 0) &+ Int(truncatingIfNeeded: attribute.version ?? 0)
        checksum &+= attribute.typeHex?.utf8.count ?? 0
        checksum &+= attribute.descriptor?.kind == .date ? 1 : 0
        switch attribute.value {
        case .text(let text):
            checksum &+= text.utf8.count
        case .date(let text, let parsed):
            checksum &+= text.utf8.count
            if let parsed { checksum &+= Int(truncatingIfNeeded: parsed.millisecondsSinceEpoch) }
        case .integer(let number):
            checksum &+= Int(truncatingIfNeeded: number)
        case .largeInteger(let hex):
            checksum &+= hex.utf8.count
        case .boolean(let flag):
            checksum &+= flag ? 1 : 0
        case .raw, .record, .absent:
            checksum &+= 1
        }
    }

    /// Offsets point into the file (its end included, for "input ends here").
    func checkOffset(_ offset: Int, _ what: @autoclosure () -> String) {
        guard offset >= 0, offset <= fileSize else {
            Fuzz.fail(harness, "\(what()) \(offset) is outside the \(fileSize)-byte input")
        }
    }
}
