import ReceiptASN1

/// `AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }` (RFC 5280 §4.1.1.2).
public struct AlgorithmIdentifier: Sendable, Hashable {
    public var oid: String
    /// Absolute offset of the SEQUENCE.
    public var offset: Int
    /// The parameters' whole encoding, when present.
    public var parameters: Range<Int>?

    package init(oid: String, offset: Int, parameters: Range<Int>?) {
        self.oid = oid
        self.offset = offset
        self.parameters = parameters
    }

    /// A short name for well-known algorithms (`sha256`, `rsaEncryption`), else the dotted OID.
    public var name: String { ObjectIdentifierNames.name(for: oid) }
}
