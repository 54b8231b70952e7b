import Foundation
import ReceiptASN1
import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptMutation
import ReceiptPKCS7
import ReceiptRendering
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// The attack classes `verify` closes, one table row an attack: built with the test CA from a real receipt, it
/// must be invalid with the finding at the offset an independent tree walk finds (a path of child indexes from the
/// ContentInfo: `[1, 0, 4, 0, 3]` is SignedData's signerInfos, first SignerInfo, fourth field); and the opposite
/// cases stay valid.
@Suite("verify hardening: every attack class")
struct VerifyHardeningTests {
    struct Case: CustomStringConvertible, Sendable {
        var mutation: String
        var code: String
        /// Where the finding must point, as a DERPath; nil when the place is not in the container tree.
        var path: [Int]?
        /// For findings about an in-app record: which record (negative counts from the end) the offset is that of.
        var record: Int?
        var description: String { mutation }

        init(mutation: String, code: String, path: [Int]?, record: Int? = nil) {
            self.mutation = mutation
            self.code = code
            self.path = path
            self.record = record
        }
    }

    // SignedData fields: 0 version, 1 digestAlgorithms, 2 encapContentInfo, 3 certificates, 4 signerInfos (5 with
    // crls). SignerInfo fields: 0 version, 1 sid, 2 digestAlgorithm, 3 signedAttrs or signatureAlgorithm, …
    static let signedData = [1, 0]
    static let signerInfo = [1, 0, 4, 0]
    static let leafCertificate = [1, 0, 3, 0]

    static let cases: [Case] = [
        // 1. Unsigned additions, undecodable certificates and CRLs
        Case(mutation: "econtent-second-octet-string", code: "pkcs7-extra-content", path: [1, 0, 2, 1, 1]),
        Case(mutation: "encapsulated-content-second-econtent", code: "pkcs7-extra-content", path: [1, 0, 2, 2]),
        Case(mutation: "content-info-extra-field", code: "pkcs7-extra-content", path: [2]),
        Case(mutation: "second-signed-data", code: "pkcs7-extra-content", path: [1, 1]),
        Case(mutation: "signed-data-extra-field", code: "pkcs7-extra-content", path: [1, 0, 5]),
        Case(mutation: "signer-info-extra-field", code: "pkcs7-extra-content", path: signerInfo + [6]),
        Case(mutation: "certificate-undecodable", code: "certificate-undecodable", path: [1, 0, 3, 3]),
        Case(mutation: "crl-undecodable", code: "crl-undecodable", path: [1, 0, 4, 0]),
        // 2. Signed attributes
        Case(
            mutation: "signed-attributes-no-content-type", code: "content-type-attribute-missing",
            path: signerInfo + [3]),
        Case(
            mutation: "signed-attributes-content-type-mismatch", code: "content-type-attribute-mismatch",
            path: signerInfo + [3, 0]),
        Case(
            mutation: "signed-attributes-two-message-digests", code: "signed-attribute-duplicate",
            path: signerInfo + [3, 2]),
        Case(
            mutation: "signed-attributes-message-digest-two-values", code: "signed-attribute-value-count",
            path: signerInfo + [3, 1]),
        Case(
            mutation: "signed-attributes-duplicate-content-type", code: "signed-attribute-duplicate",
            path: signerInfo + [3, 1]),
        Case(mutation: "signed-attributes-not-der", code: "signed-attributes-not-der", path: signerInfo + [3]),
        // 3. Algorithms
        Case(mutation: "signature-algorithm-pss", code: "signature-algorithm-unsupported", path: signerInfo + [3]),
        Case(
            mutation: "signature-algorithm-ecdsa-on-rsa-key", code: "signature-algorithm-key-mismatch",
            path: signerInfo + [3]),
        Case(mutation: "signature-algorithm-dsa", code: "signature-algorithm-unsupported", path: signerInfo + [3]),
        Case(mutation: "signature-algorithm-md5-rsa", code: "signature-algorithm-unsupported", path: signerInfo + [3]),
        Case(mutation: "signature-algorithm-unknown", code: "signature-algorithm-unsupported", path: signerInfo + [3]),
        Case(mutation: "signature-algorithm-mismatch", code: "signature-algorithm-mismatch", path: signerInfo + [3]),
        Case(mutation: "digest-algorithm-md5", code: "signature-unsupported-digest", path: signerInfo + [2]),
        Case(mutation: "leaf-key-1024", code: "chain-invalid", path: leafCertificate),
        // 4. Apple's markers and the shape of the verified path
        Case(mutation: "leaf-issued-by-root", code: "chain-shape-unexpected", path: leafCertificate),
        Case(mutation: "leaf-issued-by-root", code: "leaf-marker-missing", path: leafCertificate),
        Case(mutation: "marked-leaf-issued-by-root", code: "chain-shape-unexpected", path: leafCertificate),
        Case(mutation: "signer-is-intermediate", code: "chain-shape-unexpected", path: leafCertificate),
        Case(mutation: "signer-is-root", code: "signer-key-usage", path: leafCertificate),
        Case(mutation: "signer-is-root", code: "storekit-signer-on-app-store-receipt", path: leafCertificate),
        // The decoy (certificate 1) carries the marker; the path's intermediate (certificate 2) does not.
        Case(mutation: "decoy-intermediate-with-marker", code: "intermediate-marker-missing", path: [1, 0, 3, 2]),
        // 5. The signer's purpose
        Case(mutation: "signer-is-ca", code: "signer-is-ca", path: leafCertificate),
        Case(mutation: "signer-key-usage-without-digital-signature", code: "signer-key-usage", path: leafCertificate),
        // 6. Time and transaction ids: at the in-app record's SET (the first edited, or the added last one)
        Case(mutation: "purchase-after-creation", code: "purchase-after-creation", path: nil, record: 0),
        Case(mutation: "cancellation-after-creation", code: "purchase-after-creation", path: nil, record: 0),
        Case(mutation: "duplicate-transaction-id-as-integer", code: "duplicate-transaction-id", path: nil, record: -1),
        Case(mutation: "duplicate-transaction-id-as-octets", code: "duplicate-transaction-id", path: nil, record: -1),
        // 7. Input unwrapping (a read error of the whole input)
        Case(mutation: "verify-receipt-body-duplicate-key", code: "json-duplicate-receipt-data", path: nil),
        Case(mutation: "verify-receipt-body-nested-key", code: "json-receipt-data-nested", path: nil),
        // 9. Bounded work: the first part past the limit
        Case(mutation: "signer-infos-over-limit", code: "container-limit-exceeded", path: [1, 0, 4, 8]),
        Case(mutation: "certificates-over-limit", code: "container-limit-exceeded", path: [1, 0, 3, 16]),
        Case(mutation: "bogus-signer-before-genuine", code: "multiple-signers", path: [1, 0, 4, 1]),
        Case(mutation: "bogus-signer-before-genuine", code: "signature-invalid", path: nil),
    ]

    @Test(arguments: cases)
    func rejectsTheAttackWithTheFindingAtItsPlace(_ attack: Case) throws {
        let kit = try #require(MutationFixtures.kit)
        let mutation = try #require(MutationCatalogue.named(attack.mutation))
        let input = MutationFixtures.inputs[1].bytes
        let bytes = try mutation.apply(to: input, kit: kit, seed: 9)
        let baseline = try #require(MutationCatalogue.named("baseline")).apply(to: input, kit: kit, seed: 9)
        let inspection = MutationFixtures.verify(bytes, baseline: baseline, kit: kit)
        #expect(!inspection.isValid)
        // A read error of the whole input counts as an error at offset 0.
        let matching: [(severity: Severity, offset: Int?)] =
            inspection.findings.filter { $0.code == attack.code }.map { ($0.severity, $0.offset) }
            + (inspection.readError?.code == attack.code ? [(Severity.error, 0)] : [])
        let finding = try #require(matching.first, "\(attack.code) not in \(Inspect.errors(inspection))")
        #expect(finding.severity == .error)
        if let path = attack.path {
            let expected = try #require(DERPath.offset(bytes, path), "nothing at \(path)")
            #expect(
                matching.contains { $0.offset == expected }, "offsets \(matching.map(\.offset)), expected \(expected)")
        }
        if let which = attack.record {
            let offset = try #require(Self.recordOffset(Receipt.read(bytes), which), "no such record")
            #expect(matching.contains { $0.offset == offset }, "offsets \(matching.map(\.offset)), expected \(offset)")
        }
    }

    /// The record a time or duplicate finding must point at, found from the record's contents: 0, the record with a
    /// purchase or cancellation date after the creation date; -1, the later (in the file) of the two records that
    /// share a transaction id.
    static func recordOffset(_ receipt: Receipt, _ which: Int) -> Int? {
        let records = receipt.inAppRecords
        if which == 0 {
            guard let created = receipt.creationDate?.secondsSinceEpoch else { return nil }
            return records.first { record in
                ([1704, 1712] as [Int64]).contains { type in
                    if case .date(_, let date?)? = record.first(type)?.value { return date.secondsSinceEpoch > created }
                    return false
                }
            }?.offset
        }
        // The copy the mutation added names a product ending in ".other"; the duplicate finding is on whichever of
        // it and the original comes second.
        guard
            let copy = records.first(where: {
                if case .text(let product)? = $0.first(1702)?.value { return product.hasSuffix(".other") }
                return false
            })
        else { return nil }
        let original = records.first { record in
            guard record.offset != copy.offset, case .text(let id)? = record.first(1703)?.value else { return false }
            return id == "1000000000000042" || id == "1000000000000043"
        }
        return max(copy.offset, original?.offset ?? copy.offset)
    }

    @Test(arguments: [
        "signature-algorithm-with-digest", "chain-sha1-signatures", "signer-extended-key-usage",
        "purchase-after-creation-xcode", "signed-attributes", "certificates-reordered",
    ])
    func acceptsTheValidVariant(_ name: String) throws {
        let kit = try #require(MutationFixtures.kit)
        let mutation = try #require(MutationCatalogue.named(name))
        for input in MutationFixtures.inputs {
            let bytes = try mutation.apply(to: input.bytes, kit: kit, seed: 9)
            let baseline = try #require(MutationCatalogue.named("baseline")).apply(to: input.bytes, kit: kit, seed: 9)
            let inspection = MutationFixtures.verify(bytes, baseline: baseline, kit: kit)
            #expect(inspection.isValid, "\(input.name): \(Inspect.errors(inspection))")
        }
    }

    // MARK: - Genuine Apple receipts with only their unsigned parts edited

    static let genuineEdits: [(name: String, parent: [Int], element: [UInt8])] = [
        ("a second OCTET STRING inside eContent [0]", [1, 0, 2, 1], [0x04, 0x03, 0x31, 0x01, 0x00]),
        ("a third field of EncapsulatedContentInfo", [1, 0, 2], [0x04, 0x01, 0x00]),
        ("a field after signerInfos", [1, 0], [0x31, 0x00]),
        ("a second element inside the ContentInfo's content [0]", [1], [0x30, 0x00]),
        ("a third field of the ContentInfo", [], [0x04, 0x01, 0x00]),
        ("an extra field at the end of the SignerInfo", [1, 0, 4, 0], [0x04, 0x01, 0x00]),
    ]

    @Test(arguments: 0..<genuineEdits.count)
    func rejectsAGenuineReceiptWithAnUnsignedAddition(_ index: Int) throws {
        let edit = Self.genuineEdits[index]
        let genuine = Fixtures.realReceipt(Fixtures.sandboxReceipt)
        let edited = try #require(DERPath.appending(edit.element, to: genuine, under: edit.parent), "\(edit.name)")
        let inspection = ReceiptInspector.inspect(
            edited, options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
        // Apple's signature still verifies: only the unsigned addition makes it invalid.
        #expect(inspection.verification?.signature == .valid, "\(edit.name)")
        #expect(inspection.verification?.chain == .valid, "\(edit.name)")
        #expect(!inspection.isValid, "\(edit.name)")
        let finding = inspection.findings.first { $0.code == "pkcs7-extra-content" }
        #expect(finding?.severity == .error, "\(edit.name): \(Inspect.errors(inspection))")
        let childCount = (0..<64).prefix { DERPath.node(edited, edit.parent + [$0]) != nil }.count
        #expect(finding?.offset == DERPath.offset(edited, edit.parent + [childCount - 1]), "\(edit.name)")
    }

    @Test func genuineReceiptStaysValidBeforeTheEdit() throws {
        let inspection = ReceiptInspector.inspect(
            Fixtures.realReceipt(Fixtures.sandboxReceipt),
            options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
        #expect(inspection.isValid, "\(Inspect.errors(inspection))")
    }

    // MARK: - The StoreKit (Xcode) shape

    @Test(arguments: [("Xcode", true), ("Production", false), ("ProductionSandbox", false), ("Sandbox", false)])
    func storeKitShapedSignerIsValidOnlyForXcodeReceipts(_ environment: String, _ valid: Bool) throws {
        let storeKit = try TestCertificateAuthority.generate(
            shape: .storeKit, notBefore: TestReceipts.longAgo,
            notAfter: TestReceipts.farFuture, label: "storekit")
        var attributes = SyntheticReceipt().attributes()
        attributes.removeAll { $0.type == 0 }
        attributes.append(.utf8(0, environment))
        let bytes = try TestReceipts.signed(payload: PayloadBuilder.attributeSet(attributes), by: storeKit)
        // The StoreKit-style certificate is trusted with --root, exactly as a user would for Xcode receipts.
        let inspection = ReceiptInspector.inspect(
            bytes, options: InspectionOptions(anchors: TrustAnchors([storeKit.root])))
        #expect(inspection.verification?.chain == .valid)
        #expect(inspection.isValid == valid, "\(environment): \(Inspect.errors(inspection))")
        #expect(inspection.findings.contains { $0.code == "storekit-signer-on-app-store-receipt" } == !valid)
    }

    /// A red team's trial: whoever holds the StoreKit key (Xcode ships it) issues an intermediate and a leaf under
    /// it with Apple's markers copied; with the StoreKit certificate trusted for local testing, that App Store-shaped
    /// path signed a Production receipt rcpt called valid.
    @Test(arguments: [("Xcode", true), ("Production", false), ("Sandbox", false)])
    func aPathEndingAtAStoreKitRootIsValidOnlyForXcodeReceipts(_ environment: String, _ valid: Bool) throws {
        let storeKit = try TestCertificateAuthority.generate(
            shape: .storeKit, notBefore: TestReceipts.longAgo, notAfter: TestReceipts.farFuture, label: "storekit")
        func issue(
            _ name: String, serial: UInt64, key: PrivateKey, by issuer: Certificate, _ issuerKey: PrivateKey,
            marker: String, isCA: Bool
        ) throws -> Certificate {
            try Certificate.issue(
                CertificateRequest(
                    subject: [("O", "rcpt TEST-ONLY"), ("CN", name)], serialNumber: serial,
                    notBefore: TestReceipts.longAgo, notAfter: TestReceipts.farFuture, isCertificateAuthority: isCA,
                    extraExtensions: [(marker, false, [0x05, 0x00])]),
                subjectKey: key, issuer: issuer, issuerKey: issuerKey, digest: .sha256)
        }
        let intermediateKey = try PrivateKey.generateRSA(bits: 2048)
        let leafKey = try PrivateKey.generateRSA(bits: 2048)
        let intermediate = try issue(
            "WWDR-like TEST-ONLY", serial: 7, key: intermediateKey, by: storeKit.root, storeKit.rootKey,
            marker: TestCertificateAuthority.intermediateMarkerOID, isCA: true)
        let leaf = try issue(
            "Receipt Signing TEST-ONLY", serial: 8, key: leafKey, by: intermediate, intermediateKey,
            marker: TestCertificateAuthority.leafMarkerOID, isCA: false)
        let chain = TestCertificateAuthority(
            root: storeKit.root, rootKey: storeKit.rootKey, intermediate: intermediate,
            intermediateKey: intermediateKey, leaf: leaf, leafKey: leafKey)
        var attributes = SyntheticReceipt().attributes()
        attributes.removeAll { $0.type == 0 }
        attributes.append(.utf8(0, environment))
        let bytes = try TestReceipts.signed(payload: PayloadBuilder.attributeSet(attributes), by: chain)
        // Apple's root trusted beside StoreKit's changes nothing: the path ends at StoreKit's.
        let inspection = ReceiptInspector.inspect(
            bytes,
            options: InspectionOptions(
                anchors: TrustAnchors([storeKit.root, try TrustAnchors.appleRoot().certificates[0]])))
        #expect(inspection.verification?.chain == .valid)
        #expect(inspection.verification?.path.count == 3)
        #expect(inspection.isValid == valid, "\(environment): \(Inspect.errors(inspection))")
        #expect(inspection.findings.contains { $0.code == "storekit-signer-on-app-store-receipt" } == !valid)
    }

    @Test func realXcodeReceiptsFitTheStoreKitShape() throws {
        let anchors = try TrustAnchors.load(files: [Fixtures.url("Corpus/certs/StoreKitTestCertificate.cer").path])
        for name in Fixtures.realReceiptNames where Fixtures.isXcodeReceipt(name) {
            let inspection = ReceiptInspector.inspect(
                Fixtures.realReceipt(name), options: InspectionOptions(anchors: anchors))
            #expect(inspection.isValid, "\(name): \(Inspect.errors(inspection))")
            #expect(
                !inspection.findings.contains { $0.severity == .warning }, "\(name): \(inspection.findings.map(\.code))"
            )
        }
    }

    // MARK: - What the dump shows is what was checked

    @Test func signerReportsTheSchemeThatWasVerified() throws {
        let inspection = ReceiptInspector.inspect(
            Fixtures.realReceipt(Fixtures.sandboxReceipt),
            options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
        #expect(inspection.signers.first?.scheme == "RSA PKCS#1 v1.5 with SHA-1")
        let text = DumpText(style: TextStyle(useColor: false)).render(inspection, name: "r")
        #expect(text.contains("RSA PKCS#1 v1.5 with SHA-1"))
    }

    // MARK: - Terminal injection

    @Test func textOutputsEscapeReceiptControlledText() throws {
        let kit = try #require(MutationFixtures.kit)
        let mutation = try #require(MutationCatalogue.named("bundle-id-terminal-escape"))
        let input = MutationFixtures.inputs[1].bytes
        let bytes = try mutation.apply(to: input, kit: kit, seed: 1)
        let baseline = try #require(MutationCatalogue.named("baseline")).apply(to: input, kit: kit, seed: 1)
        let inspection = MutationFixtures.verify(bytes, baseline: baseline, kit: kit)
        #expect(inspection.findings.contains { $0.code == "bundle-id-mismatch" && $0.message.contains("\u{1B}") })
        let outputs = [
            VerifyReport.text(inspection, name: "r", style: TextStyle(useColor: false), verbose: true),
            DumpText(style: TextStyle(useColor: false)).render(inspection, name: "r"),
        ]
        for output in outputs {
            #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{202E}" })
            #expect(output.contains("\\u{1b}[2K\\u{d}"))
        }
    }

    @Test func escapesEveryKindOfUnsafeScalar() {
        for scalar in [
            "\u{0}", "\u{7}", "\u{1B}", "\r", "\u{7F}", "\u{85}", "\u{9B}", "\u{200E}", "\u{202A}",
            "\u{202E}", "\u{2066}", "\u{2069}", "\u{2028}", "\u{61C}",
            // Shown as nothing: a product id followed by one read as the genuine id (a trial, session 25).
            "\u{200B}", "\u{AD}", "\u{2060}", "\u{FEFF}", "\u{34F}", "\u{3164}", "\u{2800}", "\u{200D}",
        ] {
            let shown = TerminalText.safe("a\(scalar)b")
            #expect(!shown.unicodeScalars.contains { TerminalText.isUnsafe($0) }, "\(shown)")
            #expect(shown.hasPrefix("a\\u{") && shown.hasSuffix("}b"))
        }
        #expect(TerminalText.safe("com.example.app é 日本") == "com.example.app é 日本")
    }
}
