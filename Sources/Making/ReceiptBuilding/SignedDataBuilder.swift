import ReceiptASN1
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// How a built container is encoded.
public enum ContainerLayout: String, Sendable, Hashable, CaseIterable {
    /// DER throughout, as the App Store signs receipts.
    case der
    /// Xcode's StoreKit layout: BER indefinite lengths on the six outer elements and the content in a constructed
    /// OCTET STRING.
    case ber
}

/// Builds a PKCS#7 SignedData ContentInfo shaped like Apple's receipts: one signer identified by issuer and serial
/// number, rsaEncryption, the certificates leaf first. Digesting and signing are passed in, so this layer stays
/// free of any crypto library.
public struct SignedDataBuilder: Sendable {
    /// The payload (the receipt's attribute SET) to encapsulate.
    public var content: [UInt8]
    /// DER certificates to embed, in order (Apple's: leaf, intermediate, root).
    public var certificates: [[UInt8]]
    /// The signer certificate's issuer Name (whole DER encoding).
    public var signerIssuer: [UInt8]
    /// The signer certificate's serial number INTEGER content octets.
    public var signerSerial: [UInt8]
    public var digestAlgorithmOID: String
    package var signatureAlgorithmOID: String
    /// Whether to sign contentType and messageDigest signed attributes rather than the content itself.
    public var includeSignedAttributes: Bool
    public var layout: ContainerLayout

    // Knobs for building deliberately flawed containers (the mutator's); the defaults build what Apple builds.

    /// The digestAlgorithms SET as declared; nil declares the signer's digest algorithm.
    public var declaredDigestAlgorithmOIDs: [String]?
    /// The eContentType; pkcs7-data by default.
    package var contentTypeOID: String = ObjectIdentifierNames.data
    /// Leave the content out (a detached signature) while still signing it.
    package var detachContent = false
    /// The messageDigest to put in the signed attributes instead of the content's real digest.
    package var messageDigestOverride: [UInt8]?
    /// Applied to the signature before it is written (truncate it, flip bits).
    package var signatureTransform: (@Sendable ([UInt8]) -> [UInt8])?
    /// Whole SignerInfo encodings written after the real one.
    public var extraSignerInfos: [[UInt8]] = []
    /// Whole SignerInfo encodings written before the real one.
    package var leadingSignerInfos: [[UInt8]] = []
    /// The signed attributes to write (each a whole Attribute encoding, in this order) instead of contentType and
    /// messageDigest; given the content digest. The signature covers exactly these, under a SET OF tag.
    public var signedAttributeList: (@Sendable ([UInt8]) -> [[UInt8]])?
    /// Whole encodings of the `crls [1]` entries; none (the field left out) by default.
    public var crls: [[UInt8]] = []
    /// Unsigned additions, each written after the last field of its structure (RFC 5652 has no room for them).
    public var unsignedAdditions = UnsignedAdditions()

    /// Elements appended where RFC 5652 allows nothing more: the mutator's "unsigned additions".
    public struct UnsignedAdditions: Sendable, Hashable {
        /// After SignedData inside the ContentInfo's `content [0]`.
        package var contentInfoContent: [[UInt8]] = []
        /// After the ContentInfo's `content [0]`.
        package var contentInfo: [[UInt8]] = []
        /// After the OCTET STRING inside `eContent [0]`.
        package var eContent: [[UInt8]] = []
        /// After `eContent [0]` in EncapsulatedContentInfo.
        package var encapsulatedContentInfo: [[UInt8]] = []
        /// After `signerInfos` in SignedData.
        package var signedData: [[UInt8]] = []
        /// After the signature (and any unsigned attributes) in the real SignerInfo.
        public var signerInfo: [[UInt8]] = []

        package init() {}
    }

    public init(
        content: [UInt8], certificates: [[UInt8]], signerIssuer: [UInt8], signerSerial: [UInt8],
        digestAlgorithmOID: String, signatureAlgorithmOID: String = "1.2.840.113549.1.1.1",
        includeSignedAttributes: Bool = false, layout: ContainerLayout = .der
    ) {
        self.content = content
        self.certificates = certificates
        self.signerIssuer = signerIssuer
        self.signerSerial = signerSerial
        self.digestAlgorithmOID = digestAlgorithmOID
        self.signatureAlgorithmOID = signatureAlgorithmOID
        self.includeSignedAttributes = includeSignedAttributes
        self.layout = layout
    }

    /// The issuer Name and serial number content of a DER certificate, as a signer identifier needs them.
    public static func signerIdentity(ofCertificate der: [UInt8]) -> (issuer: [UInt8], serial: [UInt8])? {
        var reader = ASN1Reader(der)
        guard let node = try? reader.readSingle(in: 0..<der.count, depth: 0) else { return nil }
        let certificate = EmbeddedCertificate.read(node, index: 0, reader: &reader)
        guard let issuer = certificate.issuer, let serial = certificate.serialNumber else { return nil }
        return (Array(der[issuer]), Array(der[serial]))
    }

    /// A SignerInfo without signed attributes naming the DER `certificate` by issuer and serial, with `digestOID`,
    /// rsaEncryption and `signature` as given: the shape of the bogus SignerInfos the mutator and the hostile
    /// benchmarks add. Nil when the certificate's issuer and serial cannot be read.
    public static func bareSignerInfo(certificate: [UInt8], digestOID: String, signature: [UInt8]) -> [UInt8]? {
        guard let identity = signerIdentity(ofCertificate: certificate) else { return nil }
        var writer = ASN1Writer()
        writer.appendConstructed(.sequence) { writer in
            writer.appendInteger(1)
            writer.appendConstructed(.sequence) { writer in
                writer.appendRaw(identity.issuer)
                writer.appendIntegerContent(identity.serial)
            }
            writer.appendConstructed(.sequence) { writer in
                writer.appendObjectIdentifier(digestOID)
                writer.appendNull()
            }
            writer.appendConstructed(.sequence) { writer in
                writer.appendObjectIdentifier("1.2.840.113549.1.1.1")
                writer.appendNull()
            }
            writer.appendOctetString(signature)
        }
        return writer.bytes
    }

    /// The DER the signature covers when signed attributes are used: SET { contentType, messageDigest }.
    package func signedAttributesDER(contentDigest: [UInt8]) -> [UInt8] {
        var writer = ASN1Writer()
        writer.appendConstructed(.set) { writer in
            writeSignedAttributes(&writer, contentDigest: contentDigest)
        }
        return writer.bytes
    }

    /// One CMS Attribute: `SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF }` with `values` (whole
    /// encodings) in the SET.
    public static func attribute(_ oid: String, values: [[UInt8]]) -> [UInt8] {
        var writer = ASN1Writer()
        writer.appendConstructed(.sequence) { writer in
            writer.appendObjectIdentifier(oid)
            writer.appendConstructed(.set) { writer in for value in values { writer.appendRaw(value) } }
        }
        return writer.bytes
    }

    /// The contentType and messageDigest attributes Apple-style CMS signers write, in DER order.
    package func standardSignedAttributes(contentDigest: [UInt8]) -> [[UInt8]] {
        var oid = ASN1Writer()
        oid.appendObjectIdentifier(contentTypeOID)
        var digest = ASN1Writer()
        digest.appendOctetString(messageDigestOverride ?? contentDigest)
        return [
            Self.attribute(ObjectIdentifierNames.contentTypeAttribute, values: [oid.bytes]),
            Self.attribute(ObjectIdentifierNames.messageDigestAttribute, values: [digest.bytes]),
        ]
    }

    private func writeSignedAttributes(_ writer: inout ASN1Writer, contentDigest: [UInt8]) {
        let list = signedAttributeList?(contentDigest) ?? standardSignedAttributes(contentDigest: contentDigest)
        for attribute in list { writer.appendRaw(attribute) }
    }

    /// Builds the ContentInfo. `digest` hashes with the digest algorithm; `sign` signs a message (hashing it
    /// itself, as RSA PKCS#1 v1.5 signing does).
    public func build<E: Error>(digest: ([UInt8]) throws(E) -> [UInt8], sign: ([UInt8]) throws(E) -> [UInt8])
        throws(E) -> [UInt8]
    {
        let contentDigest = includeSignedAttributes ? try digest(content) : []
        let rawSignature = try sign(
            includeSignedAttributes ? signedAttributesDER(contentDigest: contentDigest) : content)
        let signature = signatureTransform?(rawSignature) ?? rawSignature
        let indefinite = layout == .ber
        var writer = ASN1Writer(reservingCapacity: content.count + certificates.reduce(0) { $0 + $1.count } + 1024)
        let additions = unsignedAdditions
        writer.appendConstructed(.sequence, indefinite: indefinite) { writer in
            writer.appendObjectIdentifier(ObjectIdentifierNames.signedData)
            writer.appendConstructed(.context(0, constructed: true), indefinite: indefinite) { writer in
                defer { for extra in additions.contentInfoContent { writer.appendRaw(extra) } }
                writer.appendConstructed(.sequence, indefinite: indefinite) { writer in
                    writer.appendInteger(1)
                    writer.appendConstructed(.set) { writer in
                        for oid in declaredDigestAlgorithmOIDs ?? [digestAlgorithmOID] { writeAlgorithm(&writer, oid) }
                    }
                    writer.appendConstructed(.sequence, indefinite: indefinite) { writer in
                        writer.appendObjectIdentifier(contentTypeOID)
                        guard !detachContent else { return }
                        writer.appendConstructed(.context(0, constructed: true), indefinite: indefinite) { writer in
                            if indefinite {
                                writer.appendIndefinite(.octetString) { writer in writer.appendOctetString(content) }
                            } else {
                                writer.appendOctetString(content)
                            }
                            for extra in additions.eContent { writer.appendRaw(extra) }
                        }
                        for extra in additions.encapsulatedContentInfo { writer.appendRaw(extra) }
                    }
                    writer.appendConstructed(.context(0, constructed: true)) { writer in
                        for certificate in certificates { writer.appendRaw(certificate) }
                    }
                    if !crls.isEmpty {
                        writer.appendConstructed(.context(1, constructed: true)) { writer in
                            for crl in crls { writer.appendRaw(crl) }
                        }
                    }
                    writer.appendConstructed(.set) { writer in
                        for extra in leadingSignerInfos { writer.appendRaw(extra) }
                        writeSignerInfo(&writer, contentDigest: contentDigest, signature: signature)
                        for extra in extraSignerInfos { writer.appendRaw(extra) }
                    }
                    for extra in additions.signedData { writer.appendRaw(extra) }
                }
            }
            for extra in additions.contentInfo { writer.appendRaw(extra) }
        }
        return writer.bytes
    }

    private func writeSignerInfo(_ writer: inout ASN1Writer, contentDigest: [UInt8], signature: [UInt8]) {
        writer.appendConstructed(.sequence) { writer in
            writer.appendInteger(1)
            writer.appendConstructed(.sequence) { writer in
                writer.appendRaw(signerIssuer)
                writer.appendIntegerContent(signerSerial)
            }
            writeAlgorithm(&writer, digestAlgorithmOID)
            if includeSignedAttributes {
                writer.appendConstructed(.context(0, constructed: true)) { writer in
                    writeSignedAttributes(&writer, contentDigest: contentDigest)
                }
            }
            writeAlgorithm(&writer, signatureAlgorithmOID)
            writer.appendOctetString(signature)
            for extra in unsignedAdditions.signerInfo { writer.appendRaw(extra) }
        }
    }

    private func writeAlgorithm(_ writer: inout ASN1Writer, _ oid: String) {
        writer.appendConstructed(.sequence) { writer in
            writer.appendObjectIdentifier(oid)
            writer.appendNull()
        }
    }
}
