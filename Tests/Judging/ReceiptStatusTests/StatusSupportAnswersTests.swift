import Foundation
import ReceiptJSON
import ReceiptPurchases
import ReceiptStatus
import Testing

/// What a support engineer's trial found `rcpt status` answered wrongly or left out: each answer as Apple's
/// semantics give it, and the notes a ticket needs (an offer, a price increase awaiting consent, an open refund
/// request, Family Sharing).
@Suite("Status: a support engineer's answers")
struct StatusSupportAnswersTests {
    typealias L = Lifecycle
    static let monthly = "com.example.lifecycle.monthly"
    static let premium = "com.example.lifecycle.premium"
    static let coins = "com.example.lifecycle.coins"

    static func product(_ life: Lifecycle, _ id: String, at time: Int64) -> ProductStatus? {
        guard case .success(let status) = life.status(at: time) else {
            Issue.record("mixed apps")
            return nil
        }
        return status.products.first { $0.productID == id }
    }

    /// A history response of `transactions` whose `hasMore` is `more`.
    static func page(_ transactions: [String], more: Bool) -> String {
        L.history(transactions).replacingOccurrences(of: #""hasMore":false"#, with: #""hasMore":\#(more)"#)
    }

    /// A page that says more follow shows what it holds, never that no renewal followed: the renewal may be on the
    /// next page (it read EXPIRED from page 1).
    @Test func aPageWithMoreAfterItNeverShowsThatNoRenewalFollowed() throws {
        let first = try L.transaction(
            "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(40))
        var partial = Lifecycle()
        partial.add("page1.json", Self.page([first], more: true))
        #expect(Self.product(partial, Self.monthly, at: L.at(40))?.state == .unknown)
        var whole = Lifecycle()
        whole.add("history.json", Self.page([first], more: false))
        #expect(Self.product(whole, Self.monthly, at: L.at(40))?.state == .expired)
    }

    /// Apple's status 1 beside renewal info that dates the later period: active through it (adding Apple's word made
    /// "active until day 60" unknown).
    @Test func applesActiveWordAndARenewalDateAgree() throws {
        var life = Lifecycle()
        life.add(
            "t.jws",
            try L.transaction(
                "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        life.add(
            "off.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", signed: L.at(40),
                renewal: try L.renewal(
                    original: "100", product: Self.monthly, autoRenew: false, renewalDate: L.at(60), signed: L.at(40)),
                status: 1))
        let product = Self.product(life, Self.monthly, at: L.at(45))
        #expect(product?.state == .active)
        #expect(product?.endedDate == L.at(60))
        #expect(product?.evidence.contains { $0.kind == "notification-status" } == true)
    }

    /// Apple's word is a snapshot: renewal info signed after it supersedes it (a red team's trial: a grace period's
    /// status 4 outweighed later renewal info saying the customer cancelled, unless the transaction happened to be
    /// re-signed later: one set of facts, two judgements).
    @Test func newerRenewalInfoSupersedesApplesOlderWord() throws {
        var life = try L.failedRenewal(product: Self.monthly, status: 4)
        #expect(Self.product(life, Self.monthly, at: L.at(34))?.state == .gracePeriod)
        life.add(
            "cancelled.jws",
            try L.renewal(original: "100", product: Self.monthly, autoRenew: false, intent: 1, signed: L.at(33)))
        let cancelled = Self.product(life, Self.monthly, at: L.at(34))
        #expect(cancelled?.state == .expired)
        #expect(cancelled?.grantsService == false)
    }

    /// A family member's subscription is marked so: the service is the purchaser's.
    @Test func aFamilySharedSubscriptionIsMarked() throws {
        var life = Lifecycle()
        life.add(
            "shared.jws",
            try L.transaction(
                "300", product: Self.monthly, purchased: L.at(0), expires: L.at(30), familyShared: true,
                signed: L.at(0)))
        #expect(Self.product(life, Self.monthly, at: L.at(10))?.familyShared == true)
        var own = Lifecycle()
        own.add("own.jws", try L.subscribed("100", product: Self.monthly))
        #expect(Self.product(own, Self.monthly, at: L.at(10))?.familyShared == false)
    }

    /// The offer a transaction was bought with is noted ("charged after my trial").
    @Test func theOfferIsNoted() throws {
        var life = Lifecycle()
        life.add(
            "trial.jws",
            try L.sign(
                L.json([
                    ("transactionId", .text("100")), ("originalTransactionId", .text("100")),
                    ("bundleId", .text(L.bundleID)), ("productId", .text(Self.monthly)),
                    ("subscriptionGroupIdentifier", .text("21000001")), ("purchaseDate", .number(L.at(0))),
                    ("expiresDate", .number(L.at(7))), ("type", .text("Auto-Renewable Subscription")),
                    ("inAppOwnershipType", .text("PURCHASED")), ("signedDate", .number(L.at(0))),
                    ("environment", .text("Sandbox")), ("offerType", .number(1)),
                    ("offerDiscountType", .text("FREE_TRIAL")),
                ])))
        let notes = Self.product(life, Self.monthly, at: L.at(3))?.notes ?? []
        #expect(notes.contains { $0.contains("INTRODUCTORY_OFFER FREE_TRIAL") })
    }

    /// A price increase awaiting the customer's consent is noted while the subscription runs.
    @Test func aPriceIncreaseAwaitingConsentIsNoted() throws {
        var life = Lifecycle()
        life.add("sub.json", try L.subscribed("100", product: Self.monthly))
        life.add(
            "pending.jws",
            try L.sign(
                L.json([
                    ("originalTransactionId", .text("100")), ("productId", .text(Self.monthly)),
                    ("autoRenewProductId", .text(Self.monthly)), ("autoRenewStatus", .number(1)),
                    ("priceIncreaseStatus", .number(0)), ("signedDate", .number(L.at(10))),
                    ("environment", .text("Sandbox")),
                ])))
        #expect(Self.product(life, Self.monthly, at: L.at(5))?.notes.isEmpty == true)
        let notes = Self.product(life, Self.monthly, at: L.at(15))?.notes ?? []
        #expect(notes.contains { $0.contains("price increase awaits the customer's consent") })
    }

    /// A CONSUMPTION_REQUEST is an open refund request until a refund or its refusal is signed.
    @Test func anOpenRefundRequestIsNotedUntilSettled() throws {
        let bought = try L.transaction(
            "400", product: Self.coins, type: "Consumable", purchased: L.at(1), quantity: 10, signed: L.at(1))
        var life = Lifecycle()
        life.add("coins.jws", bought)
        life.add(
            "request.json",
            try L.notification(
                "CONSUMPTION_REQUEST", signed: L.at(3),
                transaction: try L.transaction(
                    "400", product: Self.coins, type: "Consumable", purchased: L.at(1), quantity: 10,
                    signed: L.at(3))))
        #expect(Self.product(life, Self.coins, at: L.at(2))?.notes.isEmpty == true)
        let open = Self.product(life, Self.coins, at: L.at(4))?.notes ?? []
        #expect(open.contains { $0.contains("asked for a refund of transaction 400") })
        life.add(
            "declined.json",
            try L.notification(
                "REFUND_DECLINED", signed: L.at(5),
                transaction: try L.transaction(
                    "400", product: Self.coins, type: "Consumable", purchased: L.at(1), quantity: 10,
                    signed: L.at(5))))
        #expect(Self.product(life, Self.coins, at: L.at(6))?.notes.isEmpty == true)
    }

    /// An upgrade told by notifications alone (DID_CHANGE_RENEWAL_PREF/UPGRADE) is an upgrade, not a change.
    @Test func anUpgradeToldByItsNotificationIsAnUpgrade() throws {
        var life = Lifecycle()
        life.add("sub.json", try L.subscribed("100", product: Self.monthly))
        life.add(
            "upgrade.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_PREF", "UPGRADE", signed: L.at(10),
                transaction: try L.transaction(
                    "101", original: "100", product: Self.premium, purchased: L.at(10), expires: L.at(40),
                    signed: L.at(10))))
        let old = Self.product(life, Self.monthly, at: L.at(20))
        #expect(old?.state == .expired)
        #expect(old?.reason == "upgraded to \(Self.premium)")
        #expect(old?.endedDate == L.at(10))
    }
}
