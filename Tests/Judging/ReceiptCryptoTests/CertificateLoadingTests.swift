import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import Testing

@Suite struct CertificateLoadingTests {
    @Test func loadsSingleDERFile() throws {
        let bytes = try Fixtures.certificateBytes(Fixtures.storeKitFile)
        let certificates = try Certificate.load(fileContents: bytes)
        #expect(
            certificates.map(\.sha256Fingerprint)
                == ["ff0ba36e721d2db741d2aa11e6112ef78bf7131b46c7f035b00891d045c864fe"])
    }

    @Test func loadsEveryCertificateOfAPEMBundleInOrder() throws {
        let root = try Fixtures.certificate(Fixtures.appleRootFile)
        let wwdr = try Fixtures.certificate(Fixtures.wwdr2008File)
        // Text around and between the blocks, CRLF line ends and a non-certificate block are all tolerated.
        let publicKeyBlock =
            "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n"
            + "-----END PUBLIC KEY-----\n"
        let bundle =
            "Bag Attributes: ignored\n" + wwdr.pemEncoded + publicKeyBlock
            + root.pemEncoded.replacingOccurrences(of: "\n", with: "\r\n") + "trailing comment\n"
        let certificates = try Certificate.load(fileContents: Array(bundle.utf8))
        #expect(
            certificates.map(\.sha256Fingerprint) == [
                "64b302913f11ca1b6806093b76cade7f7b123be0c04924fda87f5f4e8647f051",
                "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024",
            ])
    }

    @Test func loadsPEMWhoseLeadingTextStartsWithZero() throws {
        // "0" is 0x30, the DER SEQUENCE tag; `openssl s_client -showcerts` style text can start with it.
        let storeKit = try Fixtures.certificate(Fixtures.storeKitFile)
        let text = "0 s:CN=StoreKit\n" + storeKit.pemEncoded
        let certificates = try Certificate.load(fileContents: Array(text.utf8))
        #expect(certificates.map(\.derEncoded) == [storeKit.derEncoded])
    }

    /// Inputs that must be rejected with a thrown CryptoError (never a crash).
    static let malformedFiles: [(String, [UInt8])] = [
        ("empty", []),
        ("lone SEQUENCE tag", [0x30]),
        ("SEQUENCE claiming more bytes than present", [0x30, 0x82, 0x04, 0xbb, 0x30, 0x82]),
        ("garbage text", Array("hello, world".utf8)),
        ("zero bytes", [UInt8](repeating: 0, count: 64)),
        ("PEM without end line", Array("-----BEGIN CERTIFICATE-----\nMIIB\n".utf8)),
        ("PEM with invalid base64", Array("-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n".utf8)),
        ("PEM holding garbage DER", Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)),
        ("PEM with only a key block", Array("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".utf8)),
    ]

    @Test(arguments: malformedFiles)
    func rejectsMalformedFileWithCryptoError(label: String, contents: [UInt8]) {
        let error = #expect(throws: CryptoError.self) {
            try Certificate.load(fileContents: contents)
        }
        #expect(error?.code == "certificate-decode-failed")
    }

    @Test(arguments: [1, 2, 100, 600, 1214])
    func rejectsTruncatedDER(length: Int) throws {
        let bytes = try Fixtures.certificateBytes(Fixtures.appleRootFile)
        let truncated = Array(bytes.prefix(length))
        let error = #expect(throws: CryptoError.self) {
            try Certificate(derEncoded: truncated)
        }
        #expect(error?.code == "certificate-decode-failed")
        #expect(throws: CryptoError.self) {
            try Certificate.load(fileContents: truncated)
        }
    }

    @Test func rejectsTrailingBytesAfterDER() throws {
        let bytes = try Fixtures.certificateBytes(Fixtures.appleRootFile)
        let error = #expect(throws: CryptoError.self) {
            try Certificate(derEncoded: bytes + [0x00])
        }
        #expect(error?.code == "certificate-decode-failed")
        #expect(error?.message.contains("1 trailing bytes") == true)
        #expect(throws: CryptoError.self) {
            try Certificate.load(fileContents: bytes + bytes)
        }
    }

    @Test func decodeFailureReportsOpenSSLErrorsWithoutLeakingIntoLaterCalls() throws {
        let first = #expect(throws: CryptoError.self) {
            try Certificate(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x01])
        }
        #expect(first?.openSSLErrors.isEmpty == false)
        // A successful PEM load leaves "no start line" in OpenSSL's queue internally; it must not surface later.
        let root = try Fixtures.certificate(Fixtures.appleRootFile)
        _ = try Certificate.load(fileContents: Array(root.pemEncoded.utf8))
        let second = #expect(throws: CryptoError.self) {
            try Certificate(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x01])
        }
        #expect(second == first)
        #expect(second?.openSSLErrors.contains { $0.contains("no start line") } == false)
    }

    @Test func describesErrorWithCodeMessageAndOpenSSLErrors() {
        let error = CryptoError(.keyDecodeFailed, message: "bad key", openSSLErrors: ["e1", "e2"])
        #expect(error.description == "key-decode-failed: bad key [e1; e2]")
        #expect(CryptoError(.digestFailed, message: "y").description == "digest-failed: y")
    }
}
