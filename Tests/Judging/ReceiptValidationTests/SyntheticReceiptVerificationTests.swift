import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// Receipts signed here with the TEST-ONLY CA, in every shape Apple and Xcode produce.
@Suite("Verifying receipts signed by the test CA")
struct SyntheticReceiptVerificationTests {
    struct Shape: Sendable, CustomTestStringConvertible {
        var digest: DigestAlgorithm
        var layout: ContainerLayout
        var signedAttributes: Bool
        var testDescription: String { "\(digest) \(layout)\(signedAttributes ? " with signed attributes" : "")" }
    }

    static let shapes: [Shape] = [DigestAlgorithm.sha1, .sha256].flatMap { digest in
        ContainerLayout.allCases.flatMap { layout in
            [false, true].map { Shape(digest: digest, layout: layout, signedAttributes: $0) }
        }
    }

    @Test(arguments: shapes)
    func verifiesEveryShapeAgainstTheTestRoot(_ shape: Shape) throws {
        let bytes = try TestReceipts.signed(
            SyntheticReceipt(records: 3), digest: shape.digest, layout: shape.layout,
            signedAttributes: shape.signedAttributes)
        let inspection = try Inspect.testCA(bytes)
        #expect(inspection.verification?.signature == .valid)
        #expect(inspection.verification?.chain == .valid)
        let errors = Inspect.errors(inspection)
        #expect(errors.isEmpty, "\(errors)")
        #expect(inspection.receipt?.inAppRecords.count == 3)
        #expect(inspection.signers.first?.messageDigest == (shape.signedAttributes ? .matches : nil))
    }

    @Test(arguments: shapes)
    func rejectsATamperedPayloadInEveryShape(_ shape: Shape) throws {
        var bytes = try TestReceipts.signed(
            SyntheticReceipt(records: 1), digest: shape.digest, layout: shape.layout,
            signedAttributes: shape.signedAttributes)
        let receipt = Receipt.read(bytes)
        let bundle = try #require(receipt.first(2))
        let valueOffset = try #require(bundle.valueOffset)
        bytes[valueOffset + 5] ^= 0x20  // change a letter of the bundle id
        let inspection = try Inspect.testCA(bytes)
        #expect(inspection.verification?.signature == .invalid)
        let expected = shape.signedAttributes ? "message-digest-mismatch" : "signature-invalid"
        #expect(Inspect.codes(inspection).contains(expected), "\(Inspect.codes(inspection))")
    }

    /// A content of a megabyte or more is hashed on another core while the payload is read (ContentDigests): the
    /// verdicts are the same, a tampered last record included.
    @Test(arguments: shapes)
    func hashesALargeContentInTheBackgroundToTheSameVerdicts(_ shape: Shape) throws {
        var bytes = try TestReceipts.signed(
            SyntheticReceipt(records: 3000), digest: shape.digest,
            layout: shape.layout, signedAttributes: shape.signedAttributes)
        let receipt = Receipt.read(bytes)
        try #require((receipt.signedData.encapsulatedContent?.length ?? 0) >= 1 << 20)
        let inspection = try Inspect.testCA(bytes)
        #expect(inspection.verification?.signature == .valid)
        #expect(Inspect.errors(inspection).isEmpty, "\(Inspect.errors(inspection))")
        #expect(inspection.signers.first?.messageDigest == (shape.signedAttributes ? .matches : nil))
        let last = try #require(receipt.inAppRecords.last?.attributes.last?.valueOffset)
        bytes[last] ^= 0x01
        let tampered = try Inspect.testCA(bytes)
        #expect(tampered.verification?.signature == .invalid)
        let expected: FindingCode = shape.signedAttributes ? .messageDigestMismatch : .signatureInvalid
        #expect(Inspect.codes(tampered).contains(expected.rawValue), "\(Inspect.codes(tampered))")
    }

    /// The per-product subscription state (one finding per product, in the order products first appear, each with
    /// its latest expiry) holds for few products and for many: the record checks find a product by comparing bytes
    /// up to eight products and through a dictionary beyond.
    @Test(arguments: [3, 8, 9, 12])
    func reportsEachProductsLatestExpiryHoweverManyProducts(_ productCount: Int) throws {
        var attributes = SyntheticReceipt(records: 0).attributes()
        let base: Int64 = 1_577_836_800  // 2020-01-01T00:00:00Z
        // Three records a product, interleaved, the latest expiry in the middle one; transaction ids unique.
        for round in 0..<3 {
            for product in 0..<productCount {
                let expires = base + Int64(product) * 86_400 + [10, 30, 20][round] * 3600
                attributes.append(
                    .record([
                        .integer(1701, 1),
                        .utf8(1702, "product.\(product)"),
                        .utf8(1703, String(1_000 + round * 100 + product)),
                        .ia5(1704, ReceiptDate.format(epochSeconds: base - 86_400)),
                        .ia5(1708, ReceiptDate.format(epochSeconds: expires)),
                    ]))
            }
        }
        let bytes = try TestReceipts.signed(payload: PayloadBuilder.attributeSet(attributes))
        let inspection = try Inspect.testCA(bytes)
        let states = inspection.findings.filter {
            $0.kind == .subscriptionActive || $0.kind == .subscriptionExpired
        }
        let records = try #require(inspection.receipt?.inAppRecords)
        let firstSeen = records.compactMap { $0.first(1702)?.text }.reduce(into: [String]()) { order, name in
            if !order.contains(name) { order.append(name) }
        }
        #expect(states.map { $0.fields.first { $0.name == "product_id" }?.value } == firstSeen)
        #expect(firstSeen.count == productCount)
        for finding in states {
            let product = try #require(finding.fields.first { $0.name == "product_id" }?.value)
            let number = try #require(Int64(product.dropFirst("product.".count)))
            let latest = ReceiptDate.format(epochSeconds: base + number * 86_400 + 30 * 3600)
            #expect(finding.fields.first { $0.name == "expires_date" }?.value == latest, "\(product)")
        }
    }

    @Test func rejectsAReceiptSignedByAnUnknownCA() throws {
        let foreign = try TestReceipts.signed(SyntheticReceipt(), by: TestReceipts.foreignAuthority)
        let inspection = try Inspect.testCA(foreign)
        #expect(inspection.verification?.signature == .valid)
        #expect(inspection.verification?.chain == .invalid)
        #expect(Inspect.codes(inspection).contains("chain-invalid"), "\(Inspect.codes(inspection))")
        #expect(!inspection.isValid)
        let againstApple = try Inspect.apple(foreign)
        #expect(againstApple.verification?.chain == .invalid)
    }

    @Test func neverTrustsARootEmbeddedInTheReceipt() throws {
        // The foreign chain embeds its own root; only the test root is trusted.
        let foreign = try #require(TestReceipts.foreignAuthority)
        let bytes = try TestReceipts.signed(SyntheticReceipt(), by: foreign)
        #expect(Receipt.read(bytes).signedData.certificates.count == 3)
        #expect(try Inspect.testCA(bytes).verification?.chain == .invalid)
    }

    @Test func evaluatesTheChainAtTheCreationDateByDefault() throws {
        let shortLived = try TestCertificateAuthority.generate(
            notBefore: 1_700_000_000, notAfter: 1_710_000_000,
            keyBits: 2048, label: "short-lived")
        let inWindow = SyntheticReceipt(creationDate: "2023-12-01T00:00:00Z")
        let bytes = try TestReceipts.signed(inWindow, by: shortLived)
        let anchors = TrustAnchors([shortLived.root])
        let atCreation = ReceiptInspector.inspect(bytes, options: InspectionOptions(anchors: anchors))
        #expect(atCreation.verification?.chain == .valid)
        let today = ReceiptInspector.inspect(bytes, options: InspectionOptions(anchors: anchors, time: .now))
        #expect(today.verification?.chain == .invalid)
        let outside = try TestReceipts.signed(SyntheticReceipt(creationDate: "2025-01-01T00:00:00Z"), by: shortLived)
        #expect(
            ReceiptInspector.inspect(outside, options: InspectionOptions(anchors: anchors)).verification?.chain
                == .invalid)
    }

    @Test func checksTheDeviceHash() throws {
        let synthetic = SyntheticReceipt()
        var attributes = synthetic.attributes()
        let device: [UInt8] = Array(0..<16)
        let opaque = try #require(attributes.first { $0.type == 4 }).value
        let bundle = try #require(attributes.first { $0.type == 2 }).value
        let hash = try Digest.hash([device[...], opaque[...], bundle[...]], algorithm: .sha1)
        attributes.removeAll { $0.type == 5 }
        attributes.append(.raw(5, hash))
        let bytes = try TestReceipts.signed(payload: PayloadBuilder.attributeSet(attributes))
        let right = try Inspect.testCA(bytes, expectations: Expectations(deviceID: device))
        let errors = Inspect.errors(right)
        #expect(errors.isEmpty, "\(errors)")
        let wrong = try Inspect.testCA(bytes, expectations: Expectations(deviceID: Array(1...16)))
        #expect(Inspect.codes(wrong).contains("hash-mismatch"), "\(Inspect.codes(wrong))")
    }

    /// A volume purchase licence that expired after the receipt was made: Apple compares expiration_date with the
    /// current date, so it is expired now, not at the creation date the chain is judged at (a red team's trial:
    /// `verify` said valid where `status` refused it). A named time, --status-at or a pinned --at, judges it then.
    @Test func aLicenceIsJudgedExpiredByTheCurrentDate() throws {
        var attributes = SyntheticReceipt().attributes()  // created 2024-06-01T12:00:00Z
        attributes.append(.ia5(21, "2024-09-01T00:00:00Z"))
        let bytes = try TestReceipts.signed(payload: PayloadBuilder.attributeSet(attributes))
        let now = try Inspect.testCA(bytes)
        #expect(Inspect.codes(now).contains("receipt-expired"), "\(Inspect.codes(now))")
        #expect(!now.isValid)
        #expect(now.verification?.evaluatedAt == 1_717_243_200)  // the chain still at the creation date
        let root = try #require(TestReceipts.authority?.root)
        var options = InspectionOptions(anchors: TrustAnchors([root]))
        options.statusTime = EvaluationTime(argument: "2024-07-01")
        let during = ReceiptInspector.inspect(bytes, options: options)
        #expect(!Inspect.codes(during).contains("receipt-expired"), "\(Inspect.codes(during))")
        #expect(during.isValid, "\(Inspect.errors(during))")
        let pinned = try Inspect.testCA(bytes, time: try #require(EvaluationTime(argument: "2024-07-01")))
        #expect(!Inspect.codes(pinned).contains("receipt-expired"), "\(Inspect.codes(pinned))")
        let pinnedAfter = try Inspect.testCA(bytes, time: try #require(EvaluationTime(argument: "2024-10-01")))
        #expect(Inspect.codes(pinnedAfter).contains("receipt-expired"), "\(Inspect.codes(pinnedAfter))")
    }

    @Test(arguments: ReceiptChecksCase.all)
    func flagsContentProblems(_ testCase: ReceiptChecksCase) throws {
        var attributes = SyntheticReceipt().attributes()
        testCase.edit(&attributes)
        let bytes = try TestReceipts.signed(payload: PayloadBuilder.attributeSet(attributes, sorted: testCase.sorted))
        let inspection = try Inspect.testCA(bytes, time: testCase.time)
        let codes = Inspect.codes(inspection)
        #expect(codes.contains(testCase.code), "\(codes)")
        #expect(Inspect.errors(inspection).isEmpty == testCase.valid, "\(Inspect.errors(inspection))")
    }
}

/// An edit to a synthetic receipt's attributes and the finding it must produce.
struct ReceiptChecksCase: Sendable, CustomTestStringConvertible {
    var code: String
    var valid: Bool
    var sorted = true
    var time: EvaluationTime = .signed
    var edit: @Sendable (inout [AttributeSpec]) -> Void
    var testDescription: String { code }

    static let all: [ReceiptChecksCase] = [
        ReceiptChecksCase(code: "missing-required-attribute", valid: false) { $0.removeAll { $0.type == 2 } },
        ReceiptChecksCase(code: "duplicate-attribute", valid: false) { $0.append(.utf8(2, "com.evil.app")) },
        ReceiptChecksCase(code: "hash-wrong-length", valid: false) { attributes in
            attributes.removeAll { $0.type == 5 }
            attributes.append(.raw(5, [1, 2, 3]))
        },
        ReceiptChecksCase(code: "receipt-expired", valid: false) { $0.append(.ia5(21, "2024-01-01T00:00:00Z")) },
        ReceiptChecksCase(code: "value-invalid-date", valid: false) { attributes in
            attributes.removeAll { $0.type == 12 }
            attributes.append(.ia5(12, "2024-02-30T00:00:00Z"))
        },
        ReceiptChecksCase(code: "value-embedded-nul", valid: false) { attributes in
            attributes.removeAll { $0.type == 2 }
            attributes.append(.utf8(2, "com.example.rcpt.synthetic\u{0}.evil"))
        },
        ReceiptChecksCase(code: "value-unexpected-type", valid: true) { attributes in
            attributes.removeAll { $0.type == 3 }
            attributes.append(.ia5(3, "42"))
        },
        ReceiptChecksCase(code: "ber-unsorted-set", valid: true, sorted: false) { $0.reverse() },
        ReceiptChecksCase(
            code: "subscription-active", valid: true, time: EvaluationTime(argument: "2020-01-15T00:00:00Z") ?? .now
        ) { _ in },
    ]
}
