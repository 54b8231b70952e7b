import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// `--app-apple-id` on a receipt: app_item_id (attribute 1) is the app's App Store id in a Production receipt and
/// 0 elsewhere, so it binds a Production receipt and nothing else (as Apple's JWS verifier requires appAppleId
/// only in Production).
@Suite("App Store id expected of a receipt")
struct AppAppleIDExpectationTests {
    static func codes(_ file: String, appAppleID: String) throws -> [String] {
        let options = InspectionOptions(
            anchors: try TrustAnchors.appleRoot(), time: .signed,
            expectations: Expectations(appAppleID: appAppleID), now: 1_800_000_000)
        return ReceiptInspector.inspect(Fixtures.bytes("Corpus/receipts/" + file), options: options).findings.map(
            \.code)
    }

    @Test func aProductionReceiptIsBoundToItsAppItemID() throws {
        #expect(!(try Self.codes("kvitto-receipt.receipt", appAppleID: "497799835")).contains("app-apple-id-mismatch"))
        #expect(try Self.codes("kvitto-receipt.receipt", appAppleID: "497799836").contains("app-apple-id-mismatch"))
        #expect(
            try Self.codes("tpinappreceipt-production.receipt", appAppleID: "497799835")
                .contains("app-apple-id-mismatch"))
    }

    @Test func aSandboxReceiptCarriesNoAppItemIDToBind() throws {
        #expect(
            !(try Self.codes("kvitto-sandboxReceipt.receipt", appAppleID: "497799835")).contains(
                "app-apple-id-mismatch"))
    }
}
