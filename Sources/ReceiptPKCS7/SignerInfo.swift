import ReceiptASN1

/// How a SignerInfo names its certificate: `SignerIdentifier ::= CHOICE { issuerAndSerialNumber
/// IssuerAndSerialNumber, subjectKeyIdentifier [0] SubjectKeyIdentifier }` (RFC 5652 §5.3).
public enum SignerIdentifier: Sendable, Hashable {
    /// Ranges of the issuer Name's whole encoding and the serial INTEGER's content.
    case issuerAndSerialNumber(issuer: Range<Int>, serialNumber: Range<Int>)
    case subjectKeyIdentifier(Range<Int>)
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
    /// The header length of that element (to re-tag it as a SET for verification).
    public var headerLength: Int
    public var attributes: [CMSAttribute]

    /// The bytes the signature covers: the same encoding with its tag octet changed to SET (0x31), RFC 5652 §5.4.
    public func signedBytes(in bytes: [UInt8]) -> [UInt8] {
        guard encoding.upperBound <= bytes.count, !encoding.isEmpty else { return [] }
        var out = Array(bytes[encoding])
        out[0] = 0x31
        return out
    }

    /// The first attribute with `oid`.
    public func first(_ oid: String) -> CMSAttribute? { attributes.first { $0.oid == oid } }
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
    public var signatureAlgorithm: AlgorithmIdentifier
    /// The signature OCTET STRING's content range.
    public var signature: Range<Int>
    public var unsignedAttributes: [CMSAttribute]?
}
