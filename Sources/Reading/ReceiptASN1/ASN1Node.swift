/// One element as it stands in the buffer: its tag and where its header, content and whole encoding are.
///
/// Offsets are indices into the reader's buffer, which is the input file itself wherever possible, so an offset
/// is the absolute byte position a person sees in a hex editor. Nothing is copied or normalised.
public struct ASN1Node: Sendable, Hashable {
    public var tag: ASN1Tag
    /// Index of the first identifier octet.
    public var offset: Int
    /// Index of the first content octet (just after the length octets).
    public var contentStart: Int
    /// Index just past the last content octet; for indefinite lengths, the start of the end-of-contents marker.
    public var contentEnd: Int
    /// Index just past the whole encoding, end-of-contents marker included.
    public var end: Int
    /// Nesting depth: 0 for an outermost element of the input.
    public var depth: Int
    /// Non-canonical header choices found in this element's own identifier and length octets.
    public var anomalies: ASN1HeaderAnomalies

    @inlinable
    public init(
        tag: ASN1Tag, offset: Int, contentStart: Int, contentEnd: Int, end: Int, depth: Int,
        anomalies: ASN1HeaderAnomalies
    ) {
        self.tag = tag
        self.offset = offset
        self.contentStart = contentStart
        self.contentEnd = contentEnd
        self.end = end
        self.depth = depth
        self.anomalies = anomalies
    }

    @inlinable package var isIndefiniteLength: Bool { anomalies.contains(.indefiniteLength) }
    @inlinable package var headerLength: Int { contentStart - offset }
    @inlinable package var contentLength: Int { contentEnd - contentStart }
    @inlinable package var encodedLength: Int { end - offset }
    @inlinable package var headerRange: Range<Int> { offset..<contentStart }
    @inlinable public var contentRange: Range<Int> { contentStart..<contentEnd }
    @inlinable public var encodingRange: Range<Int> { offset..<end }
}
