/// Named bounds on the work and memory one read may spend. They are carried across nested re-parses
/// (payload → attribute value → type-17 record), so hostile nesting cannot reset them.
public struct ASN1Limits: Sendable, Hashable {
    /// The deepest nesting of constructed elements, counted from the outermost element of the input file.
    /// Real receipts need about 16 (certificate extensions inside SignedData, in-app records inside the payload).
    @usableFromInline package var maximumDepth: Int

    /// The most element headers one read of one input may decode (each costs constant time).
    /// A 100 000-record receipt (~40 MB) needs about 6 million.
    @usableFromInline package var maximumNodes: Int

    /// The most segments one constructed string may be split into, nested segments included.
    @usableFromInline package var maximumSegments: Int

    @inlinable
    public init(maximumDepth: Int = 64, maximumNodes: Int = 50_000_000, maximumSegments: Int = 100_000) {
        self.maximumDepth = maximumDepth
        self.maximumNodes = maximumNodes
        self.maximumSegments = maximumSegments
    }

    /// The defaults used by every command unless overridden.
    @inlinable public static var `default`: ASN1Limits { ASN1Limits() }
}
