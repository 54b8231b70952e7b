/// Why a BER/DER read stopped, with the absolute offset of the byte that stopped it.
public struct ASN1Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable reasons; their raw values are the kebab-case codes shown to users.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case truncatedHeader = "asn1-truncated-header"
        case lengthExceedsInput = "asn1-length-exceeds-input"
        case lengthTooLarge = "asn1-length-too-large"
        case reservedLengthOctet = "asn1-reserved-length-octet"
        case tagNumberTooLarge = "asn1-tag-number-too-large"
        case indefiniteLengthOnPrimitive = "asn1-indefinite-primitive"
        case unterminatedIndefiniteLength = "asn1-missing-end-of-contents"
        case invalidEndOfContents = "asn1-invalid-end-of-contents"
        case unexpectedEndOfContents = "asn1-unexpected-end-of-contents"
        case depthLimitExceeded = "asn1-depth-limit"
        case nodeLimitExceeded = "asn1-node-limit"
        case segmentLimitExceeded = "asn1-segment-limit"
        case invalidStringSegment = "asn1-invalid-string-segment"
        case forbiddenByDER = "asn1-not-der"
        case trailingBytes = "asn1-trailing-bytes"
        case unexpectedTag = "asn1-unexpected-tag"
        case invalidValue = "asn1-invalid-value"
    }

    public var code: Code
    /// Absolute byte offset in the input file (or in the buffer being read, when that is not the file).
    public var offset: Int
    /// The sentence, built from the values the throwing site captured, only when it is read: a reader that stops on
    /// damaged input and is never asked why formats nothing.
    @usableFromInline
    let makeMessage: @Sendable () -> String

    @inlinable
    public init(_ code: Code, at offset: Int, _ message: @escaping @Sendable @autoclosure () -> String) {
        self.code = code
        self.offset = offset
        self.makeMessage = message
    }

    public var message: String { makeMessage() }

    public static func == (lhs: ASN1Error, rhs: ASN1Error) -> Bool {
        lhs.code == rhs.code && lhs.offset == rhs.offset && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(offset)
    }

    public var description: String { "\(message) (\(code.rawValue) at offset \(offset))" }

    /// The same error with its offset translated, e.g. from a reassembled buffer back to the file.
    public func mapOffset(_ transform: (Int) -> Int) -> ASN1Error {
        ASN1Error(code, at: transform(offset), makeMessage())
    }
}
