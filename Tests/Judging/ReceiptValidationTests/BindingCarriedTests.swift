import ReceiptDiagnostics
import ReceiptModel
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// A part of the binding is checked only where the document carries it (session 24's red team: a renewal info was
/// said to be "bound to the expected bundle id" it does not carry, and --require-binding passed; a transaction's
/// app Apple id and a Sandbox receipt's were said checked). What was expected and not carried is said, and binds
/// nothing.
@Suite("What a document carries of its binding")
struct BindingCarriedTests {
    static func jws(_ file: String, _ expectations: Expectations, requiresBinding: Bool = false) throws
        -> JWSInspection
    {
        var options = InspectionOptions(
            anchors: try TrustAnchors.appleRootG3(), expectations: expectations, now: 1_800_000_000)
        options.requiresBinding = requiresBinding
        return JWSInspector.inspect(Fixtures.bytes("Corpus/jws/" + file), options: options)
    }

    @Test func renewalInfoAloneCarriesNoApp() throws {
        let inspection = try Self.jws(
            "gopay-renewal-2000000184445477-sandbox.jws", Expectations(bundleID: "com.wrong"), requiresBinding: true)
        let scope = try #require(inspection.binding)
        #expect(!scope.isBound)
        #expect(scope.checked.isEmpty && scope.notCarried == [.bundleID] && scope.missingOptions.isEmpty)
        #expect(inspection.findings.contains { $0.code == FindingCode.bindingRequired.rawValue })
        #expect(!inspection.isValid)
        #expect(scope.sentence(document: "token").hasPrefix("not bound to an app: the token carries no bundle id"))
    }

    @Test func aNotificationBindsTheRenewalInfoItCarries() throws {
        let inspection = try Self.jws(
            "gopay-notif-DID_RENEW-sandbox.jws",
            Expectations(bundleID: "com.audaos.audarecorder", environment: .sandbox), requiresBinding: true)
        let scope = try #require(inspection.binding)
        #expect(scope.isBound && scope.checked == [.bundleID, .environment] && scope.notCarried.isEmpty)
        #expect(inspection.isValid, "\(inspection.findings.map(\.code))")
    }

    /// Bound to the app but to no environment: this app's Sandbox documents, free to any TestFlight tester, pass a
    /// Production check, so --require-binding asks for --environment too (a red team's trial; Apple's verifier
    /// always checks it).
    @Test func requireBindingAsksForTheEnvironment() throws {
        let inspection = try Self.jws(
            "gopay-notif-DID_RENEW-sandbox.jws", Expectations(bundleID: "com.audaos.audarecorder"),
            requiresBinding: true)
        #expect(inspection.binding?.isBound == true)
        #expect(!inspection.isValid)
        let finding = inspection.findings.first { $0.code == FindingCode.bindingRequired.rawValue }
        #expect(finding?.message.contains("pass --environment") == true)
        let unrequired = try Self.jws(
            "gopay-notif-DID_RENEW-sandbox.jws", Expectations(bundleID: "com.audaos.audarecorder"))
        #expect(unrequired.isValid)
    }

    @Test func aTransactionCarriesNoAppAppleID() throws {
        let inspection = try Self.jws(
            "gopay-txn-510001261072921-production.jws",
            Expectations(bundleID: "com.jrjj.keysns", appAppleID: "1", environment: .production), requiresBinding: true)
        let scope = try #require(inspection.binding)
        #expect(scope.checked == [.bundleID, .environment] && scope.notCarried == [.appAppleID])
        // The bundle id is all a transaction can be bound to an app by; the app Apple id is still asked for in
        // Production, as Apple's verifier insists on it.
        #expect(scope.isBound && scope.carriesIdentity)
        let unnamed = try Self.jws(
            "gopay-txn-510001261072921-production.jws", Expectations(bundleID: "com.jrjj.keysns"))
        #expect(unnamed.binding?.isBound == false && unnamed.binding?.missingOptions == ["--app-apple-id"])
        #expect(
            scope.sentence(document: "token").contains(
                "expected but not carried by the token, so not checked: app Apple id"))
    }

    @Test func aSandboxReceiptCarriesNoAppItemID() throws {
        let options = InspectionOptions(
            anchors: try TrustAnchors.appleRoot(),
            expectations: Expectations(bundleID: "com.example", appAppleID: "12345"), now: 1_800_000_000)
        let sandbox = ReceiptInspector.inspect(
            Fixtures.bytes("Corpus/receipts/kvitto-sandboxReceipt.receipt"), options: options)
        #expect(sandbox.binding?.notCarried == [.appAppleID])
        #expect(sandbox.binding?.checked == [.bundleID])
        let production = ReceiptInspector.inspect(
            Fixtures.bytes("Corpus/receipts/kvitto-receipt.receipt"), options: options)
        #expect(production.binding?.checked == [.bundleID, .appAppleID])
        #expect(production.binding?.notCarried == [])
    }
}
