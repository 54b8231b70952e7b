import ReceiptASN1

/// How a SignerInfo names its certificate: `SignerIdentifier ::= CHOICE { issuerAndSerialNumber
/// IssuerAndSerialNumber, subjectKeyIdentifier [0] SubjectKeyIdentifier }` (RFC 5652 §5.3).
public enum SignerIdentifier: Sendable, Hashable {
    /// Ranges of the issuer Name's whole encoding and the serial INTEGER's content.
    case issuerAndSerialNumber(issuer: Range<Int>, serialNumber: Range<Int>)
    /// The primitive segments whose concatenation is the identifier: one, unless the `[0]` is written in BER's
    /// constructed form (which OpenSSL joins: the identifier is not signed, anyone may re-encode it so).
    case subjectKeyIdentifier([Range<Int>])

    /// The subject key identifier's octets in `bytes`, the buffer it was read from (nil for an issuer and serial).
    public func subjectKeyIdentifier(in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard case .subjectKeyIdentifier(let segments) = self else { return nil }
        return ASN1Primitives.joined(segments, in: bytes)
    }
}

/// `Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }` (RFC 5652 §5.3).
public struct CMSAttribute: Sendable, Hashable {
    public var oid: String
    public var offset: Int
    /// Each value's whole encoding.
    public var values: [Range<Int>]

    public var name: String { ObjectIdentifierNames.name(for: oid) }
}

/// The signed attributes of a SignerInfo, with what the signature is computed over.
public struct SignedAttributes: Sendable, Hashable {
    /// The `[0] IMPLICIT` element's whole encoding as it stands in the input.
    public var encoding: Range<Int>
    /// The element's content: the attributes' encodings, without the `[0]` header (or end-of-contents).
    package var content: Range<Int>
    public var attributes: [CMSAttribute]
    /// Whether the attributes are DER as RFC 5652 §5.3 requires: DER headers, DER `SET OF` order, no extra field.
    package var isDER: Bool

    package init(encoding: Range<Int>, content: Range<Int>, attributes: [CMSAttribute], isDER: Bool) {
        self.encoding = encoding
        self.content = content
        self.attributes = attributes
        self.isDER = isDER
    }

    /// The bytes the signature covers (RFC 5652 §5.4): the attributes under an explicit `SET OF` tag with a DER
    /// length, whatever tag and length form the `[0] IMPLICIT` element had in the input.
    package func signedBytes(in bytes: [UInt8]) -> [UInt8] {
        guard content.upperBound <= bytes.count, content.lowerBound >= 0 else { return [] }
        var writer = ASN1Writer(reservingCapacity: content.count + 8)
        writer.appendConstructed(.set) { writer in writer.appendRaw(bytes[content]) }
        return writer.bytes
    }

    /// The first attribute with `oid`.
    package func first(_ oid: String) -> CMSAttribute? { attributes.first { $0.oid == oid } }

    /// Every attribute with `oid`, in order.
    package func all(_ oid: String) -> [CMSAttribute] { attributes.filter { $0.oid == oid } }
}

/// `SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, signedAttrs [0] IMPLICIT OPTIONAL, signatureAlgorithm,
/// signature OCTET STRING, unsignedAttrs [1] IMPLICIT OPTIONAL }` (RFC 5652 §5.3).
public struct SignerInfo: Sendable, Hashable {
    public var offset: Int
    public var length: Int
    public var version: Int64?
    public var identifier: SignerIdentifier
    public var digestAlgorithm: AlgorithmIdentifier
    public var signedAttributes: SignedAttributes?
    package var signatureAlgorithm: AlgorithmIdentifier
    /// The signature OCTET STRING element.
    public var signatureString: ASN1Node
    /// The primitive segments whose concatenation is the signature, in order: one, unless the string is written in
    /// BER's constructed form, which OpenSSL joins (the signature is not signed: anyone may re-encode it so).
    public var signatureSegments: [Range<Int>]
    public var unsignedAttributes: [CMSAttribute]?

    /// Where the signature's first octet stands (the element's content, when it has none).
    public var signatureOffset: Int { signatureSegments.first?.lowerBound ?? signatureString.contentStart }

    /// The signature's octets in `bytes`, the buffer it was read from: the segments joined.
    public func signature(in bytes: [UInt8]) -> ArraySlice<UInt8> {
        ASN1Primitives.joined(signatureSegments, in: bytes)
    }
}
