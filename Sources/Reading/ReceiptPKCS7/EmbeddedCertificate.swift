import ReceiptASN1

/// One entry of SignedData's `certificates` set, kept as raw bytes, with the fields needed to match it to a
/// signer read by this module (full decoding is ReceiptCrypto's job).
public struct EmbeddedCertificate: Sendable, Hashable {
    /// Position in the `certificates` set.
    public var index: Int
    /// The whole encoding's range in the input.
    public var encoding: Range<Int>
    /// The serial number INTEGER's content range, when the TBSCertificate could be read.
    public var serialNumber: Range<Int>?
    /// The issuer Name's whole encoding, when the TBSCertificate could be read.
    public var issuer: Range<Int>?
    /// The subject Name's whole encoding, when the TBSCertificate could be read.
    public var subject: Range<Int>?

    public var offset: Int { encoding.lowerBound }
    public var length: Int { encoding.count }

    /// Reads the identifying fields of the certificate at `node` (tolerant: leaves them nil when they are not there).
    package static func read(_ node: ASN1Node, index: Int, reader: inout ASN1Reader) -> EmbeddedCertificate {
        var certificate = EmbeddedCertificate(
            index: index, encoding: node.encodingRange, serialNumber: nil,
            issuer: nil, subject: nil)
        guard node.tag == .sequence else { return certificate }
        do {
            var outer = reader.children(of: node)
            guard let tbs = try reader.next(&outer), tbs.tag == .sequence else { return certificate }
            var fields = reader.children(of: tbs)
            guard var field = try reader.next(&fields) else { return certificate }
            if field.tag == .context(0, constructed: true) {
                guard let next = try reader.next(&fields) else { return certificate }
                field = next
            }
            guard field.tag == .integer else { return certificate }
            certificate.serialNumber = field.contentRange
            guard try reader.next(&fields) != nil,  // signature AlgorithmIdentifier
                let issuer = try reader.next(&fields), issuer.tag == .sequence
            else { return certificate }
            certificate.issuer = issuer.encodingRange
            guard try reader.next(&fields) != nil,  // validity
                let subject = try reader.next(&fields), subject.tag == .sequence
            else { return certificate }
            certificate.subject = subject.encodingRange
        } catch {
            return certificate
        }
        return certificate
    }
}
