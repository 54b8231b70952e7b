import Foundation
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptPurchases
import ReceiptRendering
import ReceiptSigning
import ReceiptValidation
import Testing

/// A payload's summary reads as Apple's documentation does: enumeration names beside their numbers, prices in
/// currency units, dates in UTC, and each kind's own headline.
@Suite("Purchase summaries")
struct PurchaseSummaryTests {
    static func summary(_ json: String, _ kind: JWSPayloadKind) throws -> PurchaseSummary {
        PurchaseSummary(try JSONDocument.read(Array(json.utf8)), kind: kind)
    }

    static func field(_ summary: PurchaseSummary, _ name: String) -> String? {
        summary.fields.first { $0.name == name }?.value
    }

    @Test func aRefundedFamilySharedSubscriptionSaysSo() throws {
        let summary = try Self.summary(
            #"""
            {"transactionId":"2","originalTransactionId":"1","productId":"com.example.monthly","type":"Auto-Renewable Subscription",
             "purchaseDate":1717243200000,"expiresDate":1719835200000,"quantity":1,"price":1990,"currency":"USD",
             "offerType":1,"offerDiscountType":"FREE_TRIAL","inAppOwnershipType":"FAMILY_SHARED","transactionReason":"RENEWAL",
             "revocationDate":1718000000123,"revocationReason":1,"isUpgraded":true,"environment":"Production"}
            """#, .transaction)
        #expect(
            summary.headline
                == "Auto-Renewable Subscription com.example.monthly, purchased 2024-06-01T12:00:00Z (RENEWAL), expires 2024-07-01T12:00:00Z, 1.99 USD, REVOKED 2024-06-10T06:13:20.123Z (REFUNDED_DUE_TO_ISSUE (1)), family-shared, upgraded [Production]"
        )
        #expect(Self.field(summary, "offerType") == "INTRODUCTORY_OFFER (1)")
        #expect(Self.field(summary, "price") == "1.99 USD")
    }

    @Test func pricesAreInCurrencyUnits() {
        #expect(PurchaseSummaryPrice.text("1990", currency: "USD") == "1.99 USD")
        #expect(PurchaseSummaryPrice.text("999", currency: "EUR") == "0.999 EUR")
        #expect(PurchaseSummaryPrice.text("5000", currency: nil) == "5.00")
        #expect(PurchaseSummaryPrice.text("-1500", currency: "JPY") == "-1.50 JPY")
        #expect(PurchaseSummaryPrice.text("12.5", currency: "USD") == "12.5")
    }

    @Test func renewalInfoNamesItsEnumerations() throws {
        let summary = try Self.summary(
            #"""
            {"originalTransactionId":"1","autoRenewProductId":"com.example.yearly","autoRenewStatus":0,"expirationIntent":2,
             "isInBillingRetryPeriod":true,"gracePeriodExpiresDate":1717243200000,"priceIncreaseStatus":1,"environment":"Sandbox"}
            """#, .renewalInfo)
        #expect(
            summary.headline
                == "renewal of 1 to com.example.yearly, auto-renew OFF (0), in billing retry, grace period until 2024-06-01T12:00:00Z, expired: BILLING_ERROR (2) [Sandbox]"
        )
        #expect(
            Self.field(summary, "priceIncreaseStatus")
                == "CUSTOMER_CONSENTED_OR_WAS_NOTIFIED_WITHOUT_NEEDING_CONSENT (1)")
        // A number Apple does not define stays a number.
        #expect(
            Self.field(
                try Self.summary(#"{"originalTransactionId":"1","autoRenewStatus":7}"#, .renewalInfo),
                "autoRenewStatus") == "7")
    }

    @Test func aNotificationSaysItsTypeAppAndStatus() throws {
        let summary = try Self.summary(
            #"""
            {"notificationType":"DID_FAIL_TO_RENEW","subtype":"GRACE_PERIOD","signedDate":1717243200000,
             "data":{"bundleId":"com.example","status":4,"environment":"Production"}}
            """#, .notification)
        #expect(
            summary.headline
                == "DID_FAIL_TO_RENEW/GRACE_PERIOD for com.example, subscription BILLING_GRACE_PERIOD (4), sent 2024-06-01T12:00:00Z [Production]"
        )
    }

    @Test func hostileClaimsAreText() throws {
        // A date out of every calendar, a huge price, an enumeration as a string: shown as written, never a crash.
        let summary = try Self.summary(
            #"""
            {"transactionId":"1","purchaseDate":1e400,"price":99999999999999999999999,"offerType":"1","expiresDate":-1}
            """#, .transaction)
        #expect(Self.field(summary, "purchaseDate")?.hasSuffix("(no usable date)") == true)
        #expect(Self.field(summary, "price") == "99999999999999999999999")
        #expect(Self.field(summary, "offerType") == "1")
        // A negative date is refused as a date here as the verifier refuses it (jws-date-unusable).
        #expect(Self.field(summary, "expiresDate") == "-1 (no usable date)")
    }
}

/// An App Store Server API response's transactions in one table, newest first, whatever order the response holds.
@Suite("API response summary")
struct APIResponseSummaryTests {
    @Test func transactionsAreListedNewestFirst() throws {
        let signer = try JWSFixtures.signer()
        let days: [Int64] = [3, 1, 2]
        let tokens = try days.map { day in
            try signer.sign(
                payload: Array(
                    JWSFixtures.transaction(extra: "").replacingOccurrences(
                        of: "\"purchaseDate\":1717243100000",
                        with: "\"purchaseDate\":\(1_717_243_200_000 + day * 86_400_000)"
                    )
                    .replacingOccurrences(of: "com.example.app.monthly", with: "com.example.day\(day)").utf8))
        }
        let response =
            #"{"signedTransactions":[\#(tokens.map { "\"\($0)\"" }.joined(separator: ","))],"hasMore":false}"#
        let text = JWSReport.briefText(
            JWSFixtures.inspect(response), name: "history.json", style: TextStyle(useColor: false))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("  3 transactions, newest first"), "\(text)")
        let order = lines.compactMap { line in ["day3", "day2", "day1"].first { line.contains("com.example.\($0)") } }
        #expect(order == ["day3", "day2", "day1"], "\(text)")
    }
}

/// What a payload states of a purchase, as info findings with the receipt's field names: never a verdict.
@Suite("Purchase facts")
struct PurchaseFactsTests {
    /// 2024-06-15T12:00:00Z.
    static let midJune: Int64 = 1_718_452_800

    static func facts(_ json: String, _ kind: JWSPayloadKind, at time: Int64 = midJune) throws -> [Finding] {
        PurchaseFacts.findings(try JSONDocument.read(Array(json.utf8)), kind: kind, at: time, offset: { $0 })
    }

    static func fields(_ finding: Finding?) -> [String: String] {
        Dictionary((finding?.fields ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    static let subscription =
        #"{"transactionId":"2","originalTransactionId":"1","productId":"com.example.monthly","type":"Auto-Renewable Subscription","purchaseDate":1717243200000,"expiresDate":1719835200000"#

    @Test func aSubscriptionIsActiveUntilItExpires() throws {
        let active = try Self.facts(Self.subscription + "}", .transaction)
        #expect(active.map(\.code) == ["subscription-active"])
        #expect(
            Self.fields(active.first) == [
                "product_id": "com.example.monthly", "transaction_id": "2",
                "original_transaction_id": "1", "expires_date": "2024-07-01T12:00:00Z",
            ])
        let later = try Self.facts(Self.subscription + "}", .transaction, at: 1_720_000_000)
        #expect(later.map(\.code) == ["subscription-expired"])
        #expect(later.allSatisfy { $0.severity == .info })
    }

    @Test func aRevokedFamilySharedUpgradedTransactionSaysEach() throws {
        let facts = try Self.facts(
            Self.subscription
                + #","revocationDate":1718000000000,"revocationReason":0,"inAppOwnershipType":"FAMILY_SHARED","isUpgraded":true}"#,
            .transaction)
        #expect(facts.map(\.code) == ["purchase-cancelled", "purchase-family-shared", "purchase-upgraded"])
        #expect(Self.fields(facts.first)["cancellation_date"] == "2024-06-10T06:13:20Z")
        #expect(Self.fields(facts.first)["reason"] == "REFUNDED_FOR_OTHER_REASON (0)")
    }

    @Test func renewalInfoStatesRetryGraceAutoRenewAndWhyItExpired() throws {
        let facts = try Self.facts(
            #"{"originalTransactionId":"1","autoRenewProductId":"com.example.monthly","autoRenewStatus":0,"expirationIntent":2,"isInBillingRetryPeriod":true,"gracePeriodExpiresDate":1719000000000}"#,
            .renewalInfo)
        #expect(
            facts.map(\.code) == [
                "subscription-expired", "subscription-auto-renew-off", "subscription-billing-retry",
                "subscription-grace-period",
            ])
        #expect(Self.fields(facts.first)["reason"] == "BILLING_ERROR (2)")
        #expect(Self.fields(facts.last)["grace_period_expires_date"] == "2024-06-21T20:00:00Z")
        // A grace period that has ended is no longer a fact at the time.
        let after = try Self.facts(
            #"{"originalTransactionId":"1","gracePeriodExpiresDate":1719000000000}"#, .renewalInfo,
            at: 1_720_000_000)
        #expect(after.isEmpty)
    }

    /// A notification's transaction, signed before it, is judged as of the notification: a DID_FAIL_TO_RENEW signed
    /// after the expiry does not call its transaction active (a support engineer's trial: "active at 2024-06-01" of
    /// a notification signed on 07-01).
    @Test func aCarriedTransactionIsJudgedAsOfItsCarrier() throws {
        let signer = try JWSFixtures.signer()
        // Signed when bought (100 s before the notification), expiring 10 s before the notification.
        let expiring = JWSFixtures.transaction(extra: #","expiresDate":1717243190000"#)
            .replacingOccurrences(of: "\"signedDate\":\(JWSFixtures.signedDate)", with: "\"signedDate\":1717243100000")
        let transaction = try signer.sign(payload: Array(expiring.utf8))
        let notification = try signer.sign(
            payload: Array(
                #"{"notificationType":"DID_FAIL_TO_RENEW","notificationUUID":"00000000-0000-4000-8000-000000000002","data":{"bundleId":"com.example.app","environment":"Sandbox","signedTransactionInfo":"\#(transaction)"},"version":"2.0","signedDate":\#(JWSFixtures.signedDate)}"#
                    .utf8))
        let nested = try #require(JWSFixtures.inspect(notification).tokens.first?.nested.first)
        #expect(nested.findings.contains { $0.code == "subscription-expired" }, "\(nested.findings.map(\.code))")
        #expect(!nested.findings.contains { $0.code == "subscription-active" })
    }

    /// A REFUND notification's transaction states the refund (it used to say nothing but a signature warning),
    /// dated before the notification's signing, when the facts are judged.
    @Test func aRefundNotificationSaysTheRefund() throws {
        let signer = try JWSFixtures.signer()
        let refunded = try signer.sign(
            payload: Array(
                JWSFixtures.transaction(extra: #","revocationDate":1717000000000,"revocationReason":1"#).utf8))
        let notification = try signer.sign(
            payload: Array(
                #"{"notificationType":"REFUND","notificationUUID":"00000000-0000-4000-8000-000000000001","data":{"bundleId":"com.example.app","environment":"Sandbox","signedTransactionInfo":"\#(refunded)"},"version":"2.0","signedDate":\#(JWSFixtures.signedDate)}"#
                    .utf8))
        let inspection = JWSFixtures.inspect(notification)
        #expect(inspection.isValid)
        let nested = try #require(inspection.tokens.first?.nested.first)
        #expect(nested.findings.contains { $0.code == "purchase-cancelled" && $0.severity == .info })
    }
}

/// The payload as a JSON object: a name given twice is written once, with the value rcpt's reader takes (the last),
/// where the name first stood; and dates out of every calendar are said as numbers, never a trap.
@Suite("Payload object and dates")
struct PayloadObjectTests {
    @Test func aDuplicatedClaimIsWrittenOnceWithTheValueTheReaderTakes() throws {
        let token = try JWSFixtures.signer().sign(
            payload: Array(
                #"{"bundleId":"com.example.first","transactionId":"1","bundleId":"com.example.app","n":[1,{"a":null}]}"#
                    .utf8))
        let json = JWSReport.json(JWSFixtures.inspect(token), .dump, pretty: false)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        let first = try #require((document["tokens"] as? [[String: Any]])?.first)
        let object = try #require((first["payload"] as? [String: Any])?["object"] as? [String: Any])
        #expect(object["bundleId"] as? String == "com.example.app")
        #expect(object.count == 3)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""object":{"bundleId":"com.example.app","transactionId":"1","n":[1,{"a":null}]}"#))
    }

    @Test func datesOutOfEveryCalendarAreNumbers() {
        #expect(MillisecondUTC.text(Int64.min) == "\(Int64.min) ms")
        #expect(MillisecondUTC.text(Int64.max) == "\(Int64.max) ms")
        #expect(MillisecondUTC.text(-1) == "1969-12-31T23:59:59.999Z")
        #expect(MillisecondUTC.text(1_717_243_200_000) == "2024-06-01T12:00:00Z")
    }
}
