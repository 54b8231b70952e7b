import ReceiptPurchases
import ReceiptStatus
import Testing

/// What a support engineer's trial found in `rcpt status` (session 24): a notification's `data.status` was taken as
/// the subscription's state at any later time, so one ordinary DID_RENEW kept a subscription active forever (and
/// `verify` said expired); an unverified notification's status overruled a verified refund; renewal info that
/// names no app joined every app of a `--per-app` status.
@Suite("Status: Apple's signed status is a snapshot")
struct AppleStatusSnapshotTests {
    typealias L = Lifecycle
    static let monthly = "com.example.lifecycle.monthly"

    static func state(_ life: Lifecycle, at time: Int64, includeUnverified: Bool = false) -> ProductStatus.State? {
        guard case .success(let status) = life.status(at: time, includeUnverified: includeUnverified) else {
            Issue.record("mixed apps")
            return nil
        }
        return status.products.first { $0.productID == Self.monthly }?.state
    }

    /// A subscription's first month (original transaction 100), and nothing after it.
    static func firstMonth() throws -> Lifecycle {
        var life = Lifecycle()
        life.add(
            "t.jws",
            try L.transaction(
                "101", original: "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30),
                signed: L.at(0)))
        return life
    }

    /// Apple's status 1 signed after a period ended (a REFUND of that period, whose later period is not among the
    /// documents) tells of a later period: before its signing the state is unknown, never EXPIRED (a support
    /// engineer's trial: expired, then active, then unknown).
    @Test func aGrantingStatusSignedAfterAPeriodTellsOfALaterOne() throws {
        var life = try Self.firstMonth()
        life.add(
            "refund.json",
            try L.notification(
                "REFUND", signed: L.at(40),
                transaction: try L.transaction(
                    "101", original: "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30),
                    revoked: L.at(39), reason: 1, signed: L.at(40)),
                status: 1))
        #expect(Self.state(life, at: L.at(35)) == .unknown)
        #expect(Self.state(life, at: L.at(40)) == .active)
        #expect(Self.state(life, at: L.at(50)) == .unknown)
    }

    /// DID_RENEW with status 1, signed inside the period it renewed: active to that period's end, not after.
    @Test func aStatusSignedInAPeriodEndsWithIt() throws {
        var life = Lifecycle()
        life.add(
            "renew.json",
            try L.notification(
                "DID_RENEW", signed: L.at(30),
                transaction: try L.transaction(
                    "101", original: "100", product: Self.monthly, purchased: L.at(30), expires: L.at(60),
                    signed: L.at(30)),
                renewal: try L.renewal(original: "100", product: Self.monthly, signed: L.at(30)), status: 1))
        #expect(Self.state(life, at: L.at(59)) == .active)
        // After it, nothing signed says whether it renewed again.
        #expect(Self.state(life, at: L.at(60)) == .unknown)
        #expect(Self.state(life, at: L.at(500)) == .unknown)
    }

    /// DID_FAIL_TO_RENEW / GRACE_PERIOD with status 4: the grace period ends when the renewal info says.
    @Test func aGracePeriodStatusEndsWithTheGrace() throws {
        let life = try L.failedRenewal(product: Self.monthly, subtype: "GRACE_PERIOD", status: 4)
        #expect(Self.state(life, at: L.at(33)) == .gracePeriod)
        #expect(Self.state(life, at: L.at(400)).map { $0.grantsService } == false)
    }

    /// A status that grants service, signed after the documents' newest period ended, speaks of a period the
    /// documents do not date: it holds when signed, and the state after that is unknown, never active or in a grace
    /// period for ever (a support engineer's trial, session 27: `ACTIVE until (no date)` in 2030 from a
    /// REFUND_DECLINED of 2024; `GRACE PERIOD until (no date)` two years on from a DID_FAIL_TO_RENEW with no renewal
    /// info).
    @Test func aStatusSignedAfterThePeriodEndedHoldsOnlyWhenSigned() throws {
        for (type, subtype, status, state) in [
            ("REFUND_DECLINED", nil, Int64(1), ProductStatus.State.active),
            ("DID_FAIL_TO_RENEW", "GRACE_PERIOD", 4, .gracePeriod),
        ] as [(String, String?, Int64, ProductStatus.State)] {
            var life = Lifecycle()
            life.add(
                "word.json",
                try L.notification(
                    type, subtype, signed: L.at(40),
                    transaction: try L.transaction(
                        "101", original: "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30),
                        signed: L.at(0)),
                    status: status))
            #expect(Self.state(life, at: L.at(40)) == state, "\(type)")
            #expect(Self.state(life, at: L.at(41)) == .unknown, "\(type)")
            #expect(Self.state(life, at: L.at(2000)) == .unknown, "\(type)")
        }
    }

    /// Apple's billing retry (status 3) lasts at most 60 days after the expiry: after that the documents decide,
    /// and with nothing signed since, whether it recovered is not known.
    @Test func aBillingRetryStatusEndsSixtyDaysAfterTheExpiry() throws {
        let life = try L.failedRenewal(product: Self.monthly, status: 3)
        #expect(Self.state(life, at: L.at(40)) == .billingRetry)
        #expect(Self.state(life, at: L.at(95)) == .unknown)
    }

    /// Renewal info of a later period (its renewalDate, the newest purchase's expiry, after the documents' newest
    /// transaction's) speaks of that period: its grace is no grace for the transaction the documents have (a red
    /// team's trial, session 27: a subscription lapsed in February was in a 76-day grace period from renewal info
    /// signed in April). Renewal info about the transaction's own period places it in its grace.
    @Test func renewalInfoOfALaterPeriodIsNoGraceForThisOne() throws {
        func life(renewalDate: Int64, grace: Int64 = L.at(106), signed: Int64 = L.at(95)) throws -> Lifecycle {
            var life = try Self.firstMonth()
            life.add(
                "r.jws",
                try L.renewal(
                    original: "100", product: Self.monthly, billingRetry: true, grace: grace,
                    renewalDate: renewalDate, signed: signed))
            return life
        }
        let later = try life(renewalDate: L.at(91))
        #expect(Self.state(later, at: L.at(40)) != .gracePeriod)
        #expect(Self.state(later, at: L.at(75)) != .gracePeriod)
        let own = try life(renewalDate: L.at(30), grace: L.at(58), signed: L.at(45))
        #expect(Self.state(own, at: L.at(40)) == .gracePeriod)
    }

    /// Renewal info that does not verify, counted as asked, never changes what a verified transaction says (a red
    /// team's trial, session 27: unsigned pending_renewal_info turned a verified EXPIRED into a grace period until
    /// 2030).
    @Test func unverifiedRenewalInfoNeverOverrulesAVerifiedTransaction() throws {
        var life = try Self.firstMonth()
        life.add(
            "forged.jws",
            try L.renewal(
                original: "100", product: Self.monthly, billingRetry: true, grace: L.at(400), signed: L.at(31),
                by: L.foreignAuthority))
        #expect(Self.state(life, at: L.at(40), includeUnverified: true) == .expired)
        // Not counted, it says nothing after the expiry: whether the subscription renewed is not known.
        #expect(Self.state(life, at: L.at(40)) == .unknown)
    }

    /// A forged notification saying active, counted as asked, never overrules a verified refund.
    @Test func anUnverifiedStatusNeverOverrulesAVerifiedRefund() throws {
        var life = Lifecycle()
        life.add(
            "refunded.jws",
            try L.transaction(
                "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), revoked: L.at(5), reason: 1,
                signed: L.at(5)))
        life.add(
            "forged.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", signed: L.at(6),
                renewal: try L.renewal(original: "100", product: Self.monthly, signed: L.at(6)), status: 1,
                by: L.foreignAuthority))
        #expect(Self.state(life, at: L.at(9), includeUnverified: true) == .revoked)
        #expect(Self.state(life, at: L.at(9)) == .revoked)
    }

    /// Renewal info alone, given with two apps' documents for a status per app, joins the app whose documents
    /// name its subscription, and no other.
    @Test func renewalInfoJoinsOnlyTheAppOfItsSubscription() throws {
        var life = Lifecycle()
        life.add(
            "t.jws",
            try L.transaction("100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        life.add(
            "r.jws", try L.renewal(original: "100", product: Self.monthly, autoRenew: false, intent: 1, signed: L.at(5))
        )
        life.add(
            "other.jws",
            try L.sign(
                #"{"transactionId":"200","originalTransactionId":"200","bundleId":"com.example.other","productId":"x","#
                    + #""purchaseDate":\#(L.at(0)),"type":"Non-Consumable","signedDate":\#(L.at(0)),"environment":"Sandbox"}"#
            ))
        guard
            case .success(let status) = CustomerStatus.resolve(
                Lifecycle.read(life.documents), at: L.at(10), perApp: true)
        else {
            Issue.record("refused per app")
            return
        }
        let monthly = status.products.filter { $0.productID == Self.monthly }
        #expect(monthly.map(\.app.bundleID) == [L.bundleID])
        #expect(monthly.first?.state == .active)
    }
}
