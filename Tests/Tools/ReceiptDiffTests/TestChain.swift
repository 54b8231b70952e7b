import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptTestSupport

/// A TEST-ONLY chain shaped like Apple's (root → intermediate → leaf) whose leaves can be renewed: a new leaf has
/// the same subject and issuer and a new key, serial and validity, as when Apple renews its signing certificate.
struct TestChain: Sendable {
    var root: Certificate
    var intermediate: Certificate
    var intermediateKey: PrivateKey
    var leaf: Certificate
    var leafKey: PrivateKey

    /// One chain per test process (generating RSA keys is slow).
    static let shared: TestChain? = try? TestChain(label: "rcpt diff tests")

    static let leafMarker = "1.2.840.113635.100.6.11.1"

    init(label: String) throws(CryptoError) {
        let rootKey = try PrivateKey.generateRSA(bits: 2048)
        root = try Certificate.issue(
            CertificateRequest(
                subject: Self.name(label, "Root CA TEST-ONLY"), serialNumber: 1,
                notBefore: TestReceipts.longAgo, notAfter: TestReceipts.farFuture,
                isCertificateAuthority: true),
            subjectKey: rootKey, issuer: nil, issuerKey: rootKey, digest: .sha256)
        intermediateKey = try PrivateKey.generateRSA(bits: 2048)
        intermediate = try Certificate.issue(
            CertificateRequest(
                subject: Self.name(label, "Worldwide Developer Relations CA TEST-ONLY"), serialNumber: 2,
                notBefore: TestReceipts.longAgo, notAfter: TestReceipts.farFuture,
                isCertificateAuthority: true),
            subjectKey: intermediateKey, issuer: root, issuerKey: rootKey, digest: .sha256)
        leafKey = try PrivateKey.generateRSA(bits: 2048)
        leaf = try Self.issueLeaf(
            label: label, serial: 3, notBefore: TestReceipts.longAgo,
            notAfter: 1_735_689_600, key: leafKey, intermediate: intermediate,
            intermediateKey: intermediateKey)
    }

    static func name(_ label: String, _ commonName: String) -> [(attribute: String, value: String)] {
        [("C", "US"), ("O", "\(label) TEST-ONLY"), ("OU", "TEST-ONLY, not Apple"), ("CN", commonName)]
    }

    static func issueLeaf(
        label: String, serial: UInt64, notBefore: Int64, notAfter: Int64, key: PrivateKey,
        intermediate: Certificate, intermediateKey: PrivateKey
    ) throws(CryptoError) -> Certificate {
        try Certificate.issue(
            CertificateRequest(
                subject: name(label, "Receipt Signing TEST-ONLY"), serialNumber: serial,
                notBefore: notBefore, notAfter: notAfter, isCertificateAuthority: false,
                extraExtensions: [(leafMarker, false, [0x05, 0x00])]),
            subjectKey: key, issuer: intermediate, issuerKey: intermediateKey, digest: .sha256)
    }

    /// This chain with a renewed leaf: same subject, new key, serial 4, valid 2024–2030.
    func renewed() throws(CryptoError) -> TestChain {
        var chain = self
        chain.leafKey = try PrivateKey.generateRSA(bits: 2048)
        chain.leaf = try Self.issueLeaf(
            label: "rcpt diff tests", serial: 4, notBefore: 1_704_067_200,
            notAfter: 1_893_456_000, key: chain.leafKey, intermediate: intermediate,
            intermediateKey: intermediateKey)
        return chain
    }

    /// Leaf, intermediate, root: the order Apple embeds them in.
    var embedded: [Certificate] { [leaf, intermediate, root] }

    /// `payload` signed by the leaf, with the certificates in `order` (default: Apple's).
    func sign(_ payload: [UInt8], layout: ContainerLayout = .der, certificates order: [Certificate]? = nil)
        throws(CryptoError) -> [UInt8]
    {
        guard let identity = SignedDataBuilder.signerIdentity(ofCertificate: leaf.derEncoded) else {
            throw CryptoError(.keyGenerationFailed, message: "cannot read the leaf's issuer and serial")
        }
        let builder = SignedDataBuilder(
            content: payload, certificates: (order ?? embedded).map(\.derEncoded),
            signerIssuer: identity.issuer, signerSerial: identity.serial,
            digestAlgorithmOID: DigestAlgorithm.sha256.oid, layout: layout)
        let key = leafKey
        return try builder.build(
            digest: { (content: [UInt8]) throws(CryptoError) -> [UInt8] in
                try Digest.hash(content, algorithm: .sha256)
            },
            sign: { (message: [UInt8]) throws(CryptoError) -> [UInt8] in
                try Signer.sign([message[...]], digest: .sha256, key: key)
            })
    }
}
