import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptPurchases
import Testing

/// One meaning of "grants service at T": from the purchase (inclusive) to the expiry (exclusive), unless revoked by
/// then, compared to the millisecond. verify's facts on a JWS read it as status does.
@Suite("One meaning of active")
struct ServicePeriodTests {
    @Test func boundariesAreThePurchaseInclusiveTheExpiryExclusiveAndTheRevocation() {
        let period = ServicePeriod(purchased: 1_000, expires: 2_000)
        #expect(!period.grantsService(at: 999))
        #expect(period.grantsService(at: 1_000))
        #expect(period.grantsService(at: 1_999))
        #expect(!period.grantsService(at: 2_000))
        #expect(!ServicePeriod(purchased: 1_000, expires: 2_000, revoked: 1_500).grantsService(at: 1_500))
        #expect(ServicePeriod(purchased: 1_000, expires: 2_000, revoked: 1_500).grantsService(at: 1_499))
        #expect(!ServicePeriod(purchased: 1_000, expires: nil).grantsService(at: 1_500))
        #expect(ServicePeriod(purchased: nil, expires: 2_000).grantsService(at: -5_000))
        #expect(ServicePeriod.milliseconds(Int64.max) == Int64.max)
        #expect(ServicePeriod.milliseconds(-2) == -2_000)
    }

    /// A transaction that expires 500 ms after a whole-second evaluation time is active then: verify's fact
    /// compared whole seconds and said "not active".
    @Test func aJWSTransactionIsActiveToTheMillisecond() throws {
        let payload = try JSONDocument.read(
            Array(
                #"{"productId":"p","type":"Auto-Renewable Subscription","purchaseDate":1700000000000,"expiresDate":1700000100500}"#
                    .utf8))
        func code(at seconds: Int64) -> FindingCode? {
            PurchaseFacts.findings(payload, kind: .transaction, at: seconds, offset: { $0 }).first?.kind
        }
        #expect(code(at: 1_700_000_100) == .subscriptionActive)
        #expect(code(at: 1_700_000_101) == .subscriptionExpired)
        // Before its purchase it is not yet active, not expired (a support engineer's trial, session 28: Apple's
        // DID_RENEW signed 8 s before its transaction's purchaseDate read "vip.m2 is not active at 09:43:28
        // (expiresDate 09:46:36)", filed under subscription-expired).
        #expect(code(at: 1_699_999_999) == .subscriptionNotStarted)
        let message = PurchaseFacts.findings(payload, kind: .transaction, at: 1_699_999_999, offset: { $0 }).first?
            .message
        #expect(message?.contains("is not yet active") == true && message?.contains("purchaseDate") == true)
        #expect(ServicePeriod(purchased: 1_000, expires: 2_000).stateCode(at: 999) == .subscriptionNotStarted)
        #expect(
            ServicePeriod(purchased: 1_000, expires: 2_000, revoked: 500).stateCode(at: 999) == .subscriptionExpired)
        #expect(ServicePeriod(purchased: 1_000, expires: nil).stateCode(at: 999) == .subscriptionExpired)
    }

    /// verify's facts at a time read a transaction as `rcpt status` does (a red team's trial: status and verify
    /// --status-at disagreed on one token): a refund dated after the time was not in force then, and a transaction
    /// that says `isUpgraded` no longer grants service from its signing.
    @Test func aLaterRefundAndAStatedUpgradeReadAsStatusReadsThem() throws {
        func findings(_ json: String, at seconds: Int64) throws -> [Finding] {
            PurchaseFacts.findings(
                try JSONDocument.read(Array(json.utf8)), kind: .transaction, at: seconds, offset: { $0 })
        }
        let refundedLater =
            #"{"productId":"p","type":"Non-Consumable","purchaseDate":1700000000000,"signedDate":1700000000000,"#
            + #""revocationDate":1800000000000,"revocationReason":1}"#
        #expect(try findings(refundedLater, at: 1_750_000_000).allSatisfy { $0.kind != .purchaseCancelled })
        #expect(try findings(refundedLater, at: 1_800_000_000).contains { $0.kind == .purchaseCancelled })
        let subscriptionRefundedLater =
            #"{"productId":"s","type":"Auto-Renewable Subscription","purchaseDate":1700000000000,"#
            + #""expiresDate":1900000000000,"signedDate":1700000000000,"revocationDate":1800000000000}"#
        let active = try findings(subscriptionRefundedLater, at: 1_750_000_000).first
        #expect(active?.kind == .subscriptionActive)
        #expect(active?.message.contains("revoked later") == true)
        let upgraded =
            #"{"productId":"u","type":"Auto-Renewable Subscription","purchaseDate":1700000000000,"#
            + #""expiresDate":1900000000000,"signedDate":1750000000000,"isUpgraded":true}"#
        #expect(try findings(upgraded, at: 1_760_000_000).first?.kind == .subscriptionExpired)
        #expect(try findings(upgraded, at: 1_760_000_000).contains { $0.kind == .purchaseUpgraded })
        // Before the statement of its upgrade was signed, its period decides.
        #expect(try findings(upgraded, at: 1_720_000_000).first?.kind == .subscriptionActive)
    }
}
