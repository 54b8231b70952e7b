import ReceiptASN1
import ReceiptDiagnostics
import ReceiptPKCS7

/// Reads the receipt payload (a SET OF ReceiptAttribute) in one pass: every attribute and in-app record is decoded
/// once, checked, and kept in the payload's `PayloadIndex`.
///
/// Structural damage to one attribute's value is a finding on that attribute and the read goes on; only damage to
/// the outer SET stops it. The node budget and depth are carried from the container read.
public enum PayloadReader {
    /// Reads the payload held in `segments` of `file` (file ranges, concatenated when more than one).
    /// `truncated` says the container was cut short, so the payload may be too.
    public static func read(
        file: [UInt8], segments: [Range<Int>], depth: Int, limits: ASN1Limits,
        nodesRead: Int, truncated: Bool = false
    ) -> ReceiptPayload {
        read(
            file: file, segments: segments, depth: depth, limits: limits, nodesRead: nodesRead, truncated: truncated,
            scope: .receipt)
    }

    /// The same, handing each in-app record to `recordSink` once read; with `keepsRecordEntries` false the index
    /// then drops the entries of each record the sink took.
    package static func read(
        file: [UInt8], segments: [Range<Int>], depth: Int, limits: ASN1Limits,
        nodesRead: Int, truncated: Bool, recordSink: RecordSink?,
        keepsRecordEntries: Bool
    ) -> ReceiptPayload {
        read(
            file: file, segments: segments, depth: depth, limits: limits, nodesRead: nodesRead, truncated: truncated,
            scope: .receipt, recordSink: recordSink, keepsRecordEntries: keepsRecordEntries)
    }

    /// Reads `bytes` as the SET of one in-app record's attributes (the value of a type-17 attribute): its
    /// attributes are the result's top-level ones.
    package static func readRecord(_ bytes: [UInt8], limits: ASN1Limits = .default) -> ReceiptPayload {
        read(
            file: bytes, segments: [0..<bytes.count], depth: 0, limits: limits, nodesRead: 0, truncated: false,
            scope: .inApp)
    }

    /// The largest payload buffer the index can address: its positions are 32-bit.
    static let maximumBufferSize = Int(UInt32.max)

    static func read(
        file: [UInt8], segments: [Range<Int>], depth: Int, limits: ASN1Limits, nodesRead: Int,
        truncated: Bool, scope: FieldScope, maximumBufferSize: Int = maximumBufferSize,
        takesCanonicalPath: Bool = true, recordSink: RecordSink? = nil,
        keepsRecordEntries: Bool = true
    ) -> ReceiptPayload {
        let size = segments.count == 1 ? file.count : segments.reduce(0) { $0 + $1.count }
        if size > maximumBufferSize {
            let offset = segments.first?.lowerBound ?? 0
            return ReceiptPayload(
                index: PayloadIndex(PayloadIndex.Builder(bytes: [], map: .identity, expectedBytes: 0)),
                offset: offset, tag: nil, findings: [],
                error: ReceiptReadError(
                    .payload, .payloadTooLarge, at: offset,
                    "the payload's buffer is \(size) bytes, more than the \(maximumBufferSize) rcpt can index"),
                encoding: EncodingSummary(), content: [])
        }
        let builder: PayloadIndex.Builder
        let range: Range<Int>
        if segments.count == 1, let only = segments.first {
            builder = PayloadIndex.Builder(bytes: file, map: .identity, expectedBytes: only.count)
            range = only
        } else {
            var joined: [UInt8] = []
            joined.reserveCapacity(segments.reduce(0) { $0 + $1.count })
            for segment in segments { joined.append(contentsOf: file[segment]) }
            builder = PayloadIndex.Builder(
                bytes: joined, map: SegmentMap(concatenating: segments),
                expectedBytes: joined.count)
            range = 0..<joined.count
        }
        let bytes = builder.table.bytes
        var outcome = Outcome()
        let index = bytes.withUnsafeBufferPointer { buffer in
            var decoder = AttributeDecoder(
                buffer: buffer, index: builder, limits: limits, nodesRead: nodesRead,
                toleratesTruncation: truncated, takesCanonicalPath: takesCanonicalPath,
                recordSink: recordSink, keepsRecordEntries: keepsRecordEntries)
            outcome.error = readAttributeSet(
                in: range, depth: depth, scope: scope, decoder: &decoder,
                outcome: &outcome)
            recordSink?.readEnded(in: decoder.index.table, buffer: buffer)
            outcome.findings = decoder.allFindings
            outcome.encoding = decoder.anomalies.summary
            outcome.encoding.add(findings: decoder.findings)
            if outcome.error == nil, let truncation = decoder.reader.state.truncation {
                outcome.error = ReceiptReadError(
                    payload: truncation, context: "the attribute SET, which is truncated",
                    map: decoder.map)
            }
            return PayloadIndex(decoder.index)
        }
        return ReceiptPayload(
            index: index, offset: index.table.fileOffset(range.lowerBound), tag: outcome.tag,
            findings: outcome.findings, error: outcome.error, encoding: outcome.encoding,
            content: bytes[range])
    }

    /// What the read found besides the index.
    private struct Outcome {
        var tag: ASN1Tag?
        var findings: [Finding] = []
        var error: ReceiptReadError?
        var encoding = EncodingSummary()
    }

    /// Reads the outer SET and walks its attributes; returns the error that stopped it.
    private static func readAttributeSet(
        in range: Range<Int>, depth: Int, scope: FieldScope,
        decoder: inout AttributeDecoder,
        outcome: inout Outcome
    ) -> ReceiptReadError? {
        let absolute = decoder.map.fileOffset
        if range.isEmpty {
            return ReceiptReadError(
                .payload, .payloadEmpty, at: absolute(range.lowerBound),
                "the signed content is empty: there is no attribute SET")
        }
        let outer: ASN1Node
        do {
            outer = try decoder.reader.readNode(at: range.lowerBound, limit: range.upperBound, depth: depth)
        } catch {
            return ReceiptReadError(payload: error, context: "the attribute SET", map: decoder.map)
        }
        decoder.noteAnomalies(outer)
        outcome.tag = outer.tag
        if outer.end < range.upperBound {
            decoder.note(
                Finding(
                    .payloadTrailingBytes, at: absolute(outer.end),
                    "\(range.upperBound - outer.end) bytes follow the attribute SET in the signed content: a reader that reads on takes what they hold (a second SET's attributes, another bundle id) and one that stops does not, as a duplicated attribute divides them"
                ))
        }
        if outer.tag == .sequence {
            decoder.note(
                Finding(
                    .payloadNotSet, at: absolute(outer.offset),
                    "the payload is a SEQUENCE, not a SET: not the shape Apple signs"))
        } else if outer.tag != .set {
            return ReceiptReadError(
                .payload, .payloadNotSet, at: absolute(outer.offset),
                "the signed content is \(outer.tag.name), not a SET of attributes")
        }
        do {
            try decoder.walkAttributes(of: outer, scope: scope) { decoder, entry in
                decoder.index.noteTopLevel(entry)
            }
        } catch {
            return error
        }
        return nil
    }
}
