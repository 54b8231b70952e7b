import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptPKCS7

/// Signs a receipt payload into a PKCS#7 SignedData shaped like Apple's, with a given key and chain.
public struct ReceiptSigner: Sendable {
    public var signingCertificate: Certificate
    public var key: PrivateKey
    /// Certificates to embed, in order (by default the signer's chain, leaf first).
    package var embeddedCertificates: [Certificate]

    public init(signingCertificate: Certificate, key: PrivateKey, embeddedCertificates: [Certificate]) {
        self.signingCertificate = signingCertificate
        self.key = key
        self.embeddedCertificates = embeddedCertificates
    }

    /// A signer using a test CA's leaf and embedding its whole chain.
    public init(authority: TestCertificateAuthority) {
        self.init(
            signingCertificate: authority.leaf, key: authority.leafKey,
            embeddedCertificates: authority.embeddedChain)
    }

    /// The SignedData ContentInfo holding `payload`, signed with `digest`.
    public func sign(
        _ payload: [UInt8], digest: DigestAlgorithm = .sha256, layout: ContainerLayout = .der,
        signedAttributes: Bool = false
    ) throws(CryptoError) -> [UInt8] {
        try sign(
            builder(for: payload, digest: digest, layout: layout, signedAttributes: signedAttributes),
            digest: digest)
    }

    /// The builder for what Apple would build around `payload`: adjust it, then `sign(_:digest:)` it.
    public func builder(
        for payload: [UInt8], digest: DigestAlgorithm = .sha256, layout: ContainerLayout = .der,
        signedAttributes: Bool = false
    ) throws(CryptoError) -> SignedDataBuilder {
        guard let identity = SignedDataBuilder.signerIdentity(ofCertificate: signingCertificate.derEncoded) else {
            throw CryptoError(.signerIdentity, message: "cannot read the signing certificate's issuer and serial")
        }
        return SignedDataBuilder(
            content: payload, certificates: embeddedCertificates.map(\.derEncoded),
            signerIssuer: identity.issuer, signerSerial: identity.serial,
            digestAlgorithmOID: digest.oid, includeSignedAttributes: signedAttributes,
            layout: layout)
    }

    /// Builds and signs with this signer's key, hashing with `digest`.
    public func sign(_ builder: SignedDataBuilder, digest: DigestAlgorithm) throws(CryptoError) -> [UInt8] {
        let key = self.key
        return try builder.build(
            digest: { (content: [UInt8]) throws(CryptoError) -> [UInt8] in
                try Digest.hash(content, algorithm: digest)
            },
            sign: { (message: [UInt8]) throws(CryptoError) -> [UInt8] in
                try Signer.sign([message[...]], digest: digest, key: key)
            })
    }
}
