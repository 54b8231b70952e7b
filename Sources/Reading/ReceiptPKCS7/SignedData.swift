import ReceiptASN1
import ReceiptDiagnostics

/// The encapsulated content: `EncapsulatedContentInfo ::= SEQUENCE { eContentType, eContent [0] EXPLICIT OCTET
/// STRING OPTIONAL }`. A BER receipt (Xcode) may split the OCTET STRING into segments; they are kept as found.
public struct EncapsulatedContent: Sendable, Hashable {
    public var contentType: String
    /// Absolute offset of the EncapsulatedContentInfo SEQUENCE.
    public var offset: Int
    /// The OCTET STRING element, when content is present (absent: detached signature).
    public var octetString: ASN1Node?
    /// The primitive segments whose concatenation is the content, in order.
    public var segments: [Range<Int>]

    /// Total content length in bytes.
    public var length: Int { segments.reduce(0) { $0 + $1.count } }
    /// Absolute offset of the first content byte, when content is present.
    public var contentOffset: Int? { segments.first?.lowerBound ?? octetString?.contentStart }
    public var isDetached: Bool { octetString == nil }
    public var isConstructed: Bool { octetString?.tag.isConstructed ?? false }
}

/// `SignedData ::= SEQUENCE { version, digestAlgorithms SET OF, encapContentInfo, certificates [0] IMPLICIT
/// OPTIONAL, crls [1] IMPLICIT OPTIONAL, signerInfos SET OF SignerInfo }` inside a ContentInfo (RFC 5652 §5.1),
/// with every part that could be read. Fields stay nil or empty past the point where a read stopped.
public struct SignedData: Sendable, Hashable {
    /// The outer ContentInfo's contentType.
    public var contentType: String?
    /// Absolute offset of the SignedData SEQUENCE.
    public var offset: Int?
    public var version: Int64?
    public var digestAlgorithms: [AlgorithmIdentifier] = []
    public var encapsulatedContent: EncapsulatedContent?
    public var certificates: [EmbeddedCertificate] = []
    /// Each CRL's whole encoding.
    public var crls: [Range<Int>] = []
    public var signers: [SignerInfo] = []
    /// Bytes after the ContentInfo, if any.
    public var trailingBytes: Range<Int>?

    public init() {}
}

/// The result of reading a container: everything read, findings about its encoding, and the error that stopped
/// the read, if one did.
public struct SignedDataReadResult: Sendable {
    public var signedData: SignedData
    public var findings: [Finding]
    public var error: PKCS7Error?
    /// Where the input was cut short, if it was: everything before the cut was read.
    public var truncation: PKCS7Error?
    /// Headers decoded, to carry the node budget into the payload read.
    public var nodesRead: Int
    /// The container's non-DER choices.
    public var encoding: EncodingSummary
}
