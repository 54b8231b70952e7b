import Foundation
import Rcpt
import ReceiptCrypto
import ReceiptSigning
import ReceiptTestSupport
import Testing

/// The front door as a backend uses it: configured once, each kind verified into its typed model, every refusal a
/// `VerificationFailure` whose cause says who could have made the document.
@Suite("AppStoreVerifier")
struct AppStoreVerifierTests {
    static func token(_ name: String) -> String {
        String(decoding: Fixtures.bytes("Corpus/jws/\(name)"), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    static let sandboxTransaction = token("gopay-txn-2000000004047119-sandbox.jws")
    static let sandboxRenewal = token("gopay-renewal-2000000000842607-sandbox.jws")
    static let audaRecorder = "com.audaos.audarecorder"

    static func sandboxVerifier(bundleId: String = audaRecorder) throws -> AppStoreVerifier {
        try AppStoreVerifier(bundleId: bundleId, appAppleId: nil, environment: .sandbox)
    }

    /// The failure `body` throws; fails the test when it returns.
    static func failure(_ body: () throws(VerificationFailure) -> Void) -> VerificationFailure? {
        do {
            try body()
            Issue.record("verified, though it must not")
            return nil
        } catch {
            return error
        }
    }

    @Test func aTransactionIsTypedWithApplesNames() throws {
        let transaction = try Self.sandboxVerifier().verifyTransaction(Self.sandboxTransaction)
        #expect(transaction.transactionId == "2000000004047119")
        #expect(transaction.originalTransactionId == "2000000000842607")
        #expect(transaction.productId == "com.audaos.audarecorder.vip.m2")
        #expect(transaction.type == .autoRenewableSubscription)
        #expect(transaction.inAppOwnershipType == .purchased)
        #expect(transaction.environment == .sandbox)
        #expect(transaction.quantity == 1)
        #expect(transaction.expiresDate == Date(timeIntervalSince1970: 1_646_387_196))
        #expect(transaction.signedDate == Date(timeIntervalSince1970: 1_646_387_008.254))
    }

    @Test func renewalInfoIsTyped() throws {
        let renewal = try Self.sandboxVerifier().verifyRenewalInfo(Self.sandboxRenewal)
        #expect(renewal.autoRenewStatus == .on)
        #expect(renewal.autoRenewProductId == "com.audaos.audarecorder.vip.m2")
        #expect(renewal.originalTransactionId == "2000000000842607")
    }

    @Test func aNotificationCarriesItsVerifiedTransactionAndRenewalInfo() throws {
        let body = Fixtures.bytes("Corpus/jws/gopay-notif-DID_RENEW-sandbox.jws")
        let notification = try Self.sandboxVerifier().verifyNotification(body)
        #expect(notification.notificationType == .didRenew)
        #expect(notification.data?.bundleId == Self.audaRecorder)
        #expect(notification.data?.transaction?.transactionId == "2000000004047119")
        #expect(notification.data?.renewalInfo?.autoRenewStatus == .on)
        #expect(notification.summary == nil)
    }

    @Test func aProductionNotificationIsBoundToTheAppsAppleId() throws {
        let body = Fixtures.bytes("Corpus/jws/gopay-notif-CONSUMPTION_REQUEST-production.jws")
        let verifier = try AppStoreVerifier(
            bundleId: "com.jrjj.keysns", appAppleId: 1_601_830_814, environment: .production)
        let notification = try verifier.verifyNotification(body)
        #expect(notification.notificationType == .consumptionRequest)
        #expect(notification.data?.appAppleId == 1_601_830_814)
        #expect(notification.data?.environment == .production)
        #expect(notification.data?.transaction?.bundleId == "com.jrjj.keysns")

        let other = try AppStoreVerifier(bundleId: "com.jrjj.keysns", appAppleId: 42, environment: .production)
        let failure = Self.failure { () throws(VerificationFailure) in _ = try other.verifyNotification(body) }
        #expect(failure?.cause == .wrongApp)
        #expect(failure?.findings.contains { $0.kind == .appAppleIdMismatch && $0.offset != nil } == true)
    }

    @Test func theBodyAppleSendsIsReadAsTheTokenIs() throws {
        let body = Fixtures.bytes("Corpus/jws/imdhemy-notif-TEST-sandbox.json")
        guard case .notification(let notification) = try Self.sandboxVerifier(bundleId: "com.Abilities").verify(body)
        else {
            Issue.record("not a notification")
            return
        }
        #expect(notification.notificationType == .test)
        #expect(notification.version == "2.0")
    }

    @Test func productionWithoutTheAppsAppleIdIsRefused() {
        #expect(throws: AppStoreVerifier.ConfigurationError.appAppleIdRequiredInProduction) {
            try AppStoreVerifier(bundleId: "com.example.app", appAppleId: nil, environment: .production)
        }
        #expect(throws: AppStoreVerifier.ConfigurationError.xcodeNeedsItsCertificate) {
            try AppStoreVerifier(bundleId: "com.example.app", appAppleId: nil, environment: .xcode)
        }
        #expect(throws: AppStoreVerifier.ConfigurationError.bundleIdEmpty) {
            try AppStoreVerifier(bundleId: "", appAppleId: nil, environment: .sandbox)
        }
        #expect(throws: AppStoreVerifier.ConfigurationError.bundleIdEmpty) {
            try AppStoreVerifier(bundleId: " \n", appAppleId: nil, environment: .sandbox)
        }
        for id: Int64 in [0, -1] {
            #expect(throws: AppStoreVerifier.ConfigurationError.appAppleIdNotPositive(id)) {
                try AppStoreVerifier(bundleId: "com.example.app", appAppleId: id, environment: .production)
            }
        }
        #expect(throws: AppStoreVerifier.ConfigurationError.noRoots) {
            try AppStoreVerifier(
                bundleId: "com.example.app", appAppleId: nil, environment: .sandbox, roots: .certificates([]))
        }
    }

    /// A device binding asked for and not carried is refused, as a receipt's is: a transaction from the App Store
    /// Server API has no deviceVerification, so any device's copy of it would pass.
    @Test func aDeviceBindingThatCannotBeMadeIsRefused() throws {
        let verifier = try Self.sandboxVerifier()
        let device = try #require(UUID(uuidString: "0EE7C0DE-0000-4000-8000-00000000BEEF"))
        let failure = Self.failure { () throws(VerificationFailure) in
            _ = try verifier.verifyTransaction(Self.sandboxTransaction, deviceId: device)
        }
        #expect(failure?.cause == .wrongDevice)
        #expect(failure?.findings.contains { $0.kind == .jwsDeviceUnverifiable && $0.severity == .error } == true)
        // Without a device asked for, the same transaction verifies.
        #expect(throws: Never.self) { _ = try verifier.verifyTransaction(Self.sandboxTransaction) }
    }

    /// `RESCIND_CONSENT` carries the app and its app transaction in `appData`, verified with the notification and
    /// typed; a revocation's type and share are typed too.
    @Test func appDataAndRevocationsAreTyped() throws {
        let authorities = try #require(TestReceipts.jwsAuthorities("library appData"))
        let signer = JWSSigner(authority: authorities.own)
        func signed(_ json: String) throws -> String { try signer.sign(payload: Array(json.utf8)) }
        let appTransaction = try signed(
            #"{"receiptType":"Sandbox","appAppleId":0,"bundleId":"com.example.app","applicationVersion":"7","#
                + #""originalApplicationVersion":"1","receiptCreationDate":1700000000000,"#
                + #""originalPurchaseDate":1690000000000,"signedDate":1700000000000}"#)
        let notification = try signed(
            #"{"notificationType":"RESCIND_CONSENT","notificationUUID":"6f1b0e50-0000-4000-8000-000000000001","#
                + #""appData":{"appAppleId":0,"bundleId":"com.example.app","environment":"Sandbox","#
                + #""signedAppTransactionInfo":"\#(appTransaction)"},"version":"2.0","signedDate":1700000000000}"#)
        let verifier = try AppStoreVerifier(
            bundleId: "com.example.app", appAppleId: nil, environment: .sandbox,
            roots: .certificates([authorities.own.root.derEncoded]))
        let typed = try verifier.verifyNotification(Array(notification.utf8))
        #expect(typed.notificationType == .rescindConsent)
        #expect(typed.appData?.bundleId == "com.example.app")
        #expect(typed.appData?.appTransaction?.applicationVersion == "7")
        let refunded = try signed(
            #"{"transactionId":"9","originalTransactionId":"9","bundleId":"com.example.app","productId":"p","#
                + #""purchaseDate":1690000000000,"type":"Consumable","environment":"Sandbox","#
                + #""revocationDate":1695000000000,"revocationReason":1,"revocationType":"REFUND_PRORATED","#
                + #""revocationPercentage":50000,"signedDate":1700000000000}"#)
        let transaction = try verifier.verifyTransaction(refunded)
        #expect(transaction.revocationType == .refundProrated)
        #expect(transaction.revocationPercentage == 50_000)
    }

    /// A notification's transaction is the token at exactly `data.signedTransactionInfo`: a second token at a path
    /// that only ends so (`aaa.data.signedTransactionInfo`, placed first) is not shown as it (a library adopter's
    /// trial, session 27: the decoy's expiry in 2100 was granted, where `rcpt status` said expired).
    @Test func aNotificationsTransactionIsTheOneAtItsPath() throws {
        let authorities = try #require(TestReceipts.jwsAuthorities("library decoy"))
        let signer = JWSSigner(authority: authorities.own)
        func signed(_ json: String) throws -> String { try signer.sign(payload: Array(json.utf8)) }
        func transaction(expires: Int64) throws -> String {
            try signed(
                #"{"transactionId":"9","originalTransactionId":"9","bundleId":"com.example.app","productId":"p","#
                    + #""purchaseDate":1690000000000,"expiresDate":\#(expires),"type":"Auto-Renewable Subscription","#
                    + #""environment":"Sandbox","signedDate":1690000000000}"#)
        }
        let notification = try signed(
            #"{"notificationType":"DID_RENEW","notificationUUID":"6f1b0e50-0000-4000-8000-000000000002","#
                + #""aaa":{"data":{"signedTransactionInfo":"\#(try transaction(expires: 4_102_444_800_000))"}},"#
                + #""data":{"bundleId":"com.example.app","environment":"Sandbox","#
                + #""signedTransactionInfo":"\#(try transaction(expires: 1_692_000_000_000))"},"#
                + #""version":"2.0","signedDate":1690000000000}"#)
        let verifier = try AppStoreVerifier(
            bundleId: "com.example.app", appAppleId: nil, environment: .sandbox,
            roots: .certificates([authorities.own.root.derEncoded]))
        let typed = try verifier.verifyNotification(Array(notification.utf8))
        #expect(typed.data?.transaction?.expiresDate == Date(timeIntervalSince1970: 1_692_000_000))
    }

    /// The cause names what a reader of it acts on (a library adopter's trial, session 27): a notification carrying
    /// another environment's transaction is `.wrongEnvironment` (was `.wrongApp`), one carrying a token that does not
    /// read is `.unreadable`, as the documentation says a damaged token is (was `.invalid`).
    @Test func aNestedTokensFailureNamesItsCause() throws {
        let authorities = try #require(TestReceipts.jwsAuthorities("library causes"))
        let signer = JWSSigner(authority: authorities.own)
        func signed(_ json: String) throws -> String { try signer.sign(payload: Array(json.utf8)) }
        let production = try signed(
            #"{"transactionId":"9","originalTransactionId":"9","bundleId":"com.example.app","productId":"p","#
                + #""purchaseDate":1690000000000,"type":"Non-Consumable","environment":"Production","#
                + #""signedDate":1690000000000}"#)
        func notification(carrying token: String) throws -> [UInt8] {
            Array(
                try signed(
                    #"{"notificationType":"ONE_TIME_CHARGE","notificationUUID":"6f1b0e50-0000-4000-8000-000000000003","#
                        + #""data":{"bundleId":"com.example.app","environment":"Sandbox","#
                        + #""signedTransactionInfo":"\#(token)"},"version":"2.0","signedDate":1690000000000}"#
                ).utf8)
        }
        let verifier = try AppStoreVerifier(
            bundleId: "com.example.app", appAppleId: nil, environment: .sandbox,
            roots: .certificates([authorities.own.root.derEncoded]))
        let otherEnvironment = try notification(carrying: production)
        let environment = Self.failure { () throws(VerificationFailure) in
            _ = try verifier.verifyNotification(otherEnvironment)
        }
        #expect(environment?.cause == .wrongEnvironment, "\(String(describing: environment))")
        let parts = production.split(separator: ".")
        let damaged = try notification(carrying: parts[0] + "." + parts[1] + ".AAAA." + parts[2])
        let unreadable = Self.failure { () throws(VerificationFailure) in _ = try verifier.verifyNotification(damaged) }
        #expect(unreadable?.cause == .unreadable, "\(String(describing: unreadable))")
    }

    /// A time no receipt date holds is refused where it configures the verifier, never trapped on (a trial of
    /// session 27 crashed a server with `now: 1e20 s`), and an entitlement asked at one is judged at the edge.
    @Test func aTimeOutOfRangeIsRefusedNotTrappedOn() throws {
        for date in [Date(timeIntervalSince1970: 1e20), Date(timeIntervalSince1970: -1e15)] {
            #expect(throws: AppStoreVerifier.ConfigurationError.self) {
                _ = try AppStoreVerifier(
                    bundleId: Self.audaRecorder, appAppleId: nil, environment: .sandbox, now: date)
            }
            #expect(throws: AppStoreVerifier.ConfigurationError.self) {
                _ = try AppStoreVerifier(
                    bundleId: Self.audaRecorder, appAppleId: nil, environment: .sandbox, chainTime: .date(date))
            }
        }
        let verifier = try Self.sandboxVerifier()
        let far = verifier.entitlements(
            of: [Array(Self.sandboxTransaction.utf8)], at: Date(timeIntervalSince1970: 1e20))
        #expect(far.active.isEmpty)
    }

    /// A verified payload of no kind Apple signs (Apple's own library's mock) has no typed model: the failure says so.
    @Test func aPayloadOfNoKindSaysSo() throws {
        let root = Fixtures.bytes("Corpus/jws/anchors/apple-swift-mock-test-root-b.der")
        let verifier = try AppStoreVerifier(
            bundleId: "com.example", appAppleId: nil, environment: .sandbox, roots: .certificates([root]))
        let token = Fixtures.bytes("Corpus/jws/apple-swift-mock-transactionInfo.jws")
        #expect(verifier.inspect(token).isValid)
        let failure = Self.failure { () throws(VerificationFailure) in _ = try verifier.verify(token) }
        #expect(failure?.description.hasPrefix("verified, but a payload of no kind Apple signs") == true)
    }

    @Test func anotherAppsGenuineTransactionIsAReplay() throws {
        let verifier = try Self.sandboxVerifier(bundleId: "com.example.other")
        let failure = Self.failure { () throws(VerificationFailure) in
            _ = try verifier.verifyTransaction(Self.sandboxTransaction)
        }
        #expect(failure?.cause == .wrongApp)
        #expect(failure?.findings.contains { $0.kind == .bundleIdMismatch } == true)
    }

    @Test func aSandboxTransactionSentToProductionIsTheWrongEnvironment() throws {
        let verifier = try AppStoreVerifier(bundleId: Self.audaRecorder, appAppleId: 1, environment: .production)
        let failure = Self.failure { () throws(VerificationFailure) in
            _ = try verifier.verifyTransaction(Self.sandboxTransaction)
        }
        #expect(failure?.cause == .wrongEnvironment)
    }

    /// A verifyReceipt response whose unsigned decoding names another app or environment than its signed
    /// `latest_receipt` (the expected app's, genuine) is contradictory, not a replay: anyone can write the decoding.
    @Test(arguments: [("bundle_id", "com.example.other"), ("receipt_type", "ProductionSandbox")])
    func aResponseWhoseDecodingNamesAnotherAppFails(member: String, value: String) throws {
        let recorded = Fixtures.bytes(
            "Tests/Judging/ReceiptVerifyReceiptTests/Pairs/griddiary-production-2017/response.json")
        var response = try #require(try JSONSerialization.jsonObject(with: Data(recorded)) as? [String: Any])
        let verifier = try AppStoreVerifier(
            bundleId: "com.sumiapp.GridDiary", appAppleId: 597_077_261, environment: .production)
        _ = try verifier.verifyReceipt(Array(try JSONSerialization.data(withJSONObject: response)))
        var receipt = try #require(response["receipt"] as? [String: Any])
        receipt[member] = value
        response["receipt"] = receipt
        let edited = Array(try JSONSerialization.data(withJSONObject: response))
        let failure = Self.failure { () throws(VerificationFailure) in _ = try verifier.verifyReceipt(edited) }
        #expect(failure?.cause == .invalid)
        #expect(failure?.findings.contains { $0.kind == .responseDecodingMismatch } == true)
    }

    /// `token` with one character of its signature changed.
    static func tampered(_ token: String) -> String {
        var bytes = Array(token.utf8)
        let last = bytes.count - 10
        bytes[last] = bytes[last] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A tampered transaction, and a tampered renewal info handed where a transaction is asked for, are forgeries
    /// (whatever their kind).
    @Test(arguments: [sandboxTransaction, sandboxRenewal])
    func aTamperedSignatureIsAForgery(_ token: String) throws {
        let verifier = try Self.sandboxVerifier()
        let failure = Self.failure { () throws(VerificationFailure) in
            _ = try verifier.verifyTransaction(Self.tampered(token))
        }
        #expect(failure?.cause == .invalidSignature)
    }

    @Test func anotherKindIsNotTakenForTheOneAskedFor() throws {
        let verifier = try Self.sandboxVerifier()
        let failure = Self.failure { () throws(VerificationFailure) in
            _ = try verifier.verifyTransaction(Self.sandboxRenewal)
        }
        #expect(failure?.cause == .wrongKind(expected: .transaction, found: .renewalInfo))
    }

    @Test(arguments: [[], [0x30, 0x03, 0x02], Array("not a receipt".utf8), [UInt8](repeating: 0xFF, count: 64)])
    func unreadableInputIsAFailureWithItsOffset(_ bytes: [UInt8]) throws {
        let verifier = try Self.sandboxVerifier()
        let failure = Self.failure { () throws(VerificationFailure) in _ = try verifier.verify(bytes) }
        #expect(failure?.cause == .unreadable)
        #expect(failure?.readError != nil)
    }

    @Test func aReceiptIsTypedWithItsPurchases() throws {
        let verifier = try AppStoreVerifier(
            bundleId: "com.cocoanetics.EmmiView", appAppleId: nil, environment: .sandbox)
        let receipt = try verifier.verifyReceipt(Fixtures.realReceipt("kvitto-sandboxReceipt.receipt"))
        #expect(receipt.bundleId == "com.cocoanetics.EmmiView")
        #expect(receipt.environment == .sandbox)
        #expect(receipt.creationDate == ISO8601DateFormatter().date(from: "2015-05-25T15:22:10Z"))
        let month = receipt.inApp.first { $0.productId == "com.cocoanetics.EmmiView.OneMonth" }
        #expect(month?.purchaseDate == ISO8601DateFormatter().date(from: "2015-05-23T15:06:02Z"))
        #expect(month?.expiresDate == ISO8601DateFormatter().date(from: "2015-05-24T03:06:02Z"))
        #expect(month?.cancellationDate == nil)
    }

    @Test func oneVerifierServesManyTasks() async throws {
        let verifier = try Self.sandboxVerifier()
        let ids = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<64 {
                group.addTask { try verifier.verifyTransaction(Self.sandboxTransaction).transactionId }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(ids.count == 64 && ids.allSatisfy { $0 == "2000000004047119" })
    }

    @Test func theChainIsJudgedAtTheSigningTimeUnlessAskedOtherwise() throws {
        // The token's leaf expired in 2023: valid when judged at its signedDate (2022), not today.
        #expect(throws: Never.self) { try Self.sandboxVerifier().verifyTransaction(Self.sandboxTransaction) }
        let today = try AppStoreVerifier(
            bundleId: Self.audaRecorder, appAppleId: nil, environment: .sandbox, chainTime: .now,
            now: Date(timeIntervalSince1970: 1_795_000_000))
        let failure = Self.failure { () throws(VerificationFailure) in
            _ = try today.verifyTransaction(Self.sandboxTransaction)
        }
        #expect(failure?.cause == .invalidChain)
        #expect(failure?.description.contains("chain-invalid") == true)
    }

    @Test func aReceiptOfAnotherDeviceIsAReplay() throws {
        let verifier = try AppStoreVerifier(
            bundleId: "com.cocoanetics.EmmiView", appAppleId: nil, environment: .sandbox)
        let receipt = Fixtures.realReceipt("kvitto-sandboxReceipt.receipt")
        let device = try #require(UUID(uuidString: "00000000-1111-2222-3333-444444444444"))
        let failure = Self.failure { () throws(VerificationFailure) in
            _ = try verifier.verifyReceipt(receipt, deviceId: device)
        }
        #expect(failure?.cause == .wrongDevice)
    }

    @Test func theInspectionKeepsTheWarningsAVerifiedModelDoesNotCarry() throws {
        let body = Fixtures.bytes("Corpus/jws/gopay-notif-DID_RENEW-sandbox.jws")
        let inspection = try Self.sandboxVerifier().inspect(body)
        #expect(inspection.isValid)
        #expect(inspection.findings.contains { $0.kind == .jwsSignatureHighS })
    }

    @Test func aFailureSaysItsCauseInWords() throws {
        let verifier = try Self.sandboxVerifier()
        let failure = Self.failure { () throws(VerificationFailure) in
            _ = try verifier.verifyTransaction(Self.sandboxRenewal)
        }
        #expect(failure?.description == "renewal info, not a transaction")
    }

    @Test func aValueAppleAddsLaterKeepsItsRawValue() {
        let future = NotificationType(rawValue: "SOMETHING_NEW")
        #expect(future != .didRenew && future.rawValue == "SOMETHING_NEW")
        #expect(OfferType(rawValue: 9).description == "9")
    }
}
