import ReceiptDiagnostics

/// What a read carries from one call to the next: the rules and limits, the node budget spent, and the first
/// truncation met. `ASN1Reader` and `ASN1BufferReader` share it, so a budget carries across both.
public struct ASN1ReadState: Sendable {
    public let rules: ASN1Rules
    public let limits: ASN1Limits
    /// Headers decoded so far, including those of earlier reads this budget was carried from.
    public var nodesRead: Int
    /// Whether to read a truncated input as far as it goes: an element whose length runs past the end of the
    /// buffer (or whose end-of-contents marker is missing there) is cut at the end of what is there and marked
    /// `.truncated`, and the first such cut is kept in `truncation`. An element that overruns a complete parent is
    /// still an error. Off for strict reads such as the round-trip tree.
    @usableFromInline package let toleratesTruncation: Bool
    /// The first truncation met, when truncation is tolerated.
    public var truncation: ASN1Error?

    @inlinable
    public init(
        rules: ASN1Rules = .ber, limits: ASN1Limits = .default, nodesRead: Int = 0,
        toleratesTruncation: Bool = false
    ) {
        self.rules = rules
        self.limits = limits
        self.nodesRead = nodesRead
        self.toleratesTruncation = toleratesTruncation
    }
}

/// The BER/DER reading engine over a borrowed buffer: bounded, non-recursive, with absolute offsets.
///
/// It decodes headers on demand: `readNode` returns one element, `children(of:)` and `next(_:)` walk a
/// constructed element's children lazily. Every length is checked against the bytes present before it is used;
/// nesting and the total number of headers decoded are bounded by the limits; indefinite lengths are resolved by an
/// iterative scan, never by recursion. Short-form headers (one identifier octet, lengths below 65 536), the shape of
/// nearly every element of a receipt, take an inlined path; everything else, and every error, takes the general one.
///
/// Use it inside `withUnsafeBufferPointer` (see `ASN1Reader.withBufferReader`); it must not outlive the buffer.
public struct ASN1BufferReader {
    @usableFromInline package let buffer: UnsafeBufferPointer<UInt8>
    @usableFromInline package var state: ASN1ReadState

    @inlinable
    package init(_ buffer: UnsafeBufferPointer<UInt8>, state: ASN1ReadState) {
        self.buffer = buffer
        self.state = state
    }

    /// Identifier and length octets as decoded, before any content is looked at.
    @usableFromInline
    struct Header {
        @usableFromInline var tag: ASN1Tag
        @usableFromInline var contentStart: Int
        /// -1 for an indefinite length.
        @usableFromInline var length: Int
        @usableFromInline var anomalies: ASN1HeaderAnomalies

        @inlinable
        init(tag: ASN1Tag, contentStart: Int, length: Int, anomalies: ASN1HeaderAnomalies) {
            self.tag = tag
            self.contentStart = contentStart
            self.length = length
            self.anomalies = anomalies
        }
    }

    // MARK: - Elements

    /// Reads the element that starts at `offset` and must end by `limit`, at nesting `depth`.
    @inlinable @inline(__always)
    package mutating func readNode(at offset: Int, limit: Int, depth: Int) throws(ASN1Error) -> ASN1Node {
        let limit = Swift.min(limit, buffer.count)
        if depth <= state.limits.maximumDepth, let header = quickHeader(at: offset, limit: limit),
            header.tag.number != 0 || header.tag.tagClass != .universal
        {
            state.nodesRead &+= 1
            let end = header.contentStart &+ header.length
            return ASN1Node(
                tag: header.tag, offset: offset, contentStart: header.contentStart, contentEnd: end,
                end: end, depth: depth, anomalies: header.anomalies)
        }
        return try readNodeInGeneral(at: offset, limit: limit, depth: depth)
    }

    /// Reads the one element that must fill `range` exactly.
    @inlinable @inline(__always)
    package mutating func readSingle(in range: Range<Int>, depth: Int) throws(ASN1Error) -> ASN1Node {
        let node = try readNode(at: range.lowerBound, limit: range.upperBound, depth: depth)
        guard node.end == range.upperBound else { throw Self.trailing(node.end, range.upperBound) }
        return node
    }

    @usableFromInline
    static func trailing(_ end: Int, _ limit: Int) -> ASN1Error {
        ASN1Error(.asn1TrailingBytes, at: end, "\(limit - end) bytes follow the element that should end here")
    }

    /// A cursor over the children of a constructed element.
    @inlinable
    public func children(of node: ASN1Node) -> ASN1Cursor {
        ASN1Cursor(position: node.contentStart, end: node.contentEnd, depth: node.depth + 1)
    }

    /// The next element under `cursor`, or nil at its end.
    @inlinable @inline(__always)
    public mutating func next(_ cursor: inout ASN1Cursor) throws(ASN1Error) -> ASN1Node? {
        guard cursor.position < cursor.end else { return nil }
        let node = try readNode(at: cursor.position, limit: cursor.end, depth: cursor.depth)
        cursor.position = node.end
        return node
    }

    /// The header at `offset` when it is in short form, definite, within `limit`, within the node budget and
    /// acceptable under the rules; nil sends the caller to the general path (which also reports every error).
    @inlinable @inline(__always)
    func quickHeader(at offset: Int, limit: Int) -> Header? {
        guard offset >= 0, limit &- offset >= 2, state.nodesRead < state.limits.maximumNodes else { return nil }
        let first = buffer[offset]
        guard first & 0x1F != 0x1F else { return nil }
        guard let (length, contentStart) = Self.shortLength(buffer, at: offset &+ 1, limit: limit),
            length <= limit &- contentStart
        else { return nil }
        let constructed = first & 0x20 != 0
        let tag = ASN1Tag(ASN1TagClass(bits: first >> 6), number: UInt64(first & 0x1F), constructed: constructed)
        if constructed && tag.isStringType {
            guard state.rules == .ber else { return nil }
            return Header(tag: tag, contentStart: contentStart, length: length, anomalies: .constructedString)
        }
        return Header(tag: tag, contentStart: contentStart, length: length, anomalies: [])
    }

    /// The length octets at `position` when they are DER and short (one octet below 0x80, or 0x81 / 0x82 with a
    /// minimal 1- or 2-octet length), with where the content starts; nil for anything else. Both fast paths (the
    /// quick header and the payload's canonical attribute shape) read lengths with it; the caller checks the
    /// length against its own limit.
    @inlinable @inline(__always)
    package static func shortLength(_ buffer: UnsafeBufferPointer<UInt8>, at position: Int, limit: Int)
        -> (length: Int, contentStart: Int)?
    {
        guard position >= 0, position < limit, limit <= buffer.count else { return nil }
        let lengthOctet = buffer[position]
        let next = position &+ 1
        if lengthOctet < 0x80 { return (Int(lengthOctet), next) }
        if lengthOctet == 0x81, next < limit, buffer[next] >= 0x80 { return (Int(buffer[next]), next &+ 1) }
        if lengthOctet == 0x82, limit &- next >= 2, buffer[next] != 0 {
            return (Int(buffer[next]) << 8 | Int(buffer[next &+ 1]), next &+ 2)
        }
        return nil
    }

    /// The general path of `readNode`: any header form, indefinite lengths, truncation, and every error.
    @usableFromInline
    mutating func readNodeInGeneral(at offset: Int, limit: Int, depth: Int) throws(ASN1Error) -> ASN1Node {
        guard depth <= state.limits.maximumDepth else {
            let maximum = state.limits.maximumDepth
            throw ASN1Error(.asn1DepthLimit, at: offset, "nesting deeper than the limit of \(maximum) levels")
        }
        let header = try readHeader(at: offset, limit: limit)
        if header.tag == .endOfContents {
            throw ASN1Error(
                .asn1UnexpectedEndOfContents, at: offset,
                "end-of-contents marker where an element was expected")
        }
        // [UNIVERSAL 0] is reserved for the end-of-contents marker in every form (X.690 §8.1.5), not an element.
        if header.tag.tagClass == .universal && header.tag.number == 0 {
            throw ASN1Error(
                .asn1InvalidEndOfContents, at: offset,
                "[UNIVERSAL 0] is reserved for end-of-contents and cannot be an element")
        }
        guard header.length >= 0 else {
            do {
                let contentEnd = try scanIndefiniteContent(
                    from: header.contentStart, limit: limit, depth: depth,
                    owner: offset)
                return ASN1Node(
                    tag: header.tag, offset: offset, contentStart: header.contentStart,
                    contentEnd: contentEnd, end: contentEnd + 2, depth: depth,
                    anomalies: header.anomalies)
            } catch
                where state.toleratesTruncation && limit == buffer.count
                && error.kind == .asn1MissingEndOfContents
            {
                noteTruncation(error)
                return ASN1Node(
                    tag: header.tag, offset: offset, contentStart: header.contentStart, contentEnd: limit,
                    end: limit, depth: depth, anomalies: header.anomalies.union(.truncated))
            }
        }
        let end = header.contentStart + header.length
        return ASN1Node(
            tag: header.tag, offset: offset, contentStart: header.contentStart, contentEnd: end,
            end: end, depth: depth, anomalies: header.anomalies)
    }

    // MARK: - Constructed strings

    /// The primitive segments holding a string's content, in order: one for a primitive string, every leaf of a
    /// (possibly nested) constructed one. Each segment must carry the string's universal tag: its own, or for an
    /// IMPLICIT-tagged string (`[0] IMPLICIT OCTET STRING`) the `universal` one it stands for.
    package mutating func stringSegments(of node: ASN1Node, universal: UInt64? = nil) throws(ASN1Error)
        -> [Range<Int>]
    {
        guard node.tag.isConstructed else { return [node.contentRange] }
        let segmentTag =
            universal.map { ASN1Tag(.universal, number: $0, constructed: false) }
            ?? node.tag.withConstructed(false)
        var segments: [Range<Int>] = []
        var stack: [ASN1Cursor] = [children(of: node)]
        while var cursor = stack.popLast() {
            guard let child = try next(&cursor) else { continue }
            stack.append(cursor)
            guard child.tag.tagClass == .universal, child.tag.number == segmentTag.number else {
                throw ASN1Error(
                    .asn1InvalidStringSegment, at: child.offset,
                    "\(child.tag.name) inside a constructed \(segmentTag.name)")
            }
            if child.tag.isConstructed {
                stack.append(children(of: child))
            } else {
                guard segments.count < state.limits.maximumSegments else {
                    let maximum = state.limits.maximumSegments
                    throw ASN1Error(
                        .asn1SegmentLimit, at: child.offset,
                        "string split into more than \(maximum) segments")
                }
                segments.append(child.contentRange)
            }
        }
        return segments
    }

    // MARK: - Headers

    /// Decodes the identifier and length octets at `offset`, checking the length against `limit`.
    @usableFromInline
    mutating func readHeader(at offset: Int, limit: Int) throws(ASN1Error) -> Header {
        guard state.nodesRead < state.limits.maximumNodes else {
            let maximum = state.limits.maximumNodes
            throw ASN1Error(.asn1NodeLimit, at: offset, "more than \(maximum) elements in one input")
        }
        state.nodesRead &+= 1
        guard offset >= 0, offset < limit, limit <= buffer.count else {
            throw ASN1Error(.asn1TruncatedHeader, at: offset, "input ends where an element's tag should start")
        }
        var position = offset
        let first = buffer[position]
        position += 1
        var anomalies: ASN1HeaderAnomalies = []
        let tagClass = ASN1TagClass(rawValue: first >> 6) ?? .universal
        let constructed = first & 0x20 != 0
        var number = UInt64(first & 0x1F)
        if number == 0x1F {
            number = 0
            var septets = 0
            while true {
                guard position < limit else {
                    throw ASN1Error(.asn1TruncatedHeader, at: offset, "input ends inside a multi-octet tag number")
                }
                let octet = buffer[position]
                position += 1
                if septets == 0 && octet == 0x80 { anomalies.insert(.nonMinimalTag) }
                septets += 1
                guard number <= (UInt64.max >> 7) else {
                    throw ASN1Error(.asn1TagNumberTooLarge, at: offset, "tag number does not fit in 64 bits")
                }
                number = number << 7 | UInt64(octet & 0x7F)
                if octet & 0x80 == 0 { break }
            }
            if number < 31 { anomalies.insert(.nonMinimalTag) }
        }
        let tag = ASN1Tag(tagClass, number: number, constructed: constructed)
        if constructed && tag.isStringType { anomalies.insert(.constructedString) }

        guard position < limit else {
            throw ASN1Error(.asn1TruncatedHeader, at: offset, "input ends before the length of \(tag.name)")
        }
        let lengthOctet = buffer[position]
        position += 1
        var length = -1
        if lengthOctet < 0x80 {
            length = Int(lengthOctet)
        } else if lengthOctet == 0x80 {
            guard constructed else {
                throw ASN1Error(
                    .asn1IndefinitePrimitive, at: offset,
                    "primitive \(tag.name) with an indefinite length")
            }
            anomalies.insert(.indefiniteLength)
        } else if lengthOctet == 0xFF {
            throw ASN1Error(.asn1ReservedLengthOctet, at: offset, "length octet 0xFF is reserved")
        } else {
            let count = Int(lengthOctet & 0x7F)
            guard count <= limit - position else {
                throw ASN1Error(
                    .asn1TruncatedHeader, at: offset,
                    "input ends inside the \(count)-octet length of \(tag.name)")
            }
            var value = 0
            for index in 0..<count {
                let octet = buffer[position + index]
                if index == 0 && octet == 0 { anomalies.insert(.nonMinimalLength) }
                guard value <= (Int.max >> 8) else {
                    throw ASN1Error(.asn1LengthTooLarge, at: offset, "length of \(tag.name) does not fit in 63 bits")
                }
                value = value << 8 | Int(octet)
            }
            position += count
            if value < 0x80 { anomalies.insert(.nonMinimalLength) }
            length = value
        }
        if length >= 0, length > limit - position {
            let (claimed, remaining) = (length, limit - position)
            let error = ASN1Error(
                .asn1LengthExceedsInput, at: offset,
                "\(tag.name) claims \(claimed) content bytes but only \(remaining) remain")
            // Only the end of the buffer is a cut: overrunning a complete parent is damage, not truncation.
            guard state.toleratesTruncation, limit == buffer.count else { throw error }
            noteTruncation(error)
            length = limit - position
            anomalies.insert(.truncated)
        }
        if state.rules == .der && !anomalies.subtracting(.truncated).isEmpty {
            let found = anomalies
            throw ASN1Error(.asn1NotDER, at: offset, "\(tag.name) header is not DER: \(found.summary)")
        }
        return Header(tag: tag, contentStart: position, length: length, anomalies: anomalies)
    }

    /// Keeps the first truncation met.
    mutating func noteTruncation(_ error: ASN1Error) {
        if state.truncation == nil { state.truncation = error }
    }

    /// Finds where the indefinite-length content starting at `start` ends (the index of its end-of-contents
    /// marker), scanning headers iteratively. Nested indefinite elements count toward the depth limit.
    mutating func scanIndefiniteContent(from start: Int, limit: Int, depth: Int, owner: Int)
        throws(ASN1Error) -> Int
    {
        // The scan reads headers its caller will read again when walking the children: it is bounded by the
        // bytes present and the depth limit, so it does not spend the node budget twice.
        let budgetBefore = state.nodesRead
        defer { state.nodesRead = budgetBefore }
        var position = start
        var open = 1
        while true {
            guard position < limit else {
                throw ASN1Error(
                    .asn1MissingEndOfContents, at: owner,
                    "input ends before the end-of-contents marker of the element at \(owner)")
            }
            let header = try readHeader(at: position, limit: limit)
            if header.tag == .endOfContents {
                guard header.length == 0, header.anomalies.isEmpty else {
                    throw ASN1Error(.asn1InvalidEndOfContents, at: position, "end-of-contents marker is not 00 00")
                }
                open -= 1
                if open == 0 { return position }
                position = header.contentStart
            } else if header.length >= 0 {
                position = header.contentStart + header.length
            } else {
                open += 1
                guard depth + open <= state.limits.maximumDepth else {
                    let maximum = state.limits.maximumDepth
                    throw ASN1Error(
                        .asn1DepthLimit, at: position,
                        "nesting deeper than the limit of \(maximum) levels")
                }
                position = header.contentStart
            }
        }
    }
}
