/// A bounded, non-recursive BER/DER reader over one owned buffer: `ASN1BufferReader`'s engine behind an array.
///
/// Each call borrows the array's storage for its duration. Hot loops (the payload's attributes) borrow it once
/// with `withBufferReader` and run the engine directly.
public struct ASN1Reader: Sendable {
    /// The buffer being read. Node offsets index into it.
    public let bytes: [UInt8]
    /// Rules, limits, budget spent and the first truncation met.
    @usableFromInline package var state: ASN1ReadState

    public init(
        _ bytes: [UInt8], rules: ASN1Rules = .ber, limits: ASN1Limits = .default, nodesRead: Int = 0,
        toleratesTruncation: Bool = false
    ) {
        self.bytes = bytes
        self.state = ASN1ReadState(
            rules: rules, limits: limits, nodesRead: nodesRead,
            toleratesTruncation: toleratesTruncation)
    }

    public var rules: ASN1Rules { state.rules }
    public var limits: ASN1Limits { state.limits }
    /// Headers decoded so far, including those of earlier reads this reader's budget was carried from.
    public var nodesRead: Int { state.nodesRead }
    /// Whether a truncated input is read as far as it goes: see `ASN1ReadState.toleratesTruncation`.
    @usableFromInline package var toleratesTruncation: Bool { state.toleratesTruncation }
    /// The first truncation met, when truncation is tolerated.
    public var truncation: ASN1Error? { state.truncation }

    /// Runs `body` with the engine over this reader's buffer; the budget and truncation it spends carry back.
    @inlinable
    package mutating func withBufferReader<Result, Failure: Error>(
        _ body: (inout ASN1BufferReader) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let bytes = self.bytes
        return try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in
            var engine = ASN1BufferReader(buffer, state: state)
            defer { state = engine.state }
            return try body(&engine)
        }
    }

    // MARK: - Elements

    /// Reads the element that starts at `offset` and must end by `limit`, at nesting `depth`.
    package mutating func readNode(at offset: Int, limit: Int, depth: Int) throws(ASN1Error) -> ASN1Node {
        try withBufferReader { (engine) throws(ASN1Error) in try engine.readNode(at: offset, limit: limit, depth: depth)
        }
    }

    /// Reads the one element that must fill `range` exactly.
    package mutating func readSingle(in range: Range<Int>, depth: Int) throws(ASN1Error) -> ASN1Node {
        try withBufferReader { (engine) throws(ASN1Error) in try engine.readSingle(in: range, depth: depth) }
    }

    // MARK: - Children

    /// A cursor over the children of a constructed element.
    public func children(of node: ASN1Node) -> ASN1Cursor {
        ASN1Cursor(position: node.contentStart, end: node.contentEnd, depth: node.depth + 1)
    }

    /// A cursor over consecutive elements filling `range` at nesting `depth`.
    public func elements(in range: Range<Int>, depth: Int) -> ASN1Cursor {
        ASN1Cursor(position: range.lowerBound, end: range.upperBound, depth: depth)
    }

    /// The next element under `cursor`, or nil at its end.
    public mutating func next(_ cursor: inout ASN1Cursor) throws(ASN1Error) -> ASN1Node? {
        guard cursor.position < cursor.end else { return nil }
        let node = try readNode(at: cursor.position, limit: cursor.end, depth: cursor.depth)
        cursor.position = node.end
        return node
    }

    /// All children of `node`, in order. Bounded by the node limit.
    package mutating func allChildren(of node: ASN1Node) throws(ASN1Error) -> [ASN1Node] {
        var cursor = children(of: node)
        var result: [ASN1Node] = []
        while let child = try next(&cursor) {
            result.append(child)
        }
        return result
    }

    // MARK: - Constructed strings

    /// The primitive segments holding a string's content, in order: one for a primitive string, every leaf of a
    /// (possibly nested) constructed one. Each segment must carry the string's universal tag: its own, or for an
    /// IMPLICIT-tagged string (`[0] IMPLICIT OCTET STRING`) the `universal` one it stands for.
    package mutating func stringSegments(of node: ASN1Node, universal: UInt64? = nil) throws(ASN1Error)
        -> [Range<Int>]
    {
        try withBufferReader { (engine) throws(ASN1Error) in try engine.stringSegments(of: node, universal: universal) }
    }
}

/// A position among consecutive elements: the children of a constructed element, or a range of a buffer.
public struct ASN1Cursor: Sendable, Hashable {
    public var position: Int
    public var end: Int
    public var depth: Int

    @inlinable
    public init(position: Int, end: Int, depth: Int) {
        self.position = position
        self.end = end
        self.depth = depth
    }

    package var isAtEnd: Bool { position >= end }
}

extension ASN1HeaderAnomalies {
    /// A comma-separated list of the anomalies present, for messages.
    public var summary: String {
        var parts: [String] = []
        if contains(.nonMinimalLength) { parts.append("non-minimal length") }
        if contains(.nonMinimalTag) { parts.append("non-minimal tag") }
        if contains(.indefiniteLength) { parts.append("indefinite length") }
        if contains(.constructedString) { parts.append("constructed string") }
        if contains(.truncated) { parts.append("truncated") }
        return parts.joined(separator: ", ")
    }
}
