import FoundationEssentials
import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptDiff
import ReceiptModel
import ReceiptPKCS7
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation

/// Shorthands for inspecting and diffing test receipts.
enum Diffing {
    /// The anchors every test diff trusts: the test chain's root, the test CA's root and the StoreKit certificate.
    static func anchors() throws -> TrustAnchors {
        var certificates: [Certificate] = []
        if let root = TestChain.shared?.root { certificates.append(root) }
        if let root = TestReceipts.authority?.root { certificates.append(root) }
        let storeKit = try TrustAnchors.load(files: [Fixtures.url("Corpus/certs/StoreKitTestCertificate.cer").path])
        let apple = try TrustAnchors.appleRoot()
        return TrustAnchors(certificates + storeKit.certificates + apple.certificates)
    }

    static func inspect(_ bytes: [UInt8]) throws -> ReceiptInspection {
        ReceiptInspector.inspect(bytes, options: InspectionOptions(anchors: try anchors()))
    }

    /// Diffs A and B (named "A" and "B").
    static func diff(_ a: [UInt8], _ b: [UInt8], options: DiffOptions = DiffOptions()) throws -> DiffResult {
        ReceiptDiff.compare(
            DiffInput(name: "A", inspection: try inspect(a)),
            DiffInput(name: "B", inspection: try inspect(b)), options: options)
    }

    /// The reported paths, in order.
    static func paths(_ result: DiffResult) -> [String] { result.changes.map(\.path.description) }

    /// The change at `path`, if reported.
    static func change(_ result: DiffResult, _ path: String) -> Change? {
        result.changes.first { $0.path.description == path }
    }

    /// Parses ignore patterns, which the tests write correctly.
    static func patterns(_ texts: [String]) throws -> [IgnorePattern] {
        try texts.map { (text: String) throws -> IgnorePattern in try IgnorePattern(text) }
    }

    /// The Xcode receipt re-encoded as DER: the same payload bytes, certificate and signature bytes, so the
    /// StoreKit signature still verifies; only the container's encoding differs.
    static func xcodeAsDER() throws -> [UInt8] {
        let bytes = Fixtures.realReceipt(Fixtures.xcodeReceipt)
        let receipt = Receipt.read(bytes)
        let signedData = receipt.signedData
        guard let content = signedData.encapsulatedContent, let signer = signedData.signers.first,
            case .issuerAndSerialNumber(let issuer, let serial) = signer.identifier
        else { throw CryptoError(.keyGenerationFailed, message: "the Xcode receipt does not read as expected") }
        let payload = content.segments.flatMap { Array(bytes[$0]) }
        let builder = SignedDataBuilder(
            content: payload,
            certificates: signedData.certificates.map { Array(bytes[$0.encoding]) },
            signerIssuer: Array(bytes[issuer]), signerSerial: Array(bytes[serial]),
            digestAlgorithmOID: signer.digestAlgorithm.oid,
            signatureAlgorithmOID: signer.signatureAlgorithm.oid, layout: .der)
        let signature = Array(signer.signature(in: bytes))
        return builder.build(digest: { _ in [] }, sign: { _ in signature })
    }
}

/// A receipt payload written field by field, shaped like an App Store receipt, so one field can be changed.
struct TestPayload {
    var attributes: [AttributeSpec]
    var records: [[AttributeSpec]]
    /// Whether to write the SETs in DER order.
    var sorted = true

    /// An app receipt with `count` monthly subscription records (transaction ids 1000000000000001…).
    static func subscription(records count: Int = 3, created: String = "2024-06-01T12:00:00Z") -> TestPayload {
        TestPayload(
            attributes: [
                .utf8(0, "Production"),
                .integer(1, 1_234_567_890),
                .utf8(2, "com.example.weather"),
                .utf8(3, "42"),
                .raw(4, [0x29, 0xa1, 0x0e, 0x3e, 0xce, 0x3a, 0x85, 0xb9], version: 2),
                .raw(5, [UInt8](repeating: 0x5a, count: 20)),
                .ia5(12, created),
                .ia5(18, "2023-01-05T09:00:00Z"),
                .utf8(19, "1.0"),
            ], records: (0..<count).map { record(index: $0) })
    }

    /// One monthly renewal of the same subscription.
    static func record(index: Int) -> [AttributeSpec] {
        let purchase = 1_704_067_200 + Int64(index) * 2_592_000
        return [
            .integer(1701, 1),
            .utf8(1702, "com.example.weather.monthly"),
            .utf8(1703, String(1_000_000_000_000_001 + index)),
            .ia5(1704, ReceiptDate.format(epochSeconds: purchase)),
            .utf8(1705, "1000000000000001"),
            .ia5(1706, "2024-01-01T00:00:00Z"),
            .ia5(1708, ReceiptDate.format(epochSeconds: purchase + 2_592_000)),
            .integer(1711, 2_000_000_000_000 + Int64(index)),
            .ia5(1712, ""),
            .integer(1713, 0),
            .integer(1719, 0),
        ]
    }

    /// The transaction id of record `index`.
    static func transactionID(_ index: Int) -> String { String(1_000_000_000_000_001 + index) }

    /// The DER payload.
    func encoded() -> [UInt8] {
        PayloadBuilder.attributeSet(attributes + records.map { .record($0, sorted: sorted) }, sorted: sorted)
    }

    /// This payload after `edit`.
    func with(_ edit: (inout TestPayload) -> Void) -> TestPayload {
        var copy = self
        edit(&copy)
        return copy
    }

    /// Replaces the first attribute of `type` in record `index` (or appends it).
    mutating func setField(record index: Int, _ spec: AttributeSpec) {
        if let position = records[index].firstIndex(where: { $0.type == spec.type }) {
            records[index][position] = spec
        } else {
            records[index].append(spec)
        }
    }

    /// Replaces the first top-level attribute of `spec.type` (or appends it).
    mutating func setAttribute(_ spec: AttributeSpec) {
        if let position = attributes.firstIndex(where: { $0.type == spec.type }) {
            attributes[position] = spec
        } else {
            attributes.append(spec)
        }
    }
}
