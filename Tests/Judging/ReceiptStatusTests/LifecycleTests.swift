import Foundation
import ReceiptPurchases
import ReceiptRendering
import ReceiptStatus
import Testing

/// `rcpt status` at every step of built lifecycles gives the state Apple's documentation gives (App Store Server
/// API, "Get All Subscription Statuses" status 1–5; notificationType and subtype; the transaction and renewal info
/// claims), with the evidence it rests on.
@Suite("Status: built lifecycles, at every step")
struct LifecycleTests {
    typealias L = Lifecycle
    static let monthly = "com.example.lifecycle.monthly"

    /// The status of `product` at `time`, or a test failure.
    static func product(
        _ life: Lifecycle, _ product: String, at time: Int64,
        includeUnverified: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) -> ProductStatus? {
        switch life.status(at: time, includeUnverified: includeUnverified) {
        case .failure(let mixed):
            Issue.record("mixed apps: \(mixed.documents.map(\.name))", sourceLocation: sourceLocation)
            return nil
        case .success(let status):
            let found = status.products.first { $0.productID == product }
            if found == nil {
                Issue.record(
                    "no \(product) in \(status.products.map(\.productID)); documents \(status.documents.map { "\($0.name): \($0.use)" })",
                    sourceLocation: sourceLocation)
            }
            return found
        }
    }

    @Test func subscribeRenewAutoRenewOffExpireResubscribeRefund() throws {
        var life = Lifecycle()
        // Day 0: SUBSCRIBED/INITIAL_BUY.
        life.add(
            "subscribed.json",
            try L.notification(
                "SUBSCRIBED", "INITIAL_BUY", signed: L.at(0, hours: 1),
                transaction: try L.transaction(
                    "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0, hours: 1)),
                renewal: try L.renewal(original: "100", product: Self.monthly, signed: L.at(0, hours: 1)), status: 1))
        var state = Self.product(life, Self.monthly, at: L.at(1))
        #expect(state?.state == .active)
        #expect(state?.expiresDate == L.at(30))
        #expect(state?.autoRenew == true)
        #expect(state?.transactionID == "100")
        #expect(state?.evidence.first?.document == "subscribed.json")
        #expect(state?.evidence.first?.path == "signedPayload → data.signedTransactionInfo")
        #expect(state?.evidence.first?.notification == "SUBSCRIBED/INITIAL_BUY")
        #expect(state?.evidence.first?.trust == .verified)
        // Before the purchase, nothing was owned.
        if case .success(let before) = life.status(at: L.at(-1)) { #expect(before.products.isEmpty) }

        // Day 30: DID_RENEW.
        life.add(
            "renewed.json",
            try L.notification(
                "DID_RENEW", signed: L.at(30, hours: 1),
                transaction: try L.transaction(
                    "101", original: "100", product: Self.monthly, purchased: L.at(30), expires: L.at(60),
                    signed: L.at(30, hours: 1)),
                renewal: try L.renewal(original: "100", product: Self.monthly, signed: L.at(30, hours: 1))))
        state = Self.product(life, Self.monthly, at: L.at(31))
        #expect(state?.state == .active)
        #expect(state?.transactionID == "101")
        #expect(state?.originalTransactionID == "100")
        #expect(state?.expiresDate == L.at(60))

        // Day 40: DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED — still active until day 60, not renewing.
        life.add(
            "auto-renew-off.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", signed: L.at(40),
                renewal: try L.renewal(original: "100", product: Self.monthly, autoRenew: false, signed: L.at(40))))
        state = Self.product(life, Self.monthly, at: L.at(41))
        #expect(state?.state == .active)
        #expect(state?.autoRenew == false)
        #expect(state?.evidence.last?.document == "auto-renew-off.json")

        // Day 60: EXPIRED/VOLUNTARY, expirationIntent 1.
        life.add(
            "expired.json",
            try L.notification(
                "EXPIRED", "VOLUNTARY", signed: L.at(60, hours: 1),
                renewal: try L.renewal(
                    original: "100", product: Self.monthly, autoRenew: false, intent: 1, signed: L.at(60, hours: 1))))
        state = Self.product(life, Self.monthly, at: L.at(61))
        #expect(state?.state == .expired)
        #expect(state?.reason == "CUSTOMER_CANCELLED")
        #expect(state?.evidence.map(\.document) == ["renewed.json", "expired.json"])
        // Asked about day 41 with every document so far, the answer is still the day-41 one.
        #expect(Self.product(life, Self.monthly, at: L.at(41))?.state == .active)

        // Day 70: SUBSCRIBED/RESUBSCRIBE.
        life.add(
            "resubscribed.json",
            try L.notification(
                "SUBSCRIBED", "RESUBSCRIBE", signed: L.at(70, hours: 1),
                transaction: try L.transaction(
                    "102", original: "100", product: Self.monthly, purchased: L.at(70), expires: L.at(100),
                    signed: L.at(70, hours: 1)),
                renewal: try L.renewal(original: "100", product: Self.monthly, signed: L.at(70, hours: 1))))
        state = Self.product(life, Self.monthly, at: L.at(71))
        #expect(state?.state == .active)
        #expect(state?.transactionID == "102")
        #expect(state?.autoRenew == true)

        // Day 75: REFUND of the resubscription (revocationReason 1).
        life.add(
            "refund.json",
            try L.notification(
                "REFUND", signed: L.at(75, hours: 1),
                transaction: try L.transaction(
                    "102", original: "100", product: Self.monthly, purchased: L.at(70), expires: L.at(100),
                    revoked: L.at(75), reason: 1, signed: L.at(75, hours: 1))))
        state = Self.product(life, Self.monthly, at: L.at(76))
        #expect(state?.state == .revoked)
        #expect(state?.revocationDate == L.at(75))
        #expect(state?.reason == "REFUNDED_DUE_TO_ISSUE")
        #expect(state?.evidence.first?.document == "refund.json")
        // The refund is not yet in force on day 72.
        #expect(Self.product(life, Self.monthly, at: L.at(72))?.state == .active)
        // Two statements about transaction 102: the refund (newer) decides, the resubscription's is the conflict.
        if case .success(let status) = life.status(at: L.at(76)) {
            #expect(status.conflicts.count == 1)
            #expect(status.conflicts.first?.transactionID == "102")
            #expect(status.conflicts.first?.claim == "revocation")
            #expect(status.conflicts.first?.used.evidence.document == "refund.json")
            #expect(status.conflicts.first?.overruled.evidence.document == "resubscribed.json")
            #expect(status.conflicts.first?.overruled.value == nil)
        }
    }

    @Test func billingRetryGracePeriodRecoveryAndBillingExpiry() throws {
        var life = Lifecycle()
        life.add(
            "subscribed.json",
            try L.notification(
                "SUBSCRIBED", "INITIAL_BUY", signed: L.at(0),
                transaction: try L.transaction(
                    "200", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)),
                renewal: try L.renewal(original: "200", product: Self.monthly, signed: L.at(0))))
        // Day 30: DID_FAIL_TO_RENEW/GRACE_PERIOD: billing retry with a grace period to day 36 (status 4).
        life.add(
            "failed-grace.json",
            try L.notification(
                "DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: L.at(30, hours: 1),
                renewal: try L.renewal(
                    original: "200", product: Self.monthly, intent: 2, billingRetry: true, grace: L.at(36),
                    signed: L.at(30, hours: 1)), status: 4))
        var state = Self.product(life, Self.monthly, at: L.at(31))
        #expect(state?.state == .gracePeriod)
        #expect(state?.gracePeriodExpiresDate == L.at(36))
        #expect(state?.state.grantsService == true)
        #expect(state?.evidence.last?.document == "failed-grace.json")
        // Day 37: the grace period is over, billing retry goes on (status 3).
        life.add(
            "grace-expired.json",
            try L.notification(
                "GRACE_PERIOD_EXPIRED", signed: L.at(36, hours: 1),
                renewal: try L.renewal(
                    original: "200", product: Self.monthly, intent: 2, billingRetry: true, grace: L.at(36),
                    signed: L.at(36, hours: 1)), status: 3))
        state = Self.product(life, Self.monthly, at: L.at(37))
        #expect(state?.state == .billingRetry)
        #expect(state?.state.grantsService == false)
        // Day 40: DID_RENEW/BILLING_RECOVERY.
        life.add(
            "recovered.json",
            try L.notification(
                "DID_RENEW", "BILLING_RECOVERY", signed: L.at(40, hours: 1),
                transaction: try L.transaction(
                    "201", original: "200", product: Self.monthly, purchased: L.at(40), expires: L.at(70),
                    signed: L.at(40, hours: 1)),
                renewal: try L.renewal(original: "200", product: Self.monthly, signed: L.at(40, hours: 1))))
        state = Self.product(life, Self.monthly, at: L.at(41))
        #expect(state?.state == .active)
        #expect(state?.transactionID == "201")
        // Day 70: DID_FAIL_TO_RENEW without a grace period: billing retry at once.
        life.add(
            "failed.json",
            try L.notification(
                "DID_FAIL_TO_RENEW", signed: L.at(70, hours: 1),
                renewal: try L.renewal(
                    original: "200", product: Self.monthly, intent: 2, billingRetry: true, signed: L.at(70, hours: 1))))
        #expect(Self.product(life, Self.monthly, at: L.at(71))?.state == .billingRetry)
        // A renewal info from before the recovery says nothing of the later failure: on day 69 it is active.
        #expect(Self.product(life, Self.monthly, at: L.at(69))?.state == .active)
        // Day 130: EXPIRED/BILLING_RETRY, expirationIntent 2.
        life.add(
            "expired.json",
            try L.notification(
                "EXPIRED", "BILLING_RETRY", signed: L.at(130),
                renewal: try L.renewal(original: "200", product: Self.monthly, intent: 2, signed: L.at(130))))
        state = Self.product(life, Self.monthly, at: L.at(131))
        #expect(state?.state == .expired)
        #expect(state?.reason == "BILLING_ERROR")
    }

    @Test func upgradeThenDowngradeAtTheNextRenewal() throws {
        let basic = "com.example.lifecycle.basic"
        let premium = "com.example.lifecycle.premium"
        var life = Lifecycle()
        life.add(
            "subscribed.json",
            try L.notification(
                "SUBSCRIBED", "INITIAL_BUY", signed: L.at(0),
                transaction: try L.transaction(
                    "300", product: basic, purchased: L.at(0), expires: L.at(30), signed: L.at(0)),
                renewal: try L.renewal(original: "300", product: basic, signed: L.at(0))))
        #expect(Self.product(life, basic, at: L.at(1))?.state == .active)
        // Day 10: DID_CHANGE_RENEWAL_PREF/UPGRADE: premium at once; the basic transaction is upgraded (and revoked).
        life.add(
            "upgrade.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_PREF", "UPGRADE", signed: L.at(10),
                transaction: try L.transaction(
                    "301", original: "300", product: premium, purchased: L.at(10), expires: L.at(40), signed: L.at(10)),
                renewal: try L.renewal(original: "300", product: premium, signed: L.at(10))))
        life.add(
            "history.json",
            L.history([
                // Apple marks the upgraded transaction isUpgraded, with no revocationDate: the new purchase dates it.
                try L.transaction(
                    "300", product: basic, purchased: L.at(0), expires: L.at(30), upgraded: true,
                    signed: L.at(10, hours: 2)),
                try L.transaction(
                    "301", original: "300", product: premium, purchased: L.at(10), expires: L.at(40),
                    signed: L.at(10, hours: 2)),
            ]))
        var state = Self.product(life, premium, at: L.at(11))
        #expect(state?.state == .active)
        #expect(state?.subscriptionGroup == "21000001")
        let upgraded = Self.product(life, basic, at: L.at(11))
        #expect(upgraded?.state == .expired)
        #expect(upgraded?.reason == "upgraded to \(premium)")
        #expect(upgraded?.evidence.first?.path == "signedTransactions[0]")
        #expect(upgraded?.endedDate == L.at(10))
        #expect(upgraded?.revocationDate == nil)
        // Asked about day 5 with every document so far: the upgrade had not happened, basic was active.
        #expect(Self.product(life, basic, at: L.at(5))?.state == .active)
        if case .success(let before) = life.status(at: L.at(5)) {
            #expect(!before.products.contains { $0.productID == premium })
        }
        // Day 20: DID_CHANGE_RENEWAL_PREF/DOWNGRADE: premium until day 40, then basic.
        life.add(
            "downgrade.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", signed: L.at(20),
                renewal: try L.renewal(original: "300", product: premium, renewsTo: basic, signed: L.at(20))))
        state = Self.product(life, premium, at: L.at(21))
        #expect(state?.state == .active)
        #expect(state?.renewsTo == basic)
        // Day 40: DID_RENEW to basic.
        life.add(
            "renewed.json",
            try L.notification(
                "DID_RENEW", signed: L.at(40),
                transaction: try L.transaction(
                    "302", original: "300", product: basic, purchased: L.at(40), expires: L.at(70), signed: L.at(40)),
                renewal: try L.renewal(original: "300", product: basic, signed: L.at(40))))
        state = Self.product(life, basic, at: L.at(41))
        #expect(state?.state == .active)
        #expect(state?.transactionID == "302")
        #expect(state?.renewsTo == nil)
        let left = Self.product(life, premium, at: L.at(41))
        #expect(left?.state == .expired)
        #expect(left?.reason == "the subscription changed to \(basic)")
        #expect(left?.endedDate == L.at(40))
    }

    @Test func consumablesNonConsumablesRefundsAndReversals() throws {
        let coins = "com.example.lifecycle.coins"
        let pro = "com.example.lifecycle.pro"
        let pass = "com.example.lifecycle.pass"
        var life = Lifecycle()
        life.add(
            "coins-1.jws",
            try L.transaction("400", product: coins, type: "Consumable", purchased: L.at(1), signed: L.at(1)))
        life.add(
            "coins-5.jws",
            try L.transaction(
                "401", product: coins, type: "Consumable", purchased: L.at(2), quantity: 5, signed: L.at(2)))
        life.add(
            "pro.jws",
            try L.transaction("402", product: pro, type: "Non-Consumable", purchased: L.at(3), signed: L.at(3)))
        life.add(
            "pass.jws",
            try L.transaction(
                "403", product: pass, type: "Non-Renewing Subscription", purchased: L.at(4), signed: L.at(4)))
        var state = Self.product(life, coins, at: L.at(5))
        #expect(state?.state == .consumed)
        #expect(state?.quantity == 6)
        #expect(state?.evidence.count == 2)
        #expect(Self.product(life, pro, at: L.at(5))?.state == .owned)
        #expect(Self.product(life, pass, at: L.at(5))?.state == .owned)
        #expect(Self.product(life, pass, at: L.at(5))?.kind == .nonRenewingSubscription)
        // REFUND of the five coins, then of the one.
        life.add(
            "refund-coins-5.json",
            try L.notification(
                "REFUND", signed: L.at(6),
                transaction: try L.transaction(
                    "401", product: coins, type: "Consumable", purchased: L.at(2), revoked: L.at(6), reason: 0,
                    quantity: 5, signed: L.at(6))))
        state = Self.product(life, coins, at: L.at(7))
        #expect(state?.state == .consumed)
        #expect(state?.quantity == 1)
        // The refund is said with the count (it showed only among the conflicts: "was this refunded?" went unanswered).
        #expect(state?.reason?.hasSuffix("; ×5 more refunded or revoked (\(MillisecondUTC.text(L.at(6))))") == true)
        life.add(
            "refund-coins-1.json",
            try L.notification(
                "REFUND", signed: L.at(8),
                transaction: try L.transaction(
                    "400", product: coins, type: "Consumable", purchased: L.at(1), revoked: L.at(8), reason: 0,
                    signed: L.at(8))))
        state = Self.product(life, coins, at: L.at(9))
        #expect(state?.state == .refunded)
        #expect(state?.reason == "REFUNDED_FOR_OTHER_REASON")
        // REFUND of pro, then REFUND_REVERSED: the newer statement (no revocation) decides, the conflict is kept.
        life.add(
            "refund-pro.json",
            try L.notification(
                "REFUND", signed: L.at(10),
                transaction: try L.transaction(
                    "402", product: pro, type: "Non-Consumable", purchased: L.at(3), revoked: L.at(10), reason: 1,
                    signed: L.at(10))))
        state = Self.product(life, pro, at: L.at(11))
        #expect(state?.state == .refunded)
        #expect(state?.revocationDate == L.at(10))
        #expect(state?.reason == "REFUNDED_DUE_TO_ISSUE")
        life.add(
            "refund-reversed.json",
            try L.notification(
                "REFUND_REVERSED", signed: L.at(12),
                transaction: try L.transaction(
                    "402", product: pro, type: "Non-Consumable", purchased: L.at(3), signed: L.at(12))))
        state = Self.product(life, pro, at: L.at(13))
        #expect(state?.state == .owned)
        #expect(state?.evidence.first?.document == "refund-reversed.json")
        // Asked about day 11 with every document: the reversal was not yet signed, the refund was in force.
        #expect(Self.product(life, pro, at: L.at(11))?.state == .refunded)
        if case .success(let status) = life.status(at: L.at(13)) {
            let conflict = status.conflicts.first { $0.transactionID == "402" }
            #expect(conflict?.used.value == nil)
            #expect(conflict?.overruled.evidence.document == "refund-pro.json")
        }
    }

    @Test func familySharingAndItsRevocation() throws {
        let lifetime = "com.example.lifecycle.lifetime"
        let album = "com.example.lifecycle.album"
        var life = Lifecycle()
        life.add(
            "shared.jws",
            try L.transaction(
                "500", product: lifetime, type: "Non-Consumable", purchased: L.at(1), familyShared: true,
                signed: L.at(1)))
        life.add(
            "shared-monthly.jws",
            try L.transaction(
                "501", product: Self.monthly, purchased: L.at(1), expires: L.at(31), familyShared: true, signed: L.at(1)
            ))
        life.add(
            "shared-album.jws",
            try L.transaction(
                "502", product: album, type: "Non-Consumable", purchased: L.at(1), familyShared: true, signed: L.at(1)))
        #expect(Self.product(life, lifetime, at: L.at(2))?.state == .owned)
        #expect(Self.product(life, Self.monthly, at: L.at(2))?.state == .active)
        // REVOKE: the family member stopped sharing (revocationType FAMILY_REVOKE; without it, reason 0).
        life.add(
            "revoke.json",
            try L.notification(
                "REVOKE", signed: L.at(5),
                transaction: try L.transaction(
                    "500", product: lifetime, type: "Non-Consumable", purchased: L.at(1), revoked: L.at(5),
                    revocationType: "FAMILY_REVOKE", familyShared: true, signed: L.at(5))))
        life.add(
            "revoke-monthly.json",
            try L.notification(
                "REVOKE", signed: L.at(5),
                transaction: try L.transaction(
                    "501", product: Self.monthly, purchased: L.at(1), expires: L.at(31), revoked: L.at(5),
                    reason: 0, familyShared: true, signed: L.at(5)),
                status: 5))
        // The purchaser was refunded for an issue: the shared transaction carries the purchaser's reason.
        life.add(
            "refund-album.json",
            try L.notification(
                "REFUND", signed: L.at(5),
                transaction: try L.transaction(
                    "502", product: album, type: "Non-Consumable", purchased: L.at(1), revoked: L.at(5),
                    reason: 1, familyShared: true, signed: L.at(5))))
        var state = Self.product(life, lifetime, at: L.at(6))
        #expect(state?.state == .revoked)
        #expect(state?.reason == "no longer shared by the family (FAMILY_REVOKE)")
        state = Self.product(life, Self.monthly, at: L.at(6))
        #expect(state?.state == .revoked)
        #expect(
            state?.reason
                == "no longer shared by the family, or the family's purchaser was refunded (REFUNDED_FOR_OTHER_REASON)")
        state = Self.product(life, album, at: L.at(6))
        #expect(state?.state == .refunded)
        #expect(state?.reason == "REFUNDED_DUE_TO_ISSUE")
    }

    @Test func anUpgradeSeenOnlyFromOneSide() throws {
        let basic = "com.example.lifecycle.basic"
        let premium = "com.example.lifecycle.premium"
        // Only the UPGRADE notification and the earlier renewal: no statement says basic was upgraded, yet one
        // subscription has one state, from its latest transaction: basic ended when premium was bought.
        var life = Lifecycle()
        life.add(
            "renewed.json",
            try L.notification(
                "DID_RENEW", signed: L.at(0),
                transaction: try L.transaction(
                    "900", product: basic, purchased: L.at(0), expires: L.at(30), signed: L.at(0))))
        life.add(
            "upgrade.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_PREF", "UPGRADE", signed: L.at(10),
                transaction: try L.transaction(
                    "901", original: "900", product: premium, purchased: L.at(10), expires: L.at(40), signed: L.at(10)))
        )
        let left = Self.product(life, basic, at: L.at(11))
        #expect(left?.state == .expired)
        #expect(left?.endedDate == L.at(10))
        #expect(Self.product(life, premium, at: L.at(11))?.state == .active)
        // Only the history's upgraded transaction, the new one missing: this product no longer grants service (as
        // verify's purchase-upgraded says), and the one it moved to is not known. It was granted ("the customer keeps
        // service through it"): a customer who had the new product refunded showed the old one alone (a red team's
        // trial, session 29).
        var partial = Lifecycle()
        partial.add(
            "history.json",
            L.history([
                try L.transaction(
                    "910", product: basic, purchased: L.at(0), expires: L.at(30), upgraded: true, signed: L.at(12))
            ]))
        let upgraded = Self.product(partial, basic, at: L.at(12))
        #expect(upgraded?.state == .expired)
        #expect(upgraded?.grantsService == false)
        // Ended by the statement's signing (status said "EXPIRED since" its expiry, a date after the time asked).
        #expect(upgraded?.endedDate == L.at(12))
        #expect(upgraded?.reason?.hasPrefix("upgraded to another product of its group") == true)
        // Before the statement was signed, the upgrade may not have happened: the period's own dates decide.
        #expect(Self.product(partial, basic, at: L.at(11))?.state == .active)
        // Unless the statement dates the upgrade (a revocationDate with no reason): it had happened by then, and
        // the product ended at that date (a trial: "ACTIVE … upgraded after this time", granted, at day 11 of a
        // history that dates the upgrade day 10; later "EXPIRED since" the signing, day 12).
        var dated = Lifecycle()
        dated.add(
            "history.json",
            L.history([
                try L.transaction(
                    "930", product: basic, purchased: L.at(0), expires: L.at(30), revoked: L.at(10), upgraded: true,
                    signed: L.at(12))
            ]))
        let datedUpgrade = Self.product(dated, basic, at: L.at(11))
        #expect(datedUpgrade?.state == .expired)
        #expect(datedUpgrade?.grantsService == false)
        #expect(datedUpgrade?.endedDate == L.at(10))
        #expect(datedUpgrade?.revocationDate == nil)
        #expect(Self.product(dated, basic, at: L.at(20))?.endedDate == L.at(10))
        let beforeDated = Self.product(dated, basic, at: L.at(9))
        #expect(beforeDated?.state == .active)
        #expect(beforeDated?.endedDate == L.at(10))
        // The history with both, asked about a time before the upgrade it dates: active until the upgrade, not until
        // its own expiry (status said "ACTIVE until" day 30 beside a history showing it ended at day 10).
        var history = Lifecycle()
        history.add(
            "history.json",
            L.history([
                try L.transaction(
                    "920", product: basic, purchased: L.at(0), expires: L.at(30), upgraded: true, signed: L.at(12)),
                try L.transaction(
                    "921", original: "920", product: premium, purchased: L.at(10), expires: L.at(40),
                    signed: L.at(12)),
            ]))
        let before = Self.product(history, basic, at: L.at(5))
        #expect(before?.state == .active)
        #expect(before?.endedDate == L.at(10))
        #expect(before?.reason == "upgraded to \(premium) at \(MillisecondUTC.text(L.at(10)))")
        #expect(
            StatusReport.stateLine(try #require(before), style: TextStyle(useColor: false)).contains(
                "until 2024-01-11T00:00:00"))
    }

    /// A transaction whose `type` is none Apple documents, with no expiry, grants nothing: it was "OWNED" for ever
    /// (a red team's trial: a subscription's transaction with its type dropped or lower-cased).
    @Test(arguments: ["auto-renewable subscription", "Foo", ""])
    func aTransactionOfNoKindAppleNamesGrantsNothing(type: String) throws {
        var life = Lifecycle()
        life.add(
            "txn.jws", try L.transaction("997", product: Self.monthly, type: type, purchased: L.at(0), signed: L.at(0)))
        let state = Self.product(life, Self.monthly, at: L.at(400))
        #expect(state?.state == .unknown)
        #expect(state?.grantsService == false)
        #expect(state?.kind == .unstated)
        // With an expiry it is a subscription's, as before.
        var expiring = Lifecycle()
        expiring.add(
            "txn.jws",
            try L.transaction(
                "998", product: Self.monthly, type: type, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        #expect(Self.product(expiring, Self.monthly, at: L.at(400))?.state == .unknown)
        #expect(Self.product(expiring, Self.monthly, at: L.at(400))?.grantsService == false)
    }

    /// A history page that says more follow (`hasMore`) is listed as a page: what it lacks may change the answer (it
    /// gave a firm "EXPIRED" without a word: a red team's trial).
    @Test func aHistoryPageWithMoreAfterItIsSaidToBeOne() throws {
        let page = L.history([
            try L.transaction("999", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(40))
        ])
        for (text, more) in [
            (page, false), (page.replacingOccurrences(of: #""hasMore":false"#, with: #""hasMore":true"#), true),
        ] {
            var life = Lifecycle()
            life.add("page.json", text)
            guard case .success(let status) = life.status(at: L.at(45)) else {
                Issue.record("mixed apps")
                return
            }
            #expect(status.documents.first?.description.contains("hasMore") == more, "\(status.documents)")
        }
    }

    /// The newest purchase of a subscription has ended while one bought before it, neither refunded nor upgraded,
    /// still runs (not a shape Apple signs, but signed all the same): the customer paid for that period and is
    /// entitled (status said "EXPIRED", exit 0: a red team's trial).
    @Test func anEarlierPeriodStillRunningDecides() throws {
        var life = Lifecycle()
        life.add(
            "history.json",
            L.history([
                try L.transaction(
                    "995", product: Self.monthly, purchased: L.at(0), expires: L.at(60), signed: L.at(20)),
                try L.transaction(
                    "996", original: "995", product: Self.monthly, purchased: L.at(10), expires: L.at(15),
                    signed: L.at(20)),
            ]))
        let state = Self.product(life, Self.monthly, at: L.at(20))
        #expect(state?.state == .active)
        #expect(state?.transactionID == "995")
        #expect(Self.product(life, Self.monthly, at: L.at(61))?.state == .expired)
    }

    /// Asked about a time before a refund the documents date: active until the refund, not until the expiry (and
    /// the refund was listed as an "overruled" conflict: it is not, it came later) (a support engineer's trial).
    @Test func activeUntilALaterRefund() throws {
        var life = Lifecycle()
        life.add("subscribed.json", try L.subscribed("990", product: Self.monthly))
        life.add(
            "refund.json",
            try L.notification(
                "REFUND", signed: L.at(15),
                transaction: try L.transaction(
                    "990", product: Self.monthly, purchased: L.at(0), expires: L.at(30), revoked: L.at(15), reason: 0,
                    signed: L.at(15))))
        let before = Self.product(life, Self.monthly, at: L.at(10))
        #expect(before?.state == .active)
        #expect(before?.endedDate == L.at(15))
        #expect(before?.revocationDate == nil)
        #expect(
            before?.reason?.hasSuffix("at \(MillisecondUTC.text(L.at(15))), stated later") == true,
            "\(String(describing: before?.reason))")
        if case .success(let status) = life.status(at: L.at(10)) {
            #expect(!status.conflicts.contains { $0.claim == "revocation" }, "\(status.conflicts)")
        }
        #expect(Self.product(life, Self.monthly, at: L.at(16))?.state == .revoked)
        // Reversed later (REFUND_REVERSED, no revocation): the refund ends nothing; at day 10 it runs to its expiry.
        life.add(
            "reversed.json",
            try L.notification(
                "REFUND_REVERSED", signed: L.at(20),
                transaction: try L.transaction(
                    "990", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(20))))
        let reversed = Self.product(life, Self.monthly, at: L.at(10))
        #expect(reversed?.state == .active && reversed?.endedDate == nil, "\(String(describing: reversed))")
    }

    /// Expired after a billing grace period: service ended when the grace period did, not at the expiry (status said
    /// "EXPIRED since" the expiry while the same documents placed the days after it in the grace period).
    @Test func expiredAfterAGracePeriodEndedWithIt() throws {
        var life = Lifecycle()
        life.add(
            "failed-grace.json",
            try L.notification(
                "DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: L.at(30, hours: 1),
                transaction: try L.transaction(
                    "980", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(30, hours: 1)),
                renewal: try L.renewal(
                    original: "980", product: Self.monthly, intent: 2, billingRetry: true, grace: L.at(36),
                    signed: L.at(30, hours: 1))))
        #expect(Self.product(life, Self.monthly, at: L.at(33))?.state == .gracePeriod)
        life.add(
            "expired.json",
            try L.notification(
                "EXPIRED", "BILLING_RETRY", signed: L.at(90),
                renewal: try L.renewal(
                    original: "980", product: Self.monthly, intent: 2, grace: L.at(36), signed: L.at(90))))
        let expired = Self.product(life, Self.monthly, at: L.at(95))
        #expect(expired?.state == .expired)
        #expect(expired?.endedDate == L.at(36))
    }

    /// Auto-renew turned off after a renewal whose transaction is not among the documents: the renewal info's
    /// renewalDate (when the most recent purchase expires) dates the period. Status said "EXPIRED since" the known
    /// transaction's expiry, a false "not entitled" (a support engineer's trial).
    @Test func aRenewalKnownOnlyFromItsRenewalInfo() throws {
        let monthly = "com.example.lifecycle.monthly"
        var life = Lifecycle()
        life.add("subscribed.json", try L.subscribed("970", product: monthly))
        life.add(
            "disabled.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", signed: L.at(35),
                renewal: try L.renewal(
                    original: "970", product: monthly, autoRenew: false, renewalDate: L.at(60), signed: L.at(35))))
        let renewed = Self.product(life, monthly, at: L.at(40))
        #expect(renewed?.state == .active)
        #expect(renewed?.endedDate == L.at(60))
        #expect(renewed?.autoRenew == false)
        #expect(renewed?.reason?.hasPrefix("renewed: renewal info signed") == true)
        // Before the renewal info was signed the subscription may have lapsed: not said to be active, nor expired.
        #expect(Self.product(life, monthly, at: L.at(32))?.state == .unknown)
        // After its renewalDate, expired.
        #expect(Self.product(life, monthly, at: L.at(61))?.state == .expired)
        // Renewal info that speaks of a failure (billing retry), or of another product, dates no renewal of this one:
        // a billing-retry renewal info with a later renewalDate made a failed subscription "renewed" (a red team).
        for (retry, product) in [(true, monthly), (false, "com.example.lifecycle.yearly")] {
            var failed = Lifecycle()
            failed.add("subscribed.json", bytes: life.documents[0].bytes)
            failed.add(
                "renewal.json",
                try L.notification(
                    "DID_FAIL_TO_RENEW", signed: L.at(35),
                    renewal: try L.renewal(
                        original: "970", product: product, billingRetry: retry, renewalDate: L.at(60),
                        signed: L.at(35))))
            let state = Self.product(failed, monthly, at: L.at(40))
            #expect(state?.state.grantsService == false, "\(retry) \(product): \(String(describing: state))")
        }
    }

    @Test func renewsToOnlyForASubscriptionThatRenews() throws {
        let basic = "com.example.lifecycle.basic"
        let premium = "com.example.lifecycle.premium"
        var life = Lifecycle()
        life.add(
            "subscribed.json",
            try L.notification(
                "SUBSCRIBED", "INITIAL_BUY", signed: L.at(0),
                transaction: try L.transaction(
                    "950", product: premium, purchased: L.at(0), expires: L.at(30), signed: L.at(0))))
        // A downgrade chosen, then auto-renew turned off: nothing renews, to basic or otherwise.
        life.add(
            "off.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", signed: L.at(5),
                renewal: try L.renewal(
                    original: "950", product: premium, renewsTo: basic, autoRenew: false, signed: L.at(5))))
        let state = Self.product(life, premium, at: L.at(6))
        #expect(state?.state == .active)
        #expect(state?.autoRenew == false)
        #expect(state?.renewsTo == nil)
    }

    /// A REFUND of one earlier period, in a notification whose signed `data.status` is 1: Apple signed that the
    /// subscription is active (a later period's transaction is not among the documents), so the product is active
    /// when Apple signed it, not revoked; after that, the period it spoke of has no date among the documents, so
    /// the state is unknown (never active for ever). The same notification without a status leaves the refund
    /// deciding.
    @Test func applesSignedStatusInANotificationIsTheSubscriptionsState() throws {
        func refund(status: Int64?) throws -> Lifecycle {
            var life = Lifecycle()
            life.add(
                "refund.json",
                try L.notification(
                    "REFUND", signed: L.at(40),
                    transaction: try L.transaction(
                        "900", product: Self.monthly, purchased: L.at(0), expires: L.at(30), revoked: L.at(40),
                        reason: 1, signed: L.at(40)),
                    renewal: try L.renewal(
                        original: "900", product: Self.monthly, renewsTo: "com.example.lifecycle.quarterly",
                        signed: L.at(40)),
                    status: status))
            return life
        }
        let active = Self.product(try refund(status: 1), Self.monthly, at: L.at(40))
        #expect(active?.state == .active)
        #expect(active?.reason?.hasPrefix("Apple signed status 1 (active) at ") == true, "\(active?.reason ?? "")")
        #expect(active?.evidence.first?.kind == "notification-status")
        #expect(active?.evidence.first?.notification == "REFUND")
        #expect(active?.renewsTo == "com.example.lifecycle.quarterly")
        #expect(active?.revocationDate == nil)
        let later = Self.product(try refund(status: 1), Self.monthly, at: L.at(41))
        #expect(later?.state == .unknown)
        #expect(later?.state.grantsService == false)
        #expect(later?.reason?.contains("whether service continues after") == true, "\(later?.reason ?? "")")
        #expect(Self.product(try refund(status: 1), Self.monthly, at: L.at(4000))?.state == .unknown)
        #expect(Self.product(try refund(status: nil), Self.monthly, at: L.at(41))?.state == .revoked)
        #expect(Self.product(try refund(status: 5), Self.monthly, at: L.at(41))?.state == .revoked)
        // Asked about a time before Apple signed it, the status is not yet known.
        #expect(Self.product(try refund(status: 1), Self.monthly, at: L.at(39))?.state != .active)
        // Apple's word that an unexpired subscription has expired: it ended by the word's signing, not "since" its
        // expiresDate, a date after the time asked (a red team's trial).
        var expired = Lifecycle()
        expired.add(
            "expired.json",
            try L.notification(
                "EXPIRED", "VOLUNTARY", signed: L.at(10),
                transaction: try L.transaction(
                    "901", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(10)),
                status: 2))
        let ended = Self.product(expired, Self.monthly, at: L.at(12))
        #expect(ended?.state == .expired)
        #expect(ended?.endedDate == L.at(10))
    }

    /// Renewal info signed after --at that places --at in the billing grace period: the customer was entitled to
    /// service then (the default question), though a server could not have known it then (--known-at).
    @Test func laterRenewalInfoPlacesTheTimeInTheGracePeriodUnlessAskedWhatWasKnown() throws {
        var life = Lifecycle()
        life.add(
            "transaction.jws",
            try L.transaction("1000", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        life.add(
            "renewal.jws",
            try L.renewal(
                original: "1000", product: Self.monthly, billingRetry: true, grace: L.at(36), signed: L.at(33)))
        let entitled = Self.product(life, Self.monthly, at: L.at(32))
        #expect(entitled?.state == .gracePeriod)
        #expect(entitled?.gracePeriodExpiresDate == L.at(36))
        #expect(entitled?.reason?.contains("renewal info signed later") == true, "\(entitled?.reason ?? "")")
        guard case .success(let known) = life.status(at: L.at(32), question: .knownThen) else {
            Issue.record("no status")
            return
        }
        #expect(known.question == .knownThen)
        // Then, nothing signed after the expiry was known: whether it renewed was not.
        #expect(known.products.first { $0.productID == Self.monthly }?.state == .unknown)
        // Past the grace period, the later renewal info grants nothing.
        #expect(Self.product(life, Self.monthly, at: L.at(37))?.state != .gracePeriod)
    }

    /// Renewal info alone states the subscription's state: expired with Apple's reason, in billing retry or its
    /// grace period; a renewal info that states none of these gives no product.
    @Test func renewalInfoAloneStatesTheSubscriptionsState() throws {
        func alone(_ renewal: String, at: Int64) -> ProductStatus? {
            var life = Lifecycle()
            life.add("renewal.jws", renewal)
            return Self.product(life, Self.monthly, at: at)
        }
        let cancelled = alone(
            try L.renewal(original: "800", product: Self.monthly, autoRenew: false, intent: 1, signed: L.at(31)),
            at: L.at(32))
        #expect(cancelled?.state == .expired)
        #expect(cancelled?.reason?.hasPrefix("CUSTOMER_CANCELLED") == true, "\(cancelled?.reason ?? "")")
        #expect(cancelled?.autoRenew == false)
        #expect(cancelled?.evidence.first?.kind == "renewal-info")
        let grace = alone(
            try L.renewal(
                original: "801", product: Self.monthly, billingRetry: true, grace: L.at(36), signed: L.at(30)),
            at: L.at(31))
        #expect(grace?.state == .gracePeriod)
        #expect(grace?.gracePeriodExpiresDate == L.at(36))
        // Shown, never granted: renewal info names no app, so another app's with the same product id reads the same
        // (a red team's trial, session 27). The same renewal info in a notification, which names the app, grants.
        #expect(grace?.grantsService == false)
        // The line says what to give to have it granted (it said only that it was not).
        #expect(
            StatusReport.stateLine(try #require(grace), style: TextStyle(useColor: false)).contains(
                "give a transaction or notification of this subscription"))
        var carried = Lifecycle()
        carried.add(
            "fail.json",
            try L.notification(
                "DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: L.at(30),
                renewal: try L.renewal(
                    original: "801", product: Self.monthly, billingRetry: true, grace: L.at(36), signed: L.at(30))))
        let notified = Self.product(carried, Self.monthly, at: L.at(31))
        #expect(notified?.state == .gracePeriod)
        #expect(notified?.grantsService == true)
        // JSON around it that nobody signed ties it to no app (a red team's trial, session 28: a wrapper granted):
        // a member, an array, an API response's `bundleId`, another product's transaction beside it.
        let graceToken = try L.renewal(
            original: "801", product: Self.monthly, billingRetry: true, grace: L.at(36), signed: L.at(30))
        let other = try L.transaction(
            "900", product: "com.example.other", type: "Non-Consumable", purchased: L.at(1), group: nil,
            signed: L.at(1))
        for wrapper in [
            L.json([("signedRenewalInfo", .token(graceToken))]), "[\"\(graceToken)\"]",
            L.json([("bundleId", .text(L.bundleID)), ("signedRenewalInfo", .token(graceToken))]),
            "[\"\(other)\", \"\(graceToken)\"]",
        ] {
            var wrapped = Lifecycle()
            wrapped.add("wrapped.json", wrapper)
            let product = Self.product(wrapped, Self.monthly, at: L.at(31))
            #expect(product?.state == .gracePeriod, "\(wrapper.prefix(40))")
            #expect(product?.grantsService == false, "\(wrapper.prefix(40))")
        }
        // Beside a transaction of its subscription (an API response's `lastTransactions` entry holds both), the
        // transaction names the app: it grants.
        var paired = Lifecycle()
        paired.add(
            "statuses.json",
            L.json([
                (
                    "signedTransactionInfo",
                    .token(
                        try L.transaction(
                            "801", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
                ), ("signedRenewalInfo", .token(graceToken)),
            ]))
        let pairedProduct = Self.product(paired, Self.monthly, at: L.at(31))
        #expect(pairedProduct?.state == .gracePeriod)
        #expect(pairedProduct?.grantsService == true)
        let retry = alone(
            try L.renewal(
                original: "802", product: Self.monthly, billingRetry: true, grace: L.at(36), signed: L.at(30)),
            at: L.at(37))
        #expect(retry?.state == .billingRetry)
        // Renewal info that dates no period states no state: the product is listed, its state unknown.
        let unknown = alone(try L.renewal(original: "803", product: Self.monthly, signed: L.at(30)), at: L.at(31))
        #expect(unknown?.state == .unknown)
        #expect(unknown?.reason?.contains("no renewalDate") == true)
    }

    /// A renewal-date extension summary (`RENEWAL_EXTENSION/SUMMARY`) is about every subscriber of a product, no one
    /// customer: it is read and verified, says what it is, and states no fact.
    @Test func aSummaryNotificationStatesNoCustomersFact() throws {
        let summary = L.json([
            ("requestIdentifier", .text("7a2f1c8e-extension")), ("environment", .text("Sandbox")),
            ("appAppleId", .number(1_234_567_890)), ("bundleId", .text(L.bundleID)),
            ("productId", .text(Self.monthly)), ("succeededCount", .number(12)), ("failedCount", .number(1)),
        ])
        let payload =
            #"{"notificationType":"RENEWAL_EXTENSION","subtype":"SUMMARY","#
            + #""notificationUUID":"00000000-0000-4000-8000-000000000001","summary":\#(summary),"#
            + #""version":"2.0","signedDate":\#(L.at(40))}"#
        var life = Lifecycle()
        life.add("summary.json", L.json([("signedPayload", .token(try L.sign(payload)))]))
        guard case .success(let status) = life.status(at: L.at(41)) else {
            Issue.record("no status")
            return
        }
        #expect(status.products.isEmpty, "\(status.products.map(\.productID))")
        let document = try #require(Lifecycle.read(life.documents).first)
        #expect(document.isValid && document.isReadable)
        #expect(document.transactions.isEmpty && document.renewals.isEmpty && document.statuses.isEmpty)
        #expect(
            document.description
                == "notification RENEWAL_EXTENSION/SUMMARY (a summary of renewal-date extensions for every subscriber of \(Self.monthly): 12 extended, 1 failed; about no one customer)"
        )
        #expect(document.app.appAppleID == "1234567890")
    }

    /// A product the subscription left names the product it moved to next, not the latest one; one that lapsed
    /// before the next purchase was not changed, it expired.
    @Test func aLeftProductNamesTheNextProductAndALapseIsNoChange() throws {
        let lite = "com.example.lifecycle.lite"
        let optimum = "com.example.lifecycle.optimum"
        let pro = "com.example.lifecycle.pro"
        var life = Lifecycle()
        life.add(
            "history.json",
            L.history([
                try L.transaction("700", product: lite, purchased: L.at(0), expires: L.at(30), signed: L.at(0)),
                try L.transaction(
                    "701", original: "700", product: optimum, purchased: L.at(30, hours: 14), expires: L.at(60),
                    signed: L.at(30, hours: 14)),
                try L.transaction(
                    "702", original: "700", product: pro, purchased: L.at(60), expires: L.at(90), signed: L.at(60)),
            ]))
        let lapsed = Self.product(life, lite, at: L.at(61))
        #expect(lapsed?.state == .expired)
        #expect(lapsed?.reason?.hasPrefix("expired; the subscription resumed with \(optimum) at ") == true)
        #expect(lapsed?.endedDate == L.at(30))
        let changed = Self.product(life, optimum, at: L.at(61))
        #expect(changed?.reason == "the subscription changed to \(pro)")
        #expect(changed?.endedDate == L.at(60))
        #expect(Self.product(life, pro, at: L.at(61))?.state == .active)
    }

    /// A receipt writes dates in whole seconds, a JWS in milliseconds: the same purchase seen in both is no conflict
    /// for the milliseconds the receipt cannot hold, and still one for a second's difference.
    @Test func aReceiptAndItsTokenAgreeAtTheReceiptsPrecision() throws {
        func life(jwsOffset: Int64) throws -> Lifecycle {
            var life = Lifecycle()
            life.add(
                "receipt.der",
                bytes: try L.receipt(
                    created: L.at(5),
                    records: [
                        [
                            ("quantity", .number(1)), ("product_id", .text(Self.monthly)),
                            ("transaction_id", .text("600")), ("original_transaction_id", .text("600")),
                            ("purchase_date", .number(L.at(0))), ("expires_date", .number(L.at(30))),
                        ]
                    ]))
            life.add(
                "transaction.jws",
                try L.transaction(
                    "600", product: Self.monthly, purchased: L.at(0) + jwsOffset, expires: L.at(30) + jwsOffset,
                    signed: L.at(6)))
            return life
        }
        guard case .success(let agreeing) = try life(jwsOffset: 49).status(at: L.at(7)) else {
            Issue.record("no status")
            return
        }
        #expect(agreeing.conflicts.isEmpty, "\(agreeing.conflicts.map(\.claim))")
        guard case .success(let disagreeing) = try life(jwsOffset: 1_049).status(at: L.at(7)) else {
            Issue.record("no status")
            return
        }
        #expect(disagreeing.conflicts.map(\.claim).sorted() == ["expiry", "purchase"])
    }

    @Test func aReceiptWithoutTheRefundIsOverruledByTheLaterNotification() throws {
        var life = Lifecycle()
        life.add(
            "receipt.der",
            bytes: try L.receipt(
                created: L.at(5),
                records: [
                    [
                        ("quantity", .number(1)), ("product_id", .text(Self.monthly)), ("transaction_id", .text("600")),
                        ("original_transaction_id", .text("600")), ("purchase_date", .number(L.at(0))),
                        ("expires_date", .number(L.at(30))),
                    ]
                ]))
        var state = Self.product(life, Self.monthly, at: L.at(6))
        #expect(state?.state == .active)
        #expect(state?.kind == .autoRenewableSubscription)
        #expect(state?.evidence.first?.kind == "receipt-record")
        #expect(state?.evidence.first?.path == "in_app[0]")
        #expect(state?.evidence.first?.offset != nil)
        life.add(
            "refund.json",
            try L.notification(
                "REFUND", signed: L.at(10),
                transaction: try L.transaction(
                    "600", product: Self.monthly, purchased: L.at(0), expires: L.at(30), revoked: L.at(10), reason: 1,
                    signed: L.at(10))))
        state = Self.product(life, Self.monthly, at: L.at(11))
        #expect(state?.state == .revoked)
        if case .success(let status) = life.status(at: L.at(11)) {
            #expect(status.conflicts.count == 1)
            #expect(status.conflicts.first?.used.evidence.document == "refund.json")
            #expect(status.conflicts.first?.overruled.evidence.document == "receipt.der")
            #expect(status.conflicts.first?.overruled.evidence.kind == "receipt-record")
        }
    }

    @Test func statementsThatDisagreeOnTheProductAreConflictsAndTheOrderGivenChangesNothing() throws {
        var life = Lifecycle()
        life.add(
            "a.jws",
            try L.transaction(
                "990", product: "com.example.lifecycle.a", type: "Non-Consumable", purchased: L.at(1), signed: L.at(2)))
        life.add(
            "b.jws",
            try L.transaction(
                "990", product: "com.example.lifecycle.b", type: "Non-Consumable", purchased: L.at(1), signed: L.at(2)))
        guard case .success(let forward) = life.status(at: L.at(3)) else {
            Issue.record("mixed")
            return
        }
        var reversed = Lifecycle()
        reversed.documents = life.documents.reversed()
        guard case .success(let backward) = reversed.status(at: L.at(3)) else {
            Issue.record("mixed")
            return
        }
        #expect(forward.products.map(\.productID) == ["com.example.lifecycle.a"])
        #expect(backward.products.map(\.productID) == forward.products.map(\.productID))
        #expect(forward.conflicts.map(\.claim) == ["product"])
        #expect(forward.conflicts.first?.overruled.value == "com.example.lifecycle.b")
        // A transaction that names no app is never counted: it could be any app's.
        var anonymous = Lifecycle()
        anonymous.add(
            "app.jws",
            try L.transaction(
                "991", product: "com.example.lifecycle.a", type: "Non-Consumable", purchased: L.at(1), signed: L.at(1)))
        anonymous.add(
            "no-app.jws",
            try L.sign(
                #"{"transactionId":"992","originalTransactionId":"992","productId":"com.example.lifecycle.x","#
                    + #""purchaseDate":\#(L.at(1)),"type":"Non-Consumable","signedDate":\#(L.at(1)),"environment":"Sandbox"}"#
            ))
        guard case .success(let status) = anonymous.status(at: L.at(2)) else {
            Issue.record("mixed")
            return
        }
        #expect(status.products.map(\.productID) == ["com.example.lifecycle.a"])
        #expect(status.documents.map(\.use) == [.counted, .notCounted])
        #expect(status.documents.last?.problem == "no-bundle-id")
    }

    /// A REFUND notification signed after --at, dated before it, tells what was so at --at — also beside an older
    /// receipt that shows no refund (which it overrules, and the conflict says so).
    @Test func aRefundSignedLaterButDatedByThenCounts() throws {
        let pro = "com.example.lifecycle.pro"
        var life = Lifecycle()
        life.add(
            "receipt.der",
            bytes: try L.receipt(
                created: L.at(55),
                records: [
                    [
                        ("quantity", .number(1)), ("product_id", .text(pro)), ("transaction_id", .text("610")),
                        ("original_transaction_id", .text("610")), ("purchase_date", .number(L.at(1))),
                    ]
                ]))
        life.add(
            "refund.json",
            try L.notification(
                "REFUND", signed: L.at(64),
                transaction: try L.transaction(
                    "610", product: pro, type: "Non-Consumable", purchased: L.at(1), revoked: L.at(58),
                    reason: 1, signed: L.at(64))))
        let state = Self.product(life, pro, at: L.at(60))
        #expect(state?.state == .refunded)
        #expect(state?.evidence.first?.document == "refund.json")
        if case .success(let status) = life.status(at: L.at(60)) {
            #expect(status.conflicts.first?.overruled.evidence.document == "receipt.der")
        }
        // Before the refund it was owned.
        #expect(Self.product(life, pro, at: L.at(57))?.state == .owned)
    }

    /// Deciding a subscription of many transactions, all marked upgraded, is n log n: this finishes (the first cut
    /// compared every pair by scanning them all).
    @Test func aSubscriptionOfManyTransactionsIsDecided() throws {
        let facts = (0..<20_000).map { index in
            TransactionFact(
                productID: "com.example.lifecycle.tier\(index % 7)", kind: .autoRenewableSubscription,
                transactionID: String(index), originalTransactionID: "1", purchaseDate: L.at(Int64(index % 300)),
                expiresDate: L.at(Int64(index % 300) + 30), revocationDate: nil, isUpgraded: true,
                evidence: StatusEvidence(
                    document: "many.json", path: "latest_receipt_info[\(index)]", offset: nil,
                    kind: "transaction", signedDate: L.at(0), trust: .verified))
        }
        var document = StatusDocument(unreadable: "many.json", problem: "")
        document.isReadable = true
        document.isValid = true
        document.problem = nil
        document.app = StatusApp(bundleID: L.bundleID, environment: "Sandbox")
        document.transactions = facts
        guard case .success(let status) = CustomerStatus.resolve([document], at: L.at(310)) else {
            Issue.record("refused")
            return
        }
        #expect(status.products.count == 7)
    }

    @Test func onlyVerifiedDocumentsCountUnlessAskedAndThenNeverOverAVerifiedOne() throws {
        var life = Lifecycle()
        life.add(
            "genuine.jws",
            try L.transaction("700", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        // A forged refund, signed by a CA nothing trusts, and a forged purchase of another product.
        life.add(
            "forged-refund.jws",
            try L.transaction(
                "700", product: Self.monthly, purchased: L.at(0), expires: L.at(30),
                revoked: L.at(2), reason: 1, signed: L.at(2), by: L.foreignAuthority))
        life.add(
            "forged-pro.jws",
            try L.transaction(
                "701", product: "com.example.lifecycle.pro", type: "Non-Consumable",
                purchased: L.at(1), signed: L.at(1), by: L.foreignAuthority))
        guard case .success(let strict) = life.status(at: L.at(3)) else {
            Issue.record("mixed")
            return
        }
        #expect(strict.products.map(\.productID) == [Self.monthly])
        #expect(strict.products.first?.state == .active)
        #expect(strict.documents.map(\.use) == [.counted, .notCounted, .notCounted])
        #expect(
            strict.documents[1].problem == "chain-invalid" || strict.documents[1].problem?.hasPrefix("jws-") == true)
        guard case .success(let loose) = life.status(at: L.at(3), includeUnverified: true) else {
            Issue.record("mixed")
            return
        }
        #expect(loose.documents.map(\.use) == [.counted, .countedUnverified, .countedUnverified])
        let monthly = loose.products.first { $0.productID == Self.monthly }
        #expect(monthly?.state == .active)
        #expect(monthly?.restsOnUnverified == false)
        let pro = loose.products.first { $0.productID == "com.example.lifecycle.pro" }
        #expect(pro?.state == .owned)
        #expect(pro?.restsOnUnverified == true)
        #expect(pro?.evidence.first?.trust == .unverified)
        // Shown, never granted: `grants_service` (the README's `select(.grants_service)`) needs verified evidence
        // (a support engineer's trial, session 27, granted a forged renewal so).
        #expect(pro?.grantsService == false)
        #expect(monthly?.grantsService == true)
    }

    @Test func documentsOfDifferentAppsOrEnvironmentsAreRefusedUnlessAPerAppStatusIsAsked() throws {
        var life = Lifecycle()
        life.add(
            "app.jws",
            try L.transaction("800", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        let other = try L.sign(
            #"{"transactionId":"801","originalTransactionId":"801","bundleId":"com.example.other","productId":"x","#
                + #""purchaseDate":\#(L.at(0)),"type":"Non-Consumable","signedDate":\#(L.at(0)),"environment":"Sandbox"}"#
        )
        life.add("other.jws", other)
        guard case .failure(let mixed) = life.status(at: L.at(1)) else {
            Issue.record("not refused")
            return
        }
        #expect(mixed.documents.map(\.name) == ["app.jws", "other.jws"])
        guard
            case .success(let perApp) = CustomerStatus.resolve(
                Lifecycle.read(life.documents), at: L.at(1), perApp: true)
        else {
            Issue.record("refused per app")
            return
        }
        #expect(perApp.apps.map(\.bundleID) == [L.bundleID, "com.example.other"])
        #expect(perApp.products.map(\.app.bundleID) == [L.bundleID, "com.example.other"])
        // The same app in another environment is another status too.
        var environments = Lifecycle()
        environments.add(
            "sandbox.jws",
            try L.transaction("800", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        environments.add(
            "production.jws",
            try L.sign(
                #"{"transactionId":"802","originalTransactionId":"802","bundleId":"\#(L.bundleID)","#
                    + #""productId":"x","purchaseDate":\#(L.at(0)),"type":"Non-Consumable","signedDate":\#(L.at(0)),"environment":"Production"}"#
            ))
        guard case .failure = environments.status(at: L.at(1)) else {
            Issue.record("environments not refused")
            return
        }
    }
}
