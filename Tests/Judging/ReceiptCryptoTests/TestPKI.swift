import ReceiptCrypto

/// A TEST-ONLY root → intermediate → leaf hierarchy with freshly generated RSA-2048 keys, built once per test run.
struct TestPKI: Sendable {
    static let markerNull: [UInt8] = [0x05, 0x00]
    static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    static let leafMarkerOID = "1.2.840.113635.100.6.11.1"

    /// 2021-01-01T00:00:00Z.
    static let leafNotBefore: Int64 = 1_609_459_200
    /// 2022-01-01T00:00:00Z.
    static let leafNotAfter: Int64 = 1_640_995_200
    /// 2021-06-01T00:00:00Z, inside every validity window.
    static let validTime: Int64 = 1_622_505_600
    /// 2023-01-01T00:00:00Z, after the leaf expired but inside the CA windows.
    static let afterLeafExpiry: Int64 = 1_672_531_200

    static let rootSubject = "CN=rcpt TEST-ONLY Root CA,O=rcpt TEST-ONLY,C=US"
    static let intermediateSubject = "CN=rcpt TEST-ONLY Intermediate CA,O=rcpt TEST-ONLY,C=US"
    static let leafSubject = "CN=rcpt TEST-ONLY Receipt Signing,O=rcpt TEST-ONLY,C=US"

    let rootKey: PrivateKey
    let intermediateKey: PrivateKey
    let leafKey: PrivateKey
    /// A key that signed nothing here.
    let otherKey: PrivateKey
    let root: Certificate
    let intermediate: Certificate
    let leaf: Certificate

    /// The shared hierarchy; generated lazily, once, on first use.
    static let shared = Result<TestPKI, CryptoError> { () throws(CryptoError) in try TestPKI() }

    private init() throws(CryptoError) {
        rootKey = try PrivateKey.generateRSA(bits: 2048)
        intermediateKey = try PrivateKey.generateRSA(bits: 2048)
        leafKey = try PrivateKey.generateRSA(bits: 2048)
        otherKey = try PrivateKey.generateRSA(bits: 2048)
        root = try Certificate.issue(
            Self.request("rcpt TEST-ONLY Root CA", serial: 1, isCA: true),
            subjectKey: rootKey, issuer: nil, issuerKey: rootKey, digest: .sha256
        )
        intermediate = try Certificate.issue(
            Self.request(
                "rcpt TEST-ONLY Intermediate CA", serial: 2, isCA: true,
                extra: [(Self.intermediateMarkerOID, false, Self.markerNull)]
            ),
            subjectKey: intermediateKey, issuer: root, issuerKey: rootKey, digest: .sha256
        )
        leaf = try Certificate.issue(
            Self.request(
                "rcpt TEST-ONLY Receipt Signing", serial: 0x0102_0304_0506, isCA: false,
                notBefore: Self.leafNotBefore, notAfter: Self.leafNotAfter,
                extra: [(Self.leafMarkerOID, false, Self.markerNull)]
            ),
            subjectKey: leafKey, issuer: intermediate, issuerKey: intermediateKey, digest: .sha256
        )
    }

    /// A request under "C=US, O=rcpt TEST-ONLY"; CAs default to 2020-01-01 ... 2040-01-01.
    static func request(
        _ commonName: String,
        serial: UInt64,
        isCA: Bool,
        notBefore: Int64 = 1_577_836_800,
        notAfter: Int64 = 2_208_988_800,
        extra: [(oid: String, critical: Bool, derValue: [UInt8])] = []
    ) -> CertificateRequest {
        CertificateRequest(
            subject: [("C", "US"), ("O", "rcpt TEST-ONLY"), ("CN", commonName)],
            serialNumber: serial,
            notBefore: notBefore,
            notAfter: notAfter,
            isCertificateAuthority: isCA,
            extraExtensions: extra
        )
    }
}
