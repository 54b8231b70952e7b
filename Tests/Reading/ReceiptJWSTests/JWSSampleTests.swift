import Foundation
import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJWS
import ReceiptModel
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// Every public sample in `Corpus/jws/` verifies, or is rejected, as its provenance says.
@Suite("Real JWS samples")
struct JWSSampleTests {
    static let directory = "Corpus/jws/"
    static let samples: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url(directory).path)) ?? []
        return names.filter { $0.hasSuffix(".jws") || $0.hasSuffix(".json") }.sorted()
    }()

    static func anchors(for name: String) throws -> TrustAnchors {
        if name.hasPrefix("apple-swift-mock") {
            return try TrustAnchors.load(
                files: ["a", "b"].map {
                    Fixtures.url(directory + "anchors/apple-swift-mock-test-root-\($0).der").path
                })
        }
        if name.hasPrefix("apple-swift-xcode") {
            return try TrustAnchors.load(files: [
                Fixtures.url(directory + "anchors/apple-swift-xcode-storekit-testing.der").path
            ])
        }
        return try TrustAnchors.appleRootG3()
    }

    static func inspect(_ name: String, anchors: TrustAnchors, time: EvaluationTime = .signed)
        -> JWSInspection
    {
        JWSInspector.inspect(
            Fixtures.bytes(directory + name),
            options: InspectionOptions(anchors: anchors, time: time, now: 1_795_000_000))
    }

    @Test func everySampleIsHere() {
        #expect(Self.samples.count == 18)
    }

    @Test(arguments: samples)
    func verifiesAtItsSignedDateWithItsAnchor(_ name: String) throws {
        let inspection = Self.inspect(name, anchors: try Self.anchors(for: name))
        #expect(inspection.readError == nil)
        #expect(inspection.isValid, "\(name): \(JWSFixtures.codes(inspection))")
        for token in inspection.tokens {
            #expect(token.signature == .valid)
            #expect(token.chain?.chain == .valid)
        }
    }

    /// Apple's leaf certificates of these samples expired in 2023: judged now, every Apple-signed one is invalid.
    @Test(arguments: samples.filter { !$0.hasPrefix("apple-swift") })
    func appleSignedSamplesAreInvalidNow(_ name: String) throws {
        let inspection = Self.inspect(name, anchors: try TrustAnchors.appleRootG3(), time: .now)
        #expect(!inspection.isValid)
        #expect(JWSFixtures.codes(inspection).contains("chain-invalid"))
    }

    /// The test and Xcode chains are not Apple's: with the built-in G3 root, they are refused.
    @Test(arguments: samples.filter { $0.hasPrefix("apple-swift") })
    func testAndXcodeChainsAreRefusedWithoutTheirRoot(_ name: String) throws {
        let inspection = Self.inspect(name, anchors: try TrustAnchors.appleRootG3())
        #expect(!inspection.isValid)
        #expect(JWSFixtures.codes(inspection).contains("chain-invalid"))
    }

    @Test func notificationsCarryTheirTransactionsAndBothAreVerified() throws {
        let inspection = Self.inspect("gopay-notif-DID_RENEW-sandbox.jws", anchors: try TrustAnchors.appleRootG3())
        let token = try #require(inspection.tokens.first)
        #expect(token.nested.map(\.path).sorted() == ["data.signedRenewalInfo", "data.signedTransactionInfo"])
        #expect(token.nested.allSatisfy { $0.isValid })
        // No signedDate of its own: judged at the signedDate of what it carries, and said so.
        #expect(token.chain?.evaluatedAt == 1_646_387_008)
        #expect(token.findings.contains { $0.code == "jws-signed-date-missing" && $0.severity == .info })
    }

    @Test func aNotificationBodyIsReadAroundItsToken() throws {
        let inspection = Self.inspect("imdhemy-notif-TEST-sandbox.json", anchors: try TrustAnchors.appleRootG3())
        #expect(inspection.input.format == "jws-json")
        #expect(inspection.tokens.map(\.path) == ["signedPayload"])
        #expect(inspection.isValid)
    }

    @Test func expectationsAreChecked() throws {
        let name = "apple-swift-mock-wrongBundleId.jws"
        let options = InspectionOptions(
            anchors: try Self.anchors(for: name), time: .signed,
            expectations: Expectations(bundleID: "com.example"), now: 1_795_000_000)
        let inspection = JWSInspector.inspect(Fixtures.bytes(Self.directory + name), options: options)
        #expect(!inspection.isValid)
        #expect(JWSFixtures.codes(inspection).contains("bundle-id-mismatch"))
    }

    @Test func theBuiltInG3RootIsApples() throws {
        let anchors = try TrustAnchors.appleRootG3()
        let file = try Certificate(derEncoded: Fixtures.bytes("Corpus/certs/AppleRootCA-G3.cer"))
        #expect(anchors.certificates.map(\.sha256Fingerprint) == [file.sha256Fingerprint])
        #expect(file.sha256Fingerprint.lowercased().hasPrefix("63343abfb89a6a03"))
    }

    /// Every prefix and a random battery of edits of every sample: never a crash, and never valid unless whole.
    @Test(arguments: samples)
    func everyTruncationAndRandomEditsNeverCrashOrPass(_ name: String) throws {
        let bytes = Fixtures.bytes(Self.directory + name)
        let anchors = try Self.anchors(for: name)
        let options = InspectionOptions(anchors: anchors, time: .signed, now: 1_795_000_000)
        // Every prefix through the reader (cheap); one in forty also through the whole verification.
        for length in 0..<bytes.count {
            if case .success(let input) = JWSInput.read(Array(bytes[..<length])) {
                #expect(input.tokens.allSatisfy { $0.token.text.endIndex <= length })
            }
        }
        let step = max(1, bytes.count / 400)
        for length in stride(from: 0, to: bytes.count - 1, by: step) {
            let inspection = JWSInspector.inspect(Array(bytes[..<length]), options: options)
            // A prefix that cuts the signature short (or the JSON around the token) is never valid.
            #expect(
                !inspection.isValid
                    || bytes[length...].allSatisfy { $0 == 0x0A || $0 == 0x20 || $0 == 0x22 || $0 == 0x7D },
                "\(name) cut at \(length) is valid")
        }
        var generator = SplitMix64(seed: UInt64(bytes.count))
        for _ in 0..<60 {
            var edited = bytes
            let position = Int(generator.next() % UInt64(edited.count))
            let original = edited[position]
            edited[position] = UInt8(truncatingIfNeeded: generator.next())
            let inspection = JWSInspector.inspect(edited, options: options)
            // An edit inside the token's characters never leaves it valid (the signature covers them, a changed
            // signature does not verify, and a second spelling of the signature's last character is refused as
            // Apple's libraries refuse it); an edit of white space or of JSON around a body may.
            if inspection.isValid && edited[position] != original, name.hasSuffix(".jws") {
                Issue.record("\(name): byte \(position) changed from \(original) to \(edited[position]) is still valid")
            }
        }
    }
}
