/// Appends ASN.1 encodings to a byte buffer: DER by default (minimal lengths; constructed elements are written by
/// a closure whose output is measured afterwards, so callers never compute lengths by hand), plus the BER
/// indefinite-length form Xcode's receipts use, written on purpose with `appendIndefinite`.
public struct ASN1Writer: Sendable {
    public private(set) var bytes: [UInt8]

    public init(reservingCapacity capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The DER length octets for `length`.
    public static func lengthOctets(_ length: Int) -> [UInt8] {
        if length < 0x80 { return [UInt8(truncatingIfNeeded: length)] }
        var octets: [UInt8] = []
        var remaining = length
        while remaining > 0 {
            octets.append(UInt8(truncatingIfNeeded: remaining & 0xFF))
            remaining >>= 8
        }
        return [0x80 | UInt8(truncatingIfNeeded: octets.count)] + octets.reversed()
    }

    /// Appends bytes exactly as given (an already-encoded element, or deliberately odd bytes).
    public mutating func appendRaw<Bytes: Sequence>(_ raw: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: raw)
    }

    /// Appends a primitive element with the given content.
    public mutating func appendPrimitive<Bytes: Collection>(_ tag: ASN1Tag, content: Bytes)
    where Bytes.Element == UInt8 {
        bytes.append(contentsOf: tag.derIdentifier)
        bytes.append(contentsOf: ASN1Writer.lengthOctets(content.count))
        bytes.append(contentsOf: content)
    }

    /// Appends a constructed element whose content `body` writes.
    public mutating func appendConstructed<E: Error>(
        _ tag: ASN1Tag, _ body: (inout ASN1Writer) throws(E) -> Void
    ) throws(E) {
        bytes.append(contentsOf: tag.withConstructed(true).derIdentifier)
        let lengthPosition = bytes.count
        bytes.append(0)
        try body(&self)
        let contentLength = bytes.count - lengthPosition - 1
        let octets = ASN1Writer.lengthOctets(contentLength)
        bytes.replaceSubrange(lengthPosition..<lengthPosition + 1, with: octets)
    }

    /// Appends a constructed element with an indefinite length: tag, 0x80, the content `body` writes, 00 00.
    public mutating func appendIndefinite<E: Error>(
        _ tag: ASN1Tag, _ body: (inout ASN1Writer) throws(E) -> Void
    ) throws(E) {
        bytes.append(contentsOf: tag.withConstructed(true).derIdentifier)
        bytes.append(0x80)
        try body(&self)
        bytes.append(contentsOf: [0x00, 0x00])
    }

    /// Appends a constructed element in DER or, when `indefinite`, in the BER indefinite-length form.
    public mutating func appendConstructed<E: Error>(
        _ tag: ASN1Tag, indefinite: Bool, _ body: (inout ASN1Writer) throws(E) -> Void
    ) throws(E) {
        if indefinite {
            try appendIndefinite(tag, body)
        } else {
            try appendConstructed(tag, body)
        }
    }

    public mutating func appendInteger(_ value: Int64) {
        appendPrimitive(.integer, content: ASN1Writer.integerContent(value))
    }

    /// Appends an INTEGER whose content is the given two's-complement big-endian bytes, as they are.
    package mutating func appendIntegerContent(_ content: [UInt8]) {
        appendPrimitive(.integer, content: content)
    }

    public mutating func appendBoolean(_ value: Bool) {
        appendPrimitive(.boolean, content: [value ? 0xFF : 0x00])
    }

    public mutating func appendNull() {
        appendPrimitive(.null, content: [])
    }

    public mutating func appendOctetString<Bytes: Collection>(_ content: Bytes) where Bytes.Element == UInt8 {
        appendPrimitive(.octetString, content: content)
    }

    public mutating func appendUTF8String(_ text: String) {
        appendPrimitive(.utf8String, content: Array(text.utf8))
    }

    public mutating func appendIA5String(_ text: String) {
        appendPrimitive(.ia5String, content: Array(text.utf8))
    }

    /// Appends an OBJECT IDENTIFIER given in dotted form; returns false (appending nothing) when it is not one.
    @discardableResult
    public mutating func appendObjectIdentifier(_ dotted: String) -> Bool {
        guard let content = ASN1Writer.objectIdentifierContent(dotted) else { return false }
        appendPrimitive(.objectIdentifier, content: content)
        return true
    }

    /// Minimal two's-complement content octets of an INTEGER.
    package static func integerContent(_ value: Int64) -> [UInt8] {
        var octets: [UInt8] = []
        var remaining = value
        repeat {
            octets.append(UInt8(truncatingIfNeeded: remaining))
            remaining >>= 8
        } while !(remaining == 0 && octets[octets.count - 1] < 0x80)
            && !(remaining == -1 && octets[octets.count - 1] >= 0x80)
        return octets.reversed()
    }

    /// Content octets of an OBJECT IDENTIFIER in dotted form, or nil when the text is not one.
    package static func objectIdentifierContent(_ dotted: String) -> [UInt8]? {
        var arcs: [UInt64] = []
        for part in dotted.split(separator: ".", omittingEmptySubsequences: false) {
            guard let arc = UInt64(part) else { return nil }
            arcs.append(arc)
        }
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        let (firstArc, overflow) = (arcs[0] * 40).addingReportingOverflow(arcs[1])
        guard !overflow else { return nil }
        var content: [UInt8] = []
        for arc in [firstArc] + arcs.dropFirst(2) {
            var septets: [UInt8] = [UInt8(truncatingIfNeeded: arc & 0x7F)]
            var remaining = arc >> 7
            while remaining > 0 {
                septets.append(UInt8(truncatingIfNeeded: remaining & 0x7F) | 0x80)
                remaining >>= 7
            }
            content.append(contentsOf: septets.reversed())
        }
        return content
    }
}
