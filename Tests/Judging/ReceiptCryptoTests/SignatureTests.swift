import Testing

@testable import ReceiptCrypto

@Suite struct SignatureTests {
    static let message: [ArraySlice<UInt8>] = [
        Array("rcpt ".utf8)[...], [], Array("TEST-ONLY receipt payload".utf8)[...],
    ]

    @Test(arguments: [DigestAlgorithm.sha1, .sha256])
    func signatureRoundTripsAndIsSplitIndependent(digest: DigestAlgorithm) throws {
        let pki = try TestPKI.shared.get()
        let signature = try Signer.sign(Self.message, digest: digest, key: pki.leafKey)
        #expect(signature.count == 256)
        let joined = [Self.message.flatMap { $0 }[...]]
        #expect(
            SignatureVerifier.verify(
                signature: signature[...], over: Self.message, digest: digest, certificate: pki.leaf)
                == .valid)
        #expect(
            SignatureVerifier.verify(signature: signature[...], over: joined, digest: digest, certificate: pki.leaf)
                == .valid)
    }

    @Test(arguments: [DigestAlgorithm.sha1, .sha256])
    func rejectsTamperedMessage(digest: DigestAlgorithm) throws {
        let pki = try TestPKI.shared.get()
        let signature = try Signer.sign(Self.message, digest: digest, key: pki.leafKey)
        var tampered = Self.message
        tampered[2][tampered[2].startIndex + 3] ^= 0x01
        let check = SignatureVerifier.verify(
            signature: signature[...], over: tampered, digest: digest, certificate: pki.leaf)
        #expect(check.isInvalid)
    }

    @Test(arguments: [0, 100, 255])
    func rejectsSignatureWithOneBitFlipped(byteIndex: Int) throws {
        let pki = try TestPKI.shared.get()
        var signature = try Signer.sign(Self.message, digest: .sha256, key: pki.leafKey)
        signature[byteIndex] ^= 0x80
        let check = SignatureVerifier.verify(
            signature: signature[...], over: Self.message, digest: .sha256, certificate: pki.leaf)
        #expect(check.isInvalid)
    }

    @Test(arguments: [0, 1, 128, 255, 257, 512])
    func rejectsSignatureOfWrongLengthWithoutCrashing(length: Int) throws {
        let pki = try TestPKI.shared.get()
        let signature = try Signer.sign(Self.message, digest: .sha256, key: pki.leafKey)
        let resized = Array((signature + signature + signature).prefix(length))
        let check = SignatureVerifier.verify(
            signature: resized[...], over: Self.message, digest: .sha256, certificate: pki.leaf)
        #expect(check.isInvalid)
    }

    @Test func rejectsSignatureCheckedWithAnotherKeysCertificate() throws {
        let pki = try TestPKI.shared.get()
        let signature = try Signer.sign(Self.message, digest: .sha256, key: pki.leafKey)
        let check = SignatureVerifier.verify(
            signature: signature[...], over: Self.message, digest: .sha256, certificate: pki.intermediate
        )
        #expect(check.isInvalid)
    }

    @Test func rejectsSignatureCheckedWithTheWrongDigest() throws {
        let pki = try TestPKI.shared.get()
        let signature = try Signer.sign(Self.message, digest: .sha256, key: pki.leafKey)
        let check = SignatureVerifier.verify(
            signature: signature[...], over: Self.message, digest: .sha1, certificate: pki.leaf)
        #expect(check.isInvalid)
    }

    @Test func verifiesAppleRootSignatureOnWWDR2008() throws {
        // The WWDR intermediate's own signature: sha1WithRSAEncryption over its TBSCertificate by the Apple root key.
        let root = try Fixtures.certificate(Fixtures.appleRootFile)
        let wwdr = try Fixtures.certificateBytes(Fixtures.wwdr2008File)
        let parts = try #require(CertificateParts(wwdr))
        #expect(
            SignatureVerifier.verify(
                signature: parts.signature, over: [parts.toBeSigned], digest: .sha1, certificate: root)
                == .valid)
        #expect(
            SignatureVerifier.verify(
                signature: parts.signature, over: [parts.toBeSigned], digest: .sha256, certificate: root
            ).isInvalid)
    }

    @Test func verifiesAppleRootG3ECDSASignatureOnWWDRG6() throws {
        // ecdsa-with-SHA384 over the TBSCertificate, checked with the P-384 key of Apple Root CA - G3.
        let rootG3 = try Fixtures.certificate("AppleRootCA-G3.cer")
        let g6 = try Fixtures.certificateBytes("AppleWWDRCAG6.cer")
        let parts = try #require(CertificateParts(g6))
        #expect(
            SignatureVerifier.verify(
                signature: parts.signature, over: [parts.toBeSigned], digest: .sha384, certificate: rootG3)
                == .valid)
        var corrupted = Array(parts.signature)
        corrupted[corrupted.count - 1] ^= 0x01
        #expect(
            SignatureVerifier.verify(
                signature: corrupted[...], over: [parts.toBeSigned], digest: .sha384, certificate: rootG3
            ).isInvalid)
        // A DER ECDSA signature with nonsense structure is invalid, not a crash.
        #expect(
            SignatureVerifier.verify(
                signature: [0x30, 0x02, 0x05, 0x00], over: [parts.toBeSigned], digest: .sha384, certificate: rootG3
            ).isInvalid)
    }

    @Test func ecKeySignsAndVerifies() throws {
        let pki = try TestPKI.shared.get()
        let ecKey = try PrivateKey(pemEncoded: Array(PrivateKeyFixtures.ecP256.utf8))
        let certificate = try Certificate.issue(
            TestPKI.request("rcpt TEST-ONLY EC", serial: 11, isCA: false),
            subjectKey: ecKey, issuer: nil, issuerKey: ecKey, digest: .sha256
        )
        #expect(certificate.publicKeyDescription == "EC 256 (prime256v1)")
        #expect(certificate.signatureAlgorithm == "ecdsa-with-SHA256")
        let signature = try Signer.sign(Self.message, digest: .sha256, key: ecKey)
        #expect(
            SignatureVerifier.verify(
                signature: signature[...], over: Self.message, digest: .sha256, certificate: certificate)
                == .valid)
        #expect(
            SignatureVerifier.verify(
                signature: signature[...], over: Self.message, digest: .sha256, certificate: pki.leaf
            ).isInvalid)
    }

    @Test func reportsEd25519CertificateKeyAsUnsupported() throws {
        let pki = try TestPKI.shared.get()
        let edKey = try PrivateKey(pemEncoded: Array(PrivateKeyFixtures.ed25519.utf8))
        #expect(edKey.publicKeyDescription == "Ed25519")
        let certificate = try Certificate.issue(
            TestPKI.request("rcpt TEST-ONLY Ed25519", serial: 12, isCA: false),
            subjectKey: edKey, issuer: pki.root, issuerKey: pki.rootKey, digest: .sha256
        )
        #expect(certificate.publicKeyDescription == "Ed25519")
        let check = SignatureVerifier.verify(
            signature: [UInt8](repeating: 1, count: 64)[...], over: Self.message, digest: .sha256,
            certificate: certificate
        )
        guard case .unsupported = check else {
            Issue.record("expected .unsupported, got \(check)")
            return
        }
        let error = #expect(throws: CryptoError.self) {
            try Signer.sign(Self.message, digest: .sha256, key: edKey)
        }
        #expect(error?.code == "signing-failed")
    }

    @Test func reportsUnknownPublicKeyAlgorithmAsUnsupported() throws {
        // The Apple root's key algorithm rsaEncryption (1.2.840.113549.1.1.1) rewritten to the unassigned ...1.1.99.
        let root = try Fixtures.certificateBytes(Fixtures.appleRootFile)
        let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
        let unknown = Array(rsaEncryption.dropLast()) + [0x63]
        let rewritten = try #require(replacingFirst(rsaEncryption, with: unknown, in: root))
        let certificate = try Certificate(derEncoded: rewritten)
        #expect(certificate.publicKeyDescription == "unknown")
        let check = SignatureVerifier.verify(
            signature: [1, 2, 3], over: Self.message, digest: .sha256, certificate: certificate)
        guard case .unsupported(let reason) = check else {
            Issue.record("expected .unsupported, got \(check)")
            return
        }
        #expect(reason.contains("1.2.840.113549.1.1.99"))
    }

    @Test func reportsUndecodableECKeyAsInvalid() throws {
        // Apple Root CA - G3's curve secp384r1 (1.3.132.0.34) rewritten to the unknown curve 1.3.132.0.127.
        let rootG3 = try Fixtures.certificateBytes("AppleRootCA-G3.cer")
        let secp384r1: [UInt8] = [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]
        let rewritten = try #require(
            replacingFirst(secp384r1, with: [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x7F], in: rootG3))
        let certificate = try Certificate(derEncoded: rewritten)
        #expect(certificate.publicKeyDescription == "unknown")
        let check = SignatureVerifier.verify(
            signature: [1, 2, 3], over: Self.message, digest: .sha384, certificate: certificate)
        #expect(check.isInvalid)
    }
}

extension SignatureCheck {
    /// True for `.invalid`, whatever the reason.
    var isInvalid: Bool {
        if case .invalid = self {
            return true
        }
        return false
    }
}

@Suite("OpenSSL errors in words")
struct OpenSSLErrorTextTests {
    @Test func explainsTheReasonsAndKeepsTheRawEntriesLast() {
        let raw = [
            "error:0200008A:rsa routines::invalid padding", "error:02000072:rsa routines::padding check failed",
            "error:1C880004:Provider routines::RSA lib",
        ]
        let text = OpenSSLErrorText.annotate("signature does not match", raw)
        #expect(text.hasPrefix("signature does not match: the signature's PKCS#1 padding is wrong"))
        #expect(text.hasSuffix("[OpenSSL: " + raw.joined(separator: "; ") + "]"))
        // Each reason once, and reasons that only say another follows are left out.
        #expect(
            OpenSSLErrorText.explain(raw)
                == "the signature's PKCS#1 padding is wrong (made with another key, or altered)")
        #expect(
            OpenSSLErrorText.explain(["error:0680007B:asn1 encoding routines:ASN1_get_object:header too long"])
                == "an ASN.1 length runs past the end of the data")
        #expect(OpenSSLErrorText.explain(["error:1:lib:func:something new"]) == "something new")
        #expect(OpenSSLErrorText.annotate("plain", []) == "plain")
    }
}
