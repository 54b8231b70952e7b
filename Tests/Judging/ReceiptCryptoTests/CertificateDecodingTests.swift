import ReceiptCrypto
import Testing

/// Expected fields of one corpus certificate, all taken from the openssl CLI:
/// `openssl x509 -inform DER -noout -subject -issuer -serial -dates -fingerprint -sha256 -nameopt RFC2253 -text`,
/// with dates converted by `date -u -d '<date>' +%s`.
struct CorpusCertificate: Sendable, CustomTestStringConvertible {
    var file: String
    var sha256: String
    var serial: String
    var subject: String
    var issuer: String
    var notBefore: Int64
    var notAfter: Int64
    var signatureAlgorithm: String
    var publicKey: String

    var testDescription: String { file }

    static let appleCA = "CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US"
    static let appleG3 = "C=US,O=Apple Inc.,OU=Apple Certification Authority,CN=Apple Root CA - G3"
    static let wwdrG1 =
        "CN=Apple Worldwide Developer Relations Certification Authority,OU=Apple Worldwide Developer Relations,"
        + "O=Apple Inc.,C=US"

    static func wwdr(_ generation: String, reversed: Bool) -> String {
        let commonName = "CN=Apple Worldwide Developer Relations Certification Authority"
        return reversed
            ? "\(commonName),OU=\(generation),O=Apple Inc.,C=US"
            : "C=US,O=Apple Inc.,OU=\(generation),\(commonName)"
    }

    static let all: [CorpusCertificate] = [
        .init(
            file: "AppleIncRootCertificate.cer",
            sha256: "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024",
            serial: "02", subject: appleCA, issuer: appleCA, notBefore: 1_146_001_236, notAfter: 2_054_670_036,
            signatureAlgorithm: "sha1WithRSAEncryption", publicKey: "RSA 2048"
        ),
        .init(
            file: "AppleRootCA-G3.cer",
            sha256: "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179",
            serial: "2dc5fc88d2c54b95", subject: appleG3, issuer: appleG3, notBefore: 1_398_881_946,
            notAfter: 2_187_800_346, signatureAlgorithm: "ecdsa-with-SHA384", publicKey: "EC 384 (secp384r1)"
        ),
        .init(
            file: "AppleWWDRCA-G1-2008-extracted.cer",
            sha256: "64b302913f11ca1b6806093b76cade7f7b123be0c04924fda87f5f4e8647f051",
            serial: "19", subject: wwdrG1, issuer: appleCA, notBefore: 1_203_015_395, notAfter: 1_455_476_195,
            signatureAlgorithm: "sha1WithRSAEncryption", publicKey: "RSA 2048"
        ),
        .init(
            file: "AppleWWDRCA-G1-2013-extracted.cer",
            sha256: "ce057691d730f89ca25e916f7335f4c8a15713dcd273a658c024023f8eb809c2",
            serial: "01debcc4396da010", subject: wwdrG1, issuer: appleCA, notBefore: 1_360_273_727,
            notAfter: 1_675_806_527, signatureAlgorithm: "sha1WithRSAEncryption", publicKey: "RSA 2048"
        ),
        .init(
            file: "AppleWWDRCAG2.cer",
            sha256: "9ed4b3b88c6a339cf1387895bda9ca6ea31a6b5ce9edf7511845923b0c8ac94c",
            serial: "6fefd8f5e9a3a7ee",
            subject:
                "C=US,O=Apple Inc.,OU=Apple Certification Authority,CN=Apple Worldwide Developer Relations CA - G2",
            issuer: appleG3, notBefore: 1_399_419_804, notAfter: 1_872_805_404,
            signatureAlgorithm: "ecdsa-with-SHA256", publicKey: "EC 256 (prime256v1)"
        ),
        .init(
            file: "AppleWWDRCAG3.cer",
            sha256: "dcf21878c77f4198e4b4614f03d696d89c66c66008d4244e1b99161aac91601f",
            serial: "7caf690a25b739fe7b9b447ac178c5ee", subject: wwdr("G3", reversed: false), issuer: appleCA,
            notBefore: 1_582_136_027, notAfter: 1_897_776_000, signatureAlgorithm: "sha256WithRSAEncryption",
            publicKey: "RSA 2048"
        ),
        .init(
            file: "AppleWWDRCAG4.cer",
            sha256: "ea4757885538dd8cb59ff4556f676087d83c85e70902c122e42c0808b5bce14c",
            serial: "13dc77955271e53dc632e8ccffe521f3ccc5ced2", subject: wwdr("G4", reversed: false), issuer: appleCA,
            notBefore: 1_608_147_364, notAfter: 1_923_091_200, signatureAlgorithm: "sha256WithRSAEncryption",
            publicKey: "RSA 2048"
        ),
        .init(
            file: "AppleWWDRCAG5.cer",
            sha256: "53fd008278e5a595fe1e908ae9c5e5675f26243264a5a6438c023e3ce2870760",
            serial: "3b7e800aeed302a1e6ecdb97d9caac289cf16994", subject: wwdr("G5", reversed: false), issuer: appleCA,
            notBefore: 1_608_147_536, notAfter: 1_923_091_200, signatureAlgorithm: "sha256WithRSAEncryption",
            publicKey: "RSA 2048"
        ),
        .init(
            file: "AppleWWDRCAG6.cer",
            sha256: "bdd4ed6e74691f0c2bfd01be0296197af1379e0418e2d300efa9c3bef642ca30",
            serial: "22c1a1470a747369ef538612c9c69f3d38f36cd7", subject: wwdr("G6", reversed: false), issuer: appleG3,
            notBefore: 1_616_013_430, notAfter: 2_089_497_600, signatureAlgorithm: "ecdsa-with-SHA384",
            publicKey: "EC 384 (secp384r1)"
        ),
        .init(
            file: "AppleWWDRCAG7.cer",
            sha256: "0f570d7502373a2102e2106faaa8fa4844944a07ee676198484f4d6ce15bea47",
            serial: "341858ff01fe063f8ef19f1fe93c01b4c146ffc9", subject: wwdr("G7", reversed: true), issuer: appleCA,
            notBefore: 1_668_717_653, notAfter: 1_700_253_652, signatureAlgorithm: "sha1WithRSAEncryption",
            publicKey: "RSA 2048"
        ),
        .init(
            file: "AppleWWDRCAG8.cer",
            sha256: "29901badea37c9f300ce9869956beeb001d7e71bffb2e2d9533e132a4e87e6bd",
            serial: "54b50baf790d8d7f8caf684c562f50690a1aba5f", subject: wwdr("G8", reversed: true), issuer: appleCA,
            notBefore: 1_687_304_235, notAfter: 1_737_676_800, signatureAlgorithm: "sha1WithRSAEncryption",
            publicKey: "RSA 2048"
        ),
        .init(
            file: "StoreKitTestCertificate.cer",
            sha256: "ff0ba36e721d2db741d2aa11e6112ef78bf7131b46c7f035b00891d045c864fe",
            serial: "01", subject: Fixtures.storeKitSubject, issuer: Fixtures.storeKitSubject,
            notBefore: 1_585_763_555, notAfter: 2_216_483_555, signatureAlgorithm: "sha256WithRSAEncryption",
            publicKey: "RSA 2048"
        ),
    ]
}

@Suite struct CertificateDecodingTests {
    @Test func decodesAppleRootSubjectAndFingerprint() throws {
        let bytes = try Fixtures.certificateBytes(Fixtures.appleRootFile)
        let root = try Certificate(derEncoded: bytes)
        #expect(root.subject == Fixtures.appleRootSubject)
        #expect(root.issuer == Fixtures.appleRootSubject)
        #expect(root.serialHex == "02")
        #expect(root.notBefore == 1_146_001_236)  // Apr 25 21:40:36 2006 GMT
        #expect(root.notAfter == 2_054_670_036)  // Feb  9 21:40:36 2035 GMT
        #expect(root.signatureAlgorithm == "sha1WithRSAEncryption")
        #expect(root.publicKeyDescription == "RSA 2048")
        #expect(root.sha256Fingerprint == "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024")
        #expect(root.isSelfIssued)
        #expect(root.derEncoded == bytes)
    }

    @Test func decodesAppleRootExtensionsInOrder() throws {
        let root = try Fixtures.certificate(Fixtures.appleRootFile)
        let keyIdentifier = "2B:D0:69:47:94:76:09:FE:F4:6B:8D:2E:40:A6:F7:47:4D:7F:08:5E"
        let expected: [(oid: String, name: String, critical: Bool, value: String?)] = [
            ("2.5.29.15", "X509v3 Key Usage", true, "Certificate Sign, CRL Sign"),
            ("2.5.29.19", "X509v3 Basic Constraints", true, "CA:TRUE"),
            ("2.5.29.14", "X509v3 Subject Key Identifier", false, keyIdentifier),
            ("2.5.29.35", "X509v3 Authority Key Identifier", false, keyIdentifier),
            ("2.5.29.32", "X509v3 Certificate Policies", false, nil),
        ]
        try #require(root.extensions.count == expected.count)
        for (actual, wanted) in zip(root.extensions, expected) {
            #expect(actual.oid == wanted.oid)
            #expect(actual.name == wanted.name)
            #expect(actual.critical == wanted.critical)
            if let value = wanted.value {
                #expect(actual.value == value)
            }
        }
        let policies = root.extensions[4].value
        #expect(policies.hasPrefix("Policy: 1.2.840.113635.100.5.1; CPS: https://www.apple.com/appleca/; "))
        #expect(policies.contains("Explicit Text: Reliance on this certificate by any party"))
        #expect(!policies.contains("\n"))
    }

    @Test func namesAppleWWDRMarkerAndShowsItsRawValue() throws {
        let wwdr = try Fixtures.certificate(Fixtures.wwdr2008File)
        let marker = try #require(wwdr.extensions.first { $0.oid == "1.2.840.113635.100.6.2.1" })
        #expect(marker.name == "Apple WWDR intermediate marker")
        #expect(!marker.critical)
        #expect(marker.value == "0500")  // openssl asn1parse: OCTET STRING [HEX DUMP]:0500
        let crl = try #require(wwdr.extensions.first { $0.oid == "2.5.29.31" })
        #expect(crl.name == "X509v3 CRL Distribution Points")
        #expect(crl.value == "Full Name:; URI:http://www.apple.com/appleca/root.crl")
        #expect(!wwdr.isSelfIssued)
    }

    @Test(arguments: CorpusCertificate.all)
    func decodesCorpusCertificateLikeOpenSSLCLI(expected: CorpusCertificate) throws {
        let bytes = try Fixtures.certificateBytes(expected.file)
        let certificate = try Certificate(derEncoded: bytes)
        #expect(certificate.sha256Fingerprint == expected.sha256)
        #expect(certificate.serialHex == expected.serial)
        #expect(certificate.subject == expected.subject)
        #expect(certificate.issuer == expected.issuer)
        #expect(certificate.notBefore == expected.notBefore)
        #expect(certificate.notAfter == expected.notAfter)
        #expect(certificate.signatureAlgorithm == expected.signatureAlgorithm)
        #expect(certificate.publicKeyDescription == expected.publicKey)
        #expect(certificate.isSelfIssued == (expected.subject == expected.issuer))
        #expect(certificate.derEncoded == bytes)
    }

    @Test(arguments: CorpusCertificate.all)
    func pemEncodingLoadsBackToTheSameCertificate(expected: CorpusCertificate) throws {
        let certificate = try Fixtures.certificate(expected.file)
        let pem = certificate.pemEncoded
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(pem.hasSuffix("\n-----END CERTIFICATE-----\n"))
        #expect(pem.split(separator: "\n").allSatisfy { $0.count <= 64 })
        let loaded = try Certificate.load(fileContents: Array(pem.utf8))
        #expect(loaded.map(\.derEncoded) == [certificate.derEncoded])
    }

    @Test func decodesFromASliceWithNonZeroStartIndex() throws {
        let bytes = try Fixtures.certificateBytes(Fixtures.appleRootFile)
        let padded = [0xAA, 0xBB, 0xCC] + bytes + [0xDD]
        let certificate = try Certificate(derEncoded: padded[3..<(padded.count - 1)])
        #expect(certificate.sha256Fingerprint == "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024")
        #expect(certificate.derEncoded == bytes)
    }

    /// The Apple root's serial INTEGER (02 01 02) with its content byte replaced. `openssl x509 -serial` prints "-02"
    /// for 0xFE and "7F" for 0x7F; for 0x00 it prints "00", where this API's contract is "0".
    @Test(arguments: [(UInt8(0xFE), "-02"), (0x7F, "7f"), (0x00, "0")])
    func rendersSerialSignAndZeroLikeOpenSSLCLI(content: UInt8, expected: String) throws {
        let root = try Fixtures.certificateBytes(Fixtures.appleRootFile)
        let versionAndSerial: [UInt8] = [0xA0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x01, 0x02]
        let rewritten = try #require(
            replacingFirst(versionAndSerial, with: versionAndSerial.dropLast() + [content], in: root)
        )
        let certificate = try Certificate(derEncoded: rewritten)
        #expect(certificate.serialHex == expected)
    }

    @Test func fallsBackToHexForAnExtensionOpenSSLCannotParse() throws {
        // The Apple root's basicConstraints value 30 03 01 01 FF (SEQUENCE { BOOLEAN TRUE }) with the BOOLEAN tag
        // replaced by OCTET STRING: still a certificate, but the extension value no longer parses.
        let root = try Fixtures.certificateBytes(Fixtures.appleRootFile)
        let basicConstraints: [UInt8] = [0x04, 0x05, 0x30, 0x03, 0x01, 0x01, 0xFF]
        let broken: [UInt8] = [0x04, 0x05, 0x30, 0x03, 0x04, 0x01, 0xFF]
        let rewritten = try #require(replacingFirst(basicConstraints, with: broken, in: root))
        let certificate = try Certificate(derEncoded: rewritten)
        let extensionValue = try #require(certificate.extensions.first { $0.oid == "2.5.29.19" })
        #expect(extensionValue.name == "X509v3 Basic Constraints")
        #expect(extensionValue.critical)
        #expect(extensionValue.value == "30030401ff")
    }
}
