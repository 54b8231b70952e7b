import ReceiptASN1
import ReceiptDiagnostics
import ReceiptPKCS7

/// Reads the receipt payload (a SET OF ReceiptAttribute) and checks every attribute and type-17 in-app record in
/// one pass, keeping only positions.
///
/// Structural damage to one attribute's value is a finding on that attribute and the read goes on; only damage to
/// the outer SET stops it. The node budget and depth are carried from the container read.
public enum PayloadReader {
    /// Reads the payload held in `segments` of `file` (file ranges, concatenated when more than one).
    /// `truncated` says the container was cut short, so the payload may be too. `visit` sees every attribute
    /// decoded (see `Receipt.read(_:limits:visiting:)`).
    public static func read(file: [UInt8], segments: [Range<Int>], depth: Int, limits: ASN1Limits,
                            nodesRead: Int, truncated: Bool = false,
                            visiting visit: (AttributeView, UnsafeBufferPointer<UInt8>) -> Void = { _, _ in })
        -> ReceiptPayload
    {
        read(file: file, segments: segments, depth: depth, limits: limits, nodesRead: nodesRead,
             truncated: truncated, usesCanonicalPath: true, visiting: visit)
    }

    /// `read`, with the canonical-shape fast path switchable: tests and the fuzz harnesses' oracles compare it
    /// with the general path.
    @_spi(Oracles)
    public static func read(file: [UInt8], segments: [Range<Int>], depth: Int, limits: ASN1Limits, nodesRead: Int,
                     truncated: Bool, usesCanonicalPath: Bool,
                     visiting visit: (AttributeView, UnsafeBufferPointer<UInt8>) -> Void) -> ReceiptPayload
    {
        let context: PayloadContext
        let range: Range<Int>
        if segments.count == 1, let only = segments.first {
            context = PayloadContext(bytes: file, map: .identity, limits: limits)
            range = only
        } else {
            var joined: [UInt8] = []
            joined.reserveCapacity(segments.reduce(0) { $0 + $1.count })
            for segment in segments { joined.append(contentsOf: file[segment]) }
            context = PayloadContext(bytes: joined, map: SegmentMap(concatenating: segments), limits: limits)
            range = 0..<joined.count
        }
        var payload = ReceiptPayload(context: context, offset: context.map.fileOffset(range.lowerBound), tag: nil,
                                     findings: [], error: nil, positions: [], recordIndices: [],
                                     firstIndexByType: [Int](repeating: -1, count: 64),
                                     contentEnd: range.lowerBound, depth: depth + 1, toleratesTruncation: truncated)
        context.bytes.withUnsafeBufferPointer { buffer in
            var decoder = AttributeDecoder(buffer: buffer, map: context.map, limits: limits, recording: true,
                                           nodesRead: nodesRead, toleratesTruncation: truncated,
                                           usesCanonicalPath: usesCanonicalPath)
            payload.error = readAttributeSet(in: range, depth: depth, decoder: &decoder, payload: &payload,
                                             visit: { visit($0, buffer) })
            payload.findings = decoder.allFindings
            if payload.error == nil, let truncation = decoder.reader.state.truncation {
                payload.error = ReceiptReadError(payload: truncation, context: "the attribute SET, which is truncated",
                                                 map: context.map)
            }
        }
        return payload
    }

    /// Reads the outer SET and walks its attributes, filling in positions; returns the error that stopped it.
    private static func readAttributeSet(in range: Range<Int>, depth: Int, decoder: inout AttributeDecoder,
                                         payload: inout ReceiptPayload, visit: (AttributeView) -> Void)
        -> ReceiptReadError?
    {
        let absolute = decoder.map.fileOffset
        if range.isEmpty {
            return ReceiptReadError(.payload, code: "payload-empty", at: absolute(range.lowerBound),
                                    "the signed content is empty: there is no attribute SET")
        }
        let outer: ASN1Node
        do {
            outer = try decoder.reader.readNode(at: range.lowerBound, limit: range.upperBound, depth: depth)
        } catch {
            return ReceiptReadError(payload: error, context: "the attribute SET", map: decoder.map)
        }
        decoder.noteAnomalies(outer)
        payload.tag = outer.tag
        payload.contentEnd = outer.contentEnd
        payload.depth = outer.depth + 1
        if outer.end < range.upperBound {
            decoder.note(Finding(.payloadTrailingBytes, at: absolute(outer.end),
                                 "\(range.upperBound - outer.end) bytes follow the attribute SET in the content"))
        }
        if outer.tag == .sequence {
            decoder.note(Finding(.payloadNotSet, at: absolute(outer.offset),
                                 "the payload is a SEQUENCE, not a SET: not the shape Apple signs"))
        } else if outer.tag != .set {
            return ReceiptReadError(.payload, code: "payload-not-set", at: absolute(outer.offset),
                                    "the signed content is \(outer.tag.name), not a SET of attributes")
        }
        var positions: [Int] = []
        var recordIndices: [Int] = []
        var firstIndexByType = payload.firstIndexByType
        defer {
            payload.positions = positions
            payload.recordIndices = recordIndices
            payload.firstIndexByType = firstIndexByType
        }
        do {
            try decoder.walkAttributes(of: outer, scope: .receipt, visitRecordAttribute: visit) { _, attribute, node in
                if case .record = attribute.value { recordIndices.append(positions.count) }
                if let type = attribute.type, type >= 0, type < 64, firstIndexByType[Int(type)] < 0 {
                    firstIndexByType[Int(type)] = positions.count
                }
                positions.append(node.offset)
                visit(attribute)
            }
        } catch {
            return error
        }
        return nil
    }
}
