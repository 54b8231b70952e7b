import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptPurchases
import ReceiptSigning
import ReceiptStatus
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// What a red team found (session 39): statements of one period were taken for another's. An upgraded yearly came
/// back once the product it was upgraded to expired; a grace period's status 4 held on a later period's grace; renewal
/// info of a later failure, dating no period, put a lapsed period in a 76-day grace, and was then taken for nothing.
@Suite("Status: each statement speaks of its own period")
struct LaterPeriodTests {
    typealias L = Lifecycle
    static let monthly = "com.example.lifecycle.monthly"

    @Test func anUpgradedPeriodNeverComesBackWhenTheNewProductEnds() throws {
        let yearly = "com.example.lifecycle.yearly"
        let premium = "com.example.lifecycle.premium"
        var life = Lifecycle()
        life.add(
            "bought.json",
            try L.notification(
                "SUBSCRIBED", "INITIAL_BUY", signed: L.at(0),
                transaction: try L.transaction(
                    "100", product: yearly, purchased: L.at(0), expires: L.at(365), signed: L.at(0))))
        life.add(
            "upgrade.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_PREF", "UPGRADE", signed: L.at(50),
                transaction: try L.transaction(
                    "101", original: "100", product: premium, purchased: L.at(50), expires: L.at(80),
                    signed: L.at(50))))
        life.add(
            "auto-renew-off.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", signed: L.at(60),
                renewal: try L.renewal(original: "100", product: premium, autoRenew: false, signed: L.at(60))))
        #expect(LifecycleTests.product(life, premium, at: L.at(60))?.state == .active)
        #expect(LifecycleTests.product(life, yearly, at: L.at(60))?.grantsService == false)
        // Premium expired at day 80 with auto-renew off: the yearly, left at day 50, grants nothing either.
        guard case .success(let status) = life.status(at: L.at(100)) else {
            Issue.record("no status")
            return
        }
        #expect(!status.products.contains { $0.grantsService }, "\(status.products.map { ($0.productID, $0.state) })")
        let left = status.products.first { $0.productID == yearly }
        #expect(left?.endedDate == L.at(50))
        // Premium: expired, unless the customer turned auto-renew back on, which nothing signed since says.
        #expect(status.products.first { $0.productID == premium }?.state == .unknown)
    }

    @Test func aGraceStatusHoldsOnlyThroughItsOwnPeriodsGrace() throws {
        var life = Lifecycle()
        life.add(
            "t.jws",
            try L.transaction("100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        life.add(
            "fail.json",
            try L.notification(
                "DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: L.at(30),
                renewal: try L.renewal(
                    original: "100", product: Self.monthly, billingRetry: true, grace: L.at(46), signed: L.at(30)),
                status: 4))
        let withoutLater = LifecycleTests.product(life, Self.monthly, at: L.at(60))
        #expect(withoutLater?.state == .billingRetry)
        // Renewal info of a later period (renewalDate day 190) in its own grace does not stretch this one's.
        life.add(
            "later.jws",
            try L.renewal(
                original: "100", product: Self.monthly, billingRetry: true, grace: L.at(206),
                renewalDate: L.at(190), signed: L.at(200)))
        let withLater = LifecycleTests.product(life, Self.monthly, at: L.at(60))
        #expect(withLater?.grantsService == false, "\(withLater?.state.rawValue ?? "") \(withLater?.reason ?? "")")
        #expect(withLater?.state != .gracePeriod)
    }

    @Test func renewalInfoOfALaterFailureIsThatPeriodsGraceNotThisOnes() throws {
        var life = Lifecycle()
        life.add(
            "t.jws",
            try L.transaction("100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        // Signed at day 100, in billing retry with a grace to day 106, no renewalDate: no grace of a period that
        // ended at day 30 runs to day 106 (Apple's longest is 28 days), nor does retry last 70 days.
        life.add(
            "r.jws",
            try L.renewal(
                original: "100", product: Self.monthly, billingRetry: true, grace: L.at(106), signed: L.at(100)))
        let early = LifecycleTests.product(life, Self.monthly, at: L.at(35))
        #expect(early?.state == .unknown, "\(early?.state.rawValue ?? "") \(early?.reason ?? "")")
        #expect(early?.grantsService == false)
        // After it was signed, within its grace: the customer is in the later period's grace.
        let late = LifecycleTests.product(life, Self.monthly, at: L.at(105))
        #expect(late?.state == .gracePeriod, "\(late?.state.rawValue ?? "") \(late?.reason ?? "")")
        #expect(late?.gracePeriodExpiresDate == L.at(106))
        // Newer renewal info of the later period saying the customer cancelled ends that grace (a reviewer's trial).
        var cancelled = life
        cancelled.add(
            "r2.jws",
            try L.renewal(
                original: "100", product: Self.monthly, autoRenew: false, intent: 1, signed: L.at(102)))
        let afterCancelling = LifecycleTests.product(cancelled, Self.monthly, at: L.at(103))
        #expect(afterCancelling?.grantsService == false, "\(afterCancelling?.reason ?? "")")
        // A grace of this period's own length is this period's.
        var own = Lifecycle()
        own.add(
            "t.jws",
            try L.transaction("100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        own.add(
            "r.jws",
            try L.renewal(
                original: "100", product: Self.monthly, billingRetry: true, grace: L.at(58), signed: L.at(40)))
        #expect(LifecycleTests.product(own, Self.monthly, at: L.at(41))?.state == .gracePeriod)
    }
}

/// What a red team found (session 39): a restore record, its original_transaction_id the refunded purchase's, kept a
/// refunded non-consumable OWNED.
@Suite("Status: a restore is the purchase it restores")
struct RestoredPurchaseTests {
    typealias L = Lifecycle

    @Test func aRefundOfThePurchaseRefundsItsRestores() throws {
        let pro = "com.example.lifecycle.pro"
        func record(_ id: String, cancelled: Int64? = nil) -> [(String, L.Claim)] {
            [
                ("quantity", .number(1)), ("product_id", .text(pro)), ("transaction_id", .text(id)),
                ("original_transaction_id", .text("2000")), ("purchase_date", .number(L.at(4))),
            ] + (cancelled.map { [("cancellation_date", .number($0))] } ?? [])
        }
        var life = Lifecycle()
        life.add("restore.der", bytes: try L.receipt(created: L.at(31), records: [record("2001")]))
        #expect(LifecycleTests.product(life, pro, at: L.at(40))?.state == .owned)
        life.add("refund.der", bytes: try L.receipt(created: L.at(60), records: [record("2000", cancelled: L.at(50))]))
        let refunded = LifecycleTests.product(life, pro, at: L.at(64))
        #expect(refunded?.grantsService == false, "\(refunded?.state.rawValue ?? "")")
        #expect(refunded?.state == .refunded)
        // Before the refund, the purchase and its restore are owned.
        #expect(LifecycleTests.product(life, pro, at: L.at(45))?.state == .owned)
    }
}

/// What a red team found (session 39): `verify` left out a receipt's subscription period refunded after it ended, so a
/// refund after the period made the customer lose service earlier than a refund inside it, and `status` disagreed.
@Suite("Verify: a period refunded after it ended served it whole")
struct RefundAfterThePeriodTests {
    typealias L = Lifecycle

    @Test(arguments: [(Int64(35), true), (Int64(20), true), (Int64(10), false)])
    func theStateAtDay15(refundedOn day: Int64, active: Bool) throws {
        let monthly = "com.example.lifecycle.monthly"
        let bytes = try L.receipt(
            created: L.at(40),
            records: [
                [
                    ("quantity", .number(1)), ("product_id", .text(monthly)), ("transaction_id", .text("700")),
                    ("original_transaction_id", .text("700")), ("purchase_date", .number(L.at(0))),
                    ("expires_date", .number(L.at(30))), ("cancellation_date", .number(L.at(day))),
                ]
            ])
        var options = InspectionOptions(anchors: TrustAnchors([TestReceipts.authority?.root].compactMap { $0 }))
        options.statusTime = EvaluationTime.instant(milliseconds: L.at(15))
        let inspection = Inspector.inspect(InputClassifier.classify(bytes), input: bytes, options: options)
        let state = inspection.findings.first { $0.kind == .subscriptionActive || $0.kind == .subscriptionExpired }
        #expect((state?.kind == .subscriptionActive) == active, "refunded day \(day): \(state?.message ?? "none")")
        let status = LifecycleTests.product(
            {
                var life = Lifecycle()
                life.add("r.der", bytes: bytes)
                return life
            }(), monthly, at: L.at(15))
        #expect(status?.grantsService == active, "status, refunded day \(day)")
    }
}
