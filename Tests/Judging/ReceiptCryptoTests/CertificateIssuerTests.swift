import ReceiptCrypto
import Testing

@Suite struct CertificateIssuerTests {
    @Test func issuedChainVerifiesAgainstItsOwnRoot() throws {
        let pki = try TestPKI.shared.get()
        let result = ChainVerifier.verify(
            leaf: pki.leaf, intermediates: [pki.intermediate], anchors: [pki.root], at: TestPKI.validTime
        )
        #expect(result.errors == [])
        #expect(result.isValid)
        #expect(result.anchorSubject == TestPKI.rootSubject)
        #expect(result.path == [TestPKI.leafSubject, TestPKI.intermediateSubject, TestPKI.rootSubject])
    }

    @Test func issuedChainDoesNotVerifyAgainstAppleRoot() throws {
        let pki = try TestPKI.shared.get()
        let appleRoot = try Fixtures.certificate(Fixtures.appleRootFile)
        let result = ChainVerifier.verify(
            leaf: pki.leaf, intermediates: [pki.intermediate], anchors: [appleRoot], at: TestPKI.validTime
        )
        #expect(!result.isValid)
        #expect(result.anchorSubject == nil)
        #expect(result.errors.contains { $0.hasPrefix("unable to get local issuer certificate") })
    }

    @Test func issuedChainDoesNotVerifyWhenItsRootIsOnlyAnIntermediate() throws {
        let pki = try TestPKI.shared.get()
        let result = ChainVerifier.verify(
            leaf: pki.leaf, intermediates: [pki.intermediate, pki.root], anchors: [], at: TestPKI.validTime
        )
        #expect(!result.isValid)
        #expect(result.path == [TestPKI.leafSubject, TestPKI.intermediateSubject, TestPKI.rootSubject])
    }

    @Test func expiredLeafIsReportedAsExpired() throws {
        let pki = try TestPKI.shared.get()
        let result = ChainVerifier.verify(
            leaf: pki.leaf, intermediates: [pki.intermediate], anchors: [pki.root], at: TestPKI.afterLeafExpiry
        )
        #expect(!result.isValid)
        #expect(result.errors == ["certificate has expired (depth 0: \(TestPKI.leafSubject))"])
    }

    @Test func collectsEveryErrorOfAChain() throws {
        let pki = try TestPKI.shared.get()
        let expiredIntermediate = try Certificate.issue(
            TestPKI.request("rcpt TEST-ONLY Intermediate CA", serial: 9, isCA: true, notBefore: 0, notAfter: 86_400),
            subjectKey: pki.intermediateKey, issuer: pki.root, issuerKey: pki.rootKey, digest: .sha256
        )
        let result = ChainVerifier.verify(
            leaf: pki.leaf, intermediates: [expiredIntermediate], anchors: [pki.root], at: TestPKI.afterLeafExpiry
        )
        #expect(!result.isValid)
        #expect(
            result.errors == [
                "certificate has expired (depth 1: \(TestPKI.intermediateSubject))",
                "certificate has expired (depth 0: \(TestPKI.leafSubject))",
            ])
    }

    @Test func leafSignedByTheWrongKeyFailsSignatureCheck() throws {
        let pki = try TestPKI.shared.get()
        let forged = try Certificate.issue(
            TestPKI.request("rcpt TEST-ONLY Receipt Signing", serial: 77, isCA: false),
            subjectKey: pki.leafKey, issuer: pki.intermediate, issuerKey: pki.otherKey, digest: .sha256
        )
        let result = ChainVerifier.verify(
            leaf: forged, intermediates: [pki.intermediate], anchors: [pki.root], at: TestPKI.validTime
        )
        #expect(!result.isValid)
        #expect(result.errors.contains { $0.hasPrefix("certificate signature failure (depth 0") })
    }

    @Test func issuedLeafCarriesRequestedFieldsAndAppleMarker() throws {
        let pki = try TestPKI.shared.get()
        let leaf = pki.leaf
        #expect(leaf.subject == TestPKI.leafSubject)
        #expect(leaf.issuer == TestPKI.intermediateSubject)
        #expect(leaf.serialHex == "010203040506")
        #expect(leaf.notBefore == TestPKI.leafNotBefore)
        #expect(leaf.notAfter == TestPKI.leafNotAfter)
        #expect(leaf.signatureAlgorithm == "sha256WithRSAEncryption")
        #expect(leaf.publicKeyDescription == "RSA 2048")
        #expect(!leaf.isSelfIssued)
        #expect(
            leaf.extensions.map(\.name) == [
                "X509v3 Key Usage", "X509v3 Subject Key Identifier", "X509v3 Authority Key Identifier",
                "Apple Mac App Store receipt signing (leaf marker)",
            ])
        #expect(leaf.extensions[0].critical && leaf.extensions[0].value == "Digital Signature")
        let marker = leaf.extensions[3]
        #expect(marker.oid == TestPKI.leafMarkerOID && marker.value == "0500" && !marker.critical)
        // The leaf's authority key identifier is the intermediate's subject key identifier.
        let intermediateKeyID = try #require(pki.intermediate.extensions.first { $0.oid == "2.5.29.14" })
        #expect(leaf.extensions[2].value == intermediateKeyID.value)
    }

    @Test func issuedCertificateAuthoritiesCarryCAExtensions() throws {
        let pki = try TestPKI.shared.get()
        #expect(pki.root.isSelfIssued)
        #expect(pki.root.subject == TestPKI.rootSubject && pki.root.issuer == TestPKI.rootSubject)
        #expect(
            pki.intermediate.extensions.map(\.name) == [
                "X509v3 Basic Constraints", "X509v3 Key Usage", "X509v3 Subject Key Identifier",
                "X509v3 Authority Key Identifier", "Apple WWDR intermediate marker",
            ])
        let basic = pki.intermediate.extensions[0]
        #expect(basic.critical && basic.value == "CA:TRUE")
        #expect(pki.intermediate.extensions[1].value == "Certificate Sign, CRL Sign")
        // A self-signed root's authority key identifier equals its own subject key identifier.
        #expect(pki.root.extensions[3].value == pki.root.extensions[2].value)
        #expect(pki.root.extensions[2].value.count == 59)  // 20 bytes as "AB:CD:..."
    }

    @Test func keepsUTF8SubjectUnescaped() throws {
        let pki = try TestPKI.shared.get()
        var request = TestPKI.request("Zürich 東京 ✓", serial: 0, isCA: false)
        request.subject.insert((attribute: "OU", value: "a,b+c"), at: 2)
        let certificate = try Certificate.issue(
            request, subjectKey: pki.leafKey, issuer: pki.root, issuerKey: pki.rootKey, digest: .sha256
        )
        #expect(certificate.subject == "CN=Zürich 東京 ✓,OU=a\\,b\\+c,O=rcpt TEST-ONLY,C=US")
        #expect(certificate.serialHex == "0")
    }

    @Test func issuesSHA1SignedCertificateThatStillVerifies() throws {
        let pki = try TestPKI.shared.get()
        let legacy = try Certificate.issue(
            TestPKI.request("rcpt TEST-ONLY SHA-1 Leaf", serial: 5, isCA: false),
            subjectKey: pki.leafKey, issuer: pki.intermediate, issuerKey: pki.intermediateKey, digest: .sha1
        )
        #expect(legacy.signatureAlgorithm == "sha1WithRSAEncryption")
        let result = ChainVerifier.verify(
            leaf: legacy, intermediates: [pki.intermediate], anchors: [pki.root], at: TestPKI.validTime
        )
        #expect(result.errors == [])
        #expect(result.isValid)
    }

    @Test func issuesCertificateDatedBefore1950AndAfter2049() throws {
        let pki = try TestPKI.shared.get()
        // 1900-01-01 and 2100-01-01 need GeneralizedTime; `date -u -d 1900-01-01 +%s`, `date -u -d 2100-01-01 +%s`.
        let certificate = try Certificate.issue(
            TestPKI.request(
                "rcpt TEST-ONLY Wide", serial: 6, isCA: false, notBefore: -2_208_988_800,
                notAfter: 4_102_444_800),
            subjectKey: pki.leafKey, issuer: nil, issuerKey: pki.leafKey, digest: .sha256
        )
        #expect(certificate.notBefore == -2_208_988_800)
        #expect(certificate.notAfter == 4_102_444_800)
    }

    @Test(arguments: [
        ("not an oid", [UInt8]([0x05, 0x00])),
        ("", [0x05, 0x00]),
    ])
    func rejectsInvalidExtraExtensionOID(oid: String, value: [UInt8]) throws {
        let pki = try TestPKI.shared.get()
        let request = TestPKI.request("x", serial: 1, isCA: false, extra: [(oid, false, value)])
        let error = #expect(throws: CryptoError.self) {
            try Certificate.issue(
                request, subjectKey: pki.leafKey, issuer: nil, issuerKey: pki.leafKey, digest: .sha256)
        }
        #expect(error?.code == "certificate-issue-failed")
    }

    @Test func rejectsUnknownSubjectAttribute() throws {
        let pki = try TestPKI.shared.get()
        var request = TestPKI.request("x", serial: 1, isCA: false)
        request.subject.append((attribute: "NoSuchAttribute", value: "x"))
        let error = #expect(throws: CryptoError.self) {
            try Certificate.issue(
                request, subjectKey: pki.leafKey, issuer: nil, issuerKey: pki.leafKey, digest: .sha256)
        }
        #expect(error?.code == "certificate-issue-failed")
        #expect(error?.openSSLErrors.isEmpty == false)
    }
}
