import ReceiptDiagnostics
import ReceiptInput
import ReceiptModel
import ReceiptPKCS7
import ReceiptTestSupport
import ReceiptValidation
import Testing

@Suite("Verifying real receipts")
struct RealReceiptVerificationTests {
    @Test(arguments: Fixtures.realReceiptNames)
    func everyRealReceiptVerifiesAtItsCreationDate(_ name: String) throws {
        let bytes = Fixtures.realReceipt(name)
        let inspection = Fixtures.isXcodeReceipt(name) ? try Inspect.storeKit(bytes) : try Inspect.apple(bytes)
        let verification = try #require(inspection.verification)
        #expect(verification.signature == .valid)
        #expect(verification.chain == .valid)
        let errors = Inspect.errors(inspection)
        #expect(errors.isEmpty, "\(errors)")
        if Fixtures.isXcodeReceipt(name) {
            #expect(verification.anchor?.contains("CN=StoreKit") == true)
        } else {
            #expect(verification.anchor == "CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US")
            #expect(verification.path.count == 3)
        }
    }

    /// `--input-format` travels in the options, so every entry point that inspects bytes forces the same reading: a
    /// receipt forced to be a JWS is a JWS that does not read, a receipt forced as DER is the receipt.
    @Test func theOptionsForcedFormatIsTheClassifiersForce() throws {
        let bytes = Fixtures.realReceipt("kvitto-sandboxReceipt.receipt")
        var options = InspectionOptions(anchors: try TrustAnchors.appleRoot())
        #expect(Inspector.inspect(bytes, options: options).isValid)
        options.forcedFormat = .jws
        let forcedJWS = Inspector.inspect(bytes, options: options)
        #expect(forcedJWS.kind == .jws)
        #expect(!forcedJWS.isValid)
        options.forcedFormat = .receipt(.binary)
        #expect(Inspector.inspect(bytes, options: options).isValid)
        options.forcedFormat = .receipt(.base64)
        #expect(!Inspector.inspect(bytes, options: options).isValid)
        #expect(
            InspectionOptions(anchors: try TrustAnchors.appleRoot(), inputFormat: .pem).forcedFormat == .receipt(.pem))
    }

    /// `--input-format base64` of a token's text (a trial: "not base64"): the base64 is taken off and the JWS read,
    /// as detection reads it; base64 of a receipt stays a receipt.
    @Test func forcedBase64OfATokenIsReadAsTheToken() throws {
        let token = Fixtures.bytes("Corpus/jws/gopay-txn-2000000184445477-sandbox.jws")
        let encoded = Array(Base64.encode(token).utf8) + [0x0A]
        var options = InspectionOptions(anchors: try TrustAnchors.appleRootG3())
        options.forcedFormat = .receipt(.base64)
        let forced = Inspector.inspect(encoded, options: options)
        #expect(forced.kind == .jws)
        #expect(forced.isValid, "\(forced.findings.map(\.code))")
        options.forcedFormat = nil
        #expect(Inspector.inspect(encoded, options: options).isValid)
        let receipt = Array(Base64.encode(Fixtures.realReceipt("kvitto-sandboxReceipt.receipt")).utf8)
        options = InspectionOptions(anchors: try TrustAnchors.appleRoot())
        options.forcedFormat = .receipt(.base64)
        let forcedReceipt = Inspector.inspect(receipt, options: options)
        #expect(forcedReceipt.kind == .receipt && forcedReceipt.isValid)
    }

    /// A genuine receipt whose SignerInfo names its certificate another way RFC 5652 allows (subjectKeyIdentifier)
    /// or with its issuer Name re-encoded, or writes its identifier or its signature in BER's constructed form:
    /// OpenSSL verifies each, and so does rcpt (a red team's trial: "names a certificate the receipt does not
    /// carry"; a differential fuzzing find: a constructed signature was "unreadable").
    @Test(arguments: [
        "ski-sid.receipt", "issuer-reencoded-sid.receipt", "ski-sid-constructed.receipt",
        "signature-constructed.receipt",
    ])
    func theSignersCertificateIsFoundAsOpenSSLFindsIt(_ name: String) throws {
        let inspection = try Inspect.apple(Fixtures.bytes("Corpus/receipts-altered/" + name))
        #expect(inspection.verification?.signature == .valid)
        #expect(inspection.verification?.chain == .valid)
        #expect(Inspect.errors(inspection).isEmpty, "\(Inspect.errors(inspection))")
        #expect(inspection.isValid)
        if name.hasSuffix("-constructed.receipt") {
            #expect(Inspect.has(inspection, "ber-constructed-string"), "\(Inspect.codes(inspection))")
        }
    }

    @Test func xcodeReceiptIsRejectedWithoutTheStoreKitRoot() throws {
        let inspection = try Inspect.apple(Fixtures.realReceipt(Fixtures.xcodeReceipt))
        #expect(inspection.verification?.signature == .valid)
        #expect(inspection.verification?.chain == .invalid)
        #expect(Inspect.codes(inspection).contains("chain-invalid"), "\(Inspect.codes(inspection))")
        #expect(!inspection.isValid)
    }

    @Test func genuineReceiptsFailTheChainToday() throws {
        let inspection = try Inspect.apple(Fixtures.realReceipt(Fixtures.sandboxReceipt), time: .now)
        #expect(inspection.verification?.signature == .valid)
        #expect(inspection.verification?.chain == .invalid)
        #expect(inspection.verification?.errors.contains { $0.contains("expired") } == true)
    }

    @Test(arguments: [Fixtures.sandboxReceipt, Fixtures.xcodeReceipt, "tpinappreceipt-production.receipt"])
    func flippingAnyPayloadByteBreaksTheSignature(_ name: String) throws {
        let bytes = Fixtures.realReceipt(name)
        let receipt = Receipt.read(bytes)
        let content = try #require(receipt.signedData.encapsulatedContent)
        for segment in content.segments {
            for index in segment {
                var flipped = bytes
                flipped[index] ^= 0x01
                let inspection =
                    Fixtures.isXcodeReceipt(name)
                    ? try Inspect.storeKit(flipped)
                    : try Inspect.apple(flipped)
                #expect(inspection.verification?.signature == .invalid, "byte \(index)")
                #expect(Inspect.has(inspection, "signature-invalid"), "byte \(index)")
                #expect(!inspection.isValid)
                if inspection.isValid { return }
            }
        }
    }

    @Test func flippingASignatureByteBreaksTheSignature() throws {
        let bytes = Fixtures.realReceipt(Fixtures.sandboxReceipt)
        let signer = try #require(Receipt.read(bytes).signedData.signers.first)
        var flipped = bytes
        flipped[signer.signatureOffset + 7] ^= 0x80
        let inspection = try Inspect.apple(flipped)
        #expect(inspection.verification?.signature == .invalid)
    }

    @Test func checksBundleIDVersionAndDeviceHash() throws {
        let bytes = Fixtures.realReceipt(Fixtures.sandboxReceipt)
        let right = try Inspect.apple(
            bytes,
            expectations: Expectations(
                bundleID: "com.cocoanetics.EmmiView",
                appVersion: "246"))
        #expect(right.isValid)
        let wrong = try Inspect.apple(
            bytes,
            expectations: Expectations(
                bundleID: "com.cocoanetics.EmmiVieW",
                appVersion: "247"))
        #expect(Inspect.codes(wrong).contains("bundle-id-mismatch"), "\(Inspect.codes(wrong))")
        #expect(Inspect.codes(wrong).contains("app-version-mismatch"), "\(Inspect.codes(wrong))")
        #expect(!wrong.isValid)
        let device = try #require(Expectations.parseDeviceID("00000000-0000-0000-0000-000000000000"))
        let otherDevice = try Inspect.apple(bytes, expectations: Expectations(deviceID: device))
        #expect(Inspect.codes(otherDevice).contains("hash-mismatch"), "\(Inspect.codes(otherDevice))")
    }

    @Test func parsesDeviceIdentifiers() {
        #expect(Expectations.parseDeviceID("A1B2C3D4-0000-1111-2222-333344445555")?.count == 16)
        #expect(Expectations.parseDeviceID("00:1b:63:84:45:e6") == [0x00, 0x1B, 0x63, 0x84, 0x45, 0xE6])
        #expect(Expectations.parseDeviceID("00-1b-63-84-45-e6")?.count == 6)
        #expect(Expectations.parseDeviceID("not-a-device") == nil)
        #expect(Expectations.parseDeviceID("00:1b:63:84:45") == nil)
    }

    @Test func subscriptionStateFollowsTheEvaluationTime() throws {
        let bytes = Fixtures.realReceipt("tpinappreceipt-sandbox-g5.receipt")
        let atCreation = try Inspect.apple(bytes)
        let today = try Inspect.apple(bytes, time: .now)
        #expect(Inspect.has(today, "subscription-expired") || Inspect.has(today, "purchase-cancelled"))
        #expect(
            atCreation.findings.filter { $0.code.hasPrefix("subscription-") }.count
                == today.findings.filter { $0.code.hasPrefix("subscription-") }.count)
    }
}
