import ReceiptCrypto

/// A TEST-ONLY certificate chain shaped like Apple's receipt signing chain (root → "WWDR"-like intermediate with
/// the intermediate marker extension → receipt-signing leaf with the leaf marker extension), or a single
/// self-signed "StoreKit"-like certificate. Every subject says TEST-ONLY; the keys are generated fresh.
public struct TestCertificateAuthority: Sendable {
    /// What the chain looks like.
    public enum Shape: String, Sendable, CaseIterable {
        /// Root, intermediate and leaf, like App Store receipts.
        case apple
        /// One self-signed certificate that signs receipts itself, like Xcode's StoreKit testing.
        case storeKit = "storekit"
        /// Like Apple's JWS chain: an EC P-384 root, a WWDR-style EC P-384 intermediate with its marker, and an
        /// EC P-256 leaf with the receipt-signing marker, for ES256.
        case jws
    }

    public var root: Certificate
    package var rootKey: PrivateKey
    package var intermediate: Certificate?
    package var intermediateKey: PrivateKey?
    public var leaf: Certificate
    package var leafKey: PrivateKey

    public init(
        root: Certificate, rootKey: PrivateKey, intermediate: Certificate?, intermediateKey: PrivateKey?,
        leaf: Certificate, leafKey: PrivateKey
    ) {
        self.root = root
        self.rootKey = rootKey
        self.intermediate = intermediate
        self.intermediateKey = intermediateKey
        self.leaf = leaf
        self.leafKey = leafKey
    }

    /// OID of Apple's marker extension on WWDR intermediates.
    package static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// OID of Apple's marker extension on receipt-signing leaves.
    package static let leafMarkerOID = "1.2.840.113635.100.6.11.1"

    /// Certificates as a receipt embeds them: leaf first, then intermediate and root (Apple's order).
    public var embeddedChain: [Certificate] {
        guard let intermediate else { return [leaf] }
        return [leaf, intermediate, root]
    }

    /// Generates a new chain valid from `notBefore` to `notAfter` (unix seconds).
    public static func generate(
        shape: Shape = .apple, notBefore: Int64, notAfter: Int64, keyBits: Int = 2048,
        label: String = "rcpt"
    ) throws(CryptoError) -> TestCertificateAuthority {
        let null: [UInt8] = [0x05, 0x00]
        func name(_ commonName: String) -> [(attribute: String, value: String)] {
            [("C", "US"), ("O", "\(label) TEST-ONLY"), ("OU", "TEST-ONLY, not Apple"), ("CN", commonName)]
        }
        if shape == .storeKit {
            let key = try PrivateKey.generateRSA(bits: keyBits)
            // Like Xcode's own StoreKit certificate: a self-signed CA that may also sign, for code signing.
            var request = CertificateRequest(
                subject: name("StoreKit TEST-ONLY"), serialNumber: 1,
                notBefore: notBefore, notAfter: notAfter, isCertificateAuthority: true,
                extraExtensions: [])
            request.keyUsage = "critical,digitalSignature,keyCertSign"
            request.extendedKeyUsage = "critical,codeSigning"
            let certificate = try Certificate.issue(
                request, subjectKey: key, issuer: nil, issuerKey: key,
                digest: .sha256)
            return TestCertificateAuthority(
                root: certificate, rootKey: key, intermediate: nil, intermediateKey: nil,
                leaf: certificate, leafKey: key)
        }
        let isJWS = shape == .jws
        let rootKey = isJWS ? try PrivateKey.generateEC(curve: "P-384") : try PrivateKey.generateRSA(bits: keyBits)
        let intermediateKey =
            isJWS
            ? try PrivateKey.generateEC(curve: "P-384")
            : try PrivateKey.generateRSA(bits: keyBits)
        let leafKey = isJWS ? try PrivateKey.generateEC(curve: "P-256") : try PrivateKey.generateRSA(bits: keyBits)
        let digest: DigestAlgorithm = isJWS ? .sha384 : .sha256
        let root = try Certificate.issue(
            CertificateRequest(
                subject: name("Root CA TEST-ONLY"), serialNumber: 1, notBefore: notBefore,
                notAfter: notAfter, isCertificateAuthority: true, extraExtensions: []),
            subjectKey: rootKey, issuer: nil, issuerKey: rootKey, digest: digest)
        let intermediate = try Certificate.issue(
            CertificateRequest(
                subject: name("Worldwide Developer Relations CA TEST-ONLY"), serialNumber: 2,
                notBefore: notBefore, notAfter: notAfter, isCertificateAuthority: true,
                extraExtensions: [(intermediateMarkerOID, false, null)]),
            subjectKey: intermediateKey, issuer: root, issuerKey: rootKey, digest: digest)
        let leaf = try Certificate.issue(
            CertificateRequest(
                subject: name("Receipt Signing TEST-ONLY"), serialNumber: 3, notBefore: notBefore,
                notAfter: notAfter, isCertificateAuthority: false,
                extraExtensions: [(leafMarkerOID, false, null)]),
            subjectKey: leafKey, issuer: intermediate, issuerKey: intermediateKey, digest: digest)
        return TestCertificateAuthority(
            root: root, rootKey: rootKey, intermediate: intermediate,
            intermediateKey: intermediateKey, leaf: leaf, leafKey: leafKey)
    }
}
