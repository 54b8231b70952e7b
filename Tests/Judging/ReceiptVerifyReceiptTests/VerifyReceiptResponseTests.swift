import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel
import ReceiptTestSupport
import ReceiptValidation
import ReceiptVerifyReceipt
import Testing

/// The response made from an inspection: status, environment, Apple's keys in Apple's order and value forms.
@Suite("verifyReceipt response from a receipt")
struct VerifyReceiptResponseTests {
    static let requestDate = AppleDate(milliseconds: 1_767_225_600_123)  // 2026-01-01T00:00:00.123Z

    static func response(_ attributes: [AttributeSpec], expectations: Expectations = Expectations())
        throws -> (VerifyReceiptResponse, JSONDocument)
    {
        let receipt = try TestReceipts.signed(payload: PayloadBuilder.attributeSet(attributes))
        let inspection = try Inspect.testCA(receipt, expectations: expectations)
        let response = VerifyReceiptResponse(inspection, requestDate: requestDate)
        return (response, try JSONDocument.read(response.json(pretty: false)))
    }

    static func keys(_ document: JSONDocument, _ node: Int) -> [String] {
        document.children(of: node).compactMap { document.key($0) }
    }

    static func member(_ document: JSONDocument, _ path: String...) -> Int? {
        var node: Int? = document.root
        for name in path { node = node.flatMap { document.member(name, of: $0) } }
        return node
    }

    @Test func validReceiptHasStatusZeroAndApplesKeysInApplesOrder() throws {
        let (response, document) = try Self.response(SyntheticReceipt(records: 2).attributes())
        #expect(response.status.code == 0)
        #expect(Self.keys(document, document.root) == ["receipt", "status", "environment"])
        let receipt = try #require(Self.member(document, "receipt"))
        #expect(
            Self.keys(document, receipt) == [
                "receipt_type", "adam_id", "app_item_id", "bundle_id", "application_version",
                "receipt_creation_date", "receipt_creation_date_ms", "receipt_creation_date_pst",
                "request_date", "request_date_ms", "request_date_pst",
                "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst",
                "original_application_version", "in_app",
            ])
        let inApp = try #require(document.member("in_app", of: receipt))
        let entries = document.children(of: inApp)
        #expect(entries.count == 2)
        // 1712 (cancellation_date) is present but empty: left out, as Apple leaves out a key with no value.
        #expect(
            Self.keys(document, entries[0]) == [
                "quantity", "product_id", "transaction_id", "original_transaction_id",
                "purchase_date", "purchase_date_ms", "purchase_date_pst",
                "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst",
                "expires_date", "expires_date_ms", "expires_date_pst",
                "web_order_line_item_id", "is_trial_period", "is_in_intro_offer_period",
            ])
    }

    @Test func valuesTakeApplesForms() throws {
        let (_, document) = try Self.response(SyntheticReceipt(environment: "Production").attributes())
        #expect(document.string(try #require(Self.member(document, "environment"))) == "Production")
        let adam = try #require(Self.member(document, "receipt", "adam_id"))
        #expect(document.nodes[adam].kind == .number)
        #expect(document.text(adam) == "0")
        let inApp = try #require(Self.member(document, "receipt", "in_app"))
        let entry = try #require(document.children(of: inApp).first)
        func string(_ name: String) -> String? { document.member(name, of: entry).flatMap { document.string($0) } }
        #expect(string("quantity") == "1")
        #expect(string("web_order_line_item_id") == "2000000000000")
        #expect(string("is_trial_period") == "false")
        #expect(string("is_in_intro_offer_period") == "true")
        #expect(string("original_purchase_date") == "2020-01-01 00:00:00 Etc/GMT")
        #expect(string("original_purchase_date_ms") == "1577836800000")
        #expect(string("original_purchase_date_pst") == "2019-12-31 16:00:00 America/Los_Angeles")
        let request = try #require(Self.member(document, "receipt", "request_date_ms"))
        #expect(document.string(request) == "1767225600123")
    }

    @Test func laterFieldsAppearWhereTheReceiptCarriesThem() throws {
        var attributes = SyntheticReceipt(records: 0).attributes()
        attributes += [.ia5(21, "2030-01-01T00:00:00Z"), .ia5(32, "2019-06-01T07:00:00Z")]
        attributes.append(
            .record([
                .integer(1701, 1), .utf8(1702, "p"), .utf8(1703, "7"), .ia5(1704, "2021-03-14T10:00:00Z"),
                .utf8(1705, "7"), .ia5(1706, "2021-03-14T10:00:00Z"), .ia5(1712, "2021-03-15T10:00:00Z"),
                .utf8(1721, "offer-1"),
            ]))
        let (_, document) = try Self.response(attributes)
        let receipt = try #require(Self.member(document, "receipt"))
        #expect(
            Self.keys(document, receipt).suffix(7) == [
                "expiration_date", "expiration_date_ms", "expiration_date_pst",
                "preorder_date", "preorder_date_ms", "preorder_date_pst", "in_app",
            ])
        let inApp = try #require(document.member("in_app", of: receipt))
        let entry = try #require(document.children(of: inApp).first)
        #expect(
            Self.keys(document, entry).suffix(4) == [
                "cancellation_date", "cancellation_date_ms", "cancellation_date_pst", "promotional_offer_id",
            ])
        // 2021-03-14 10:00 UTC is after that day's 02:00 PST switch to daylight time.
        #expect(
            document.member("cancellation_date_pst", of: entry).flatMap { document.string($0) }
                == "2021-03-15 03:00:00 America/Los_Angeles")
    }

    @Test func unreadableInputIs21002WithNothingElse() throws {
        let inspection = try Inspect.testCA(Array("not a receipt".utf8))
        let response = VerifyReceiptResponse(inspection, requestDate: Self.requestDate)
        #expect(response.status.code == VerifyReceiptStatus.malformed)
        #expect(String(decoding: response.json(pretty: false), as: UTF8.self) == "{\"status\":21002}\n")
    }

    @Test func damagedPayloadUnderAValidSignatureIs21002() throws {
        var attributes = SyntheticReceipt().attributes()
        attributes.append(AttributeSpec(type: 1720, value: [0x30, 0x80]))  // not one ASN.1 element: shown raw
        attributes.append(.record([.integer(1701, 1), AttributeSpec(type: 1702, value: [0x0C, 0x05, 0x61])]))
        let (response, _) = try Self.response(attributes)
        #expect(response.status.code == VerifyReceiptStatus.malformed)
        #expect(response.status.reason == "value-not-asn1")
        #expect(response.payload == nil)
    }

    @Test func brokenSignatureIs21003() throws {
        var receipt = try TestReceipts.signed()
        receipt[receipt.count - 10] ^= 0x01  // inside the RSA signature, the SignerInfo's last field
        let inspection = try Inspect.testCA(receipt)
        let response = VerifyReceiptResponse(inspection, requestDate: Self.requestDate)
        #expect(response.status.code == VerifyReceiptStatus.notAuthenticated)
        #expect(response.status.reason == "signature-invalid")
        #expect(
            String(decoding: response.json(pretty: false), as: UTF8.self)
                == "{\"status\":21003}\n")
    }

    @Test func contentErrorsAre21003() throws {
        let (response, _) = try Self.response(
            SyntheticReceipt().attributes(),
            expectations: Expectations(bundleID: "com.example.other"))
        #expect(response.status.code == VerifyReceiptStatus.notAuthenticated)
        #expect(response.status.reason == "bundle-id-mismatch")
    }

    @Test(arguments: [
        ("ProductionSandbox", ReceiptEnvironment.production, VerifyReceiptStatus.sandboxReceiptSentToProduction),
        ("Production", .sandbox, VerifyReceiptStatus.productionReceiptSentToSandbox),
        ("ProductionVPP", .sandbox, VerifyReceiptStatus.productionReceiptSentToSandbox),
        ("Xcode", .production, VerifyReceiptStatus.notAuthenticated),
        ("Mystery", .sandbox, VerifyReceiptStatus.notAuthenticated),
        ("ProductionSandbox", .sandbox, VerifyReceiptStatus.valid),
        ("Production", .production, VerifyReceiptStatus.valid),
        // Exactly a documented value (a red team's trial, session 28: each of these was taken for its prefix's or
        // its "Sandbox"'s environment; a C-string reader takes `Production\0Sandbox` for Production).
        ("Production ", .production, VerifyReceiptStatus.notAuthenticated),
        ("Production\0", .production, VerifyReceiptStatus.notAuthenticated),
        ("Production\0Sandbox", .sandbox, VerifyReceiptStatus.notAuthenticated),
        ("NotSandbox", .sandbox, VerifyReceiptStatus.notAuthenticated),
    ])
    func environmentExpectationGivesApplesStatus(type: String, expected: ReceiptEnvironment, status: Int) throws {
        let (response, _) = try Self.response(
            SyntheticReceipt(environment: type).attributes(),
            expectations: Expectations(environment: expected))
        #expect(response.status.code == status)
    }

    @Test(arguments: [
        ("Production", "Production"), ("ProductionVPP", "Production"), ("ProductionSandbox", "Sandbox"),
        ("ProductionVPPSandbox", "Sandbox"), ("Sandbox", "Sandbox"), ("Xcode", "Xcode"),
    ])
    func environmentFollowsTheReceiptType(type: String, environment: String) {
        #expect(ReceiptEnvironment(receiptType: type)?.rawValue == environment)
    }

    /// Every documented field Apple's response carries has a key, and every key reads a type the field table knows

    @Test func keyTablesCoverTheDocumentedFields() {
        let receiptTypes = Set(VerifyReceiptKey.receipt.filter { $0.source == .attribute }.map(\.type))
        let inAppTypes = Set(VerifyReceiptKey.inApp.map(\.type))
        for field in FieldTable.all where field.isDocumented && field.kind != .raw {
            let types = field.scope == .receipt ? receiptTypes.union([17]) : inAppTypes
            #expect(types.contains(field.type), "\(field.name) (\(field.type)) has no verifyReceipt key")
        }
        for key in VerifyReceiptKey.receipt where key.source == .attribute {
            #expect(FieldTable.descriptor(key.type, in: .receipt) != nil, "\(key.name)")
        }
        for key in VerifyReceiptKey.inApp {
            #expect(FieldTable.descriptor(key.type, in: .inApp) != nil, "\(key.name)")
        }
    }
}
