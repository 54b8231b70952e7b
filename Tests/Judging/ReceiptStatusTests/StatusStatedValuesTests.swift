import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptModel
import ReceiptPurchases
import ReceiptRendering
import ReceiptSigning
import ReceiptStatus
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// What a support engineer's trial found in `rcpt status` (session 24): a consumable's quantity past 2^63 was shown
/// as ×1 and a negative one as ×0; a receipt's
/// upgraded subscription (dated by cancellation_date, as Apple dates an upgrade in a receipt) was called revoked (refunded).
@Suite("Status: what the documents state, and no more")
struct StatusStatedValuesTests {
    typealias L = Lifecycle
    static let coins = "com.example.lifecycle.coins"
    static let monthly = "com.example.lifecycle.monthly"
    static let yearly = "com.example.lifecycle.yearly"

    static func product(_ life: Lifecycle, _ id: String, at time: Int64, includeUnverified: Bool = false)
        -> ProductStatus?
    {
        guard case .success(let status) = life.status(at: time, includeUnverified: includeUnverified) else {
            Issue.record("mixed apps")
            return nil
        }
        return status.products.first { $0.productID == id }
    }

    /// Consumables bought in two transactions, the second's quantity stated as `second` (JSON number text).
    static func coins(second: String) throws -> Lifecycle {
        var life = Lifecycle()
        life.add(
            "one.jws",
            try L.transaction(
                "1", product: coins, type: "Consumable", purchased: L.at(1), quantity: 3, signed: L.at(1)))
        let template = try L.transaction(
            "2", product: coins, type: "Consumable", purchased: L.at(2), quantity: 424_242, signed: L.at(2))
        // The claim as text: 2^63 and beyond do not fit the builder's Int64.
        let payload = try #require(JWSPart.payload(of: template)).replacingOccurrences(of: "424242", with: second)
        life.add("two.jws", try L.sign(payload))
        return life
    }

    @Test func quantitiesThatAreCountsAreSummed() throws {
        let status = Self.product(try Self.coins(second: "2"), Self.coins, at: L.at(3))
        #expect(status?.state == .consumed)
        #expect(status?.quantity == 5)
    }

    /// A transaction whose quantity is no count of units Apple sells does not verify (`quantity-out-of-range`, as a
    /// receipt record's; a red team's trial, session 27, had quantity 0 and -5 consumed and granted): it is not
    /// counted, and counted as asked (`--include-unverified`) its units are unknown.
    @Test(arguments: ["9223372036854775808", "-5", "0", "1.5", "18446744073709551617", String(Int64.max - 1), "1001"])
    func aQuantityThatIsNotACountIsUnknown(_ stated: String) throws {
        let life = try Self.coins(second: stated)
        let verified = Self.product(life, Self.coins, at: L.at(3))
        #expect(verified?.state == .consumed)
        #expect(verified?.quantity == 3, "only the first transaction verifies")
        let counted = Self.product(life, Self.coins, at: L.at(3), includeUnverified: true)
        #expect(counted?.quantity != 3)
        #expect(counted?.grantsService == false)
    }

    /// A second trial (session 25): a receipt record, which names no kind for what does not renew, signed after a
    /// token that says Consumable made the coins "owned" for ever once the receipt's date had passed.
    @Test func aStatementThatNamesNoKindNeverOverrulesOneThatDoes() throws {
        var life = Lifecycle()
        life.add(
            "coins.jws",
            try L.transaction(
                "300", product: Self.coins, type: "Consumable", purchased: L.at(4), quantity: 3, signed: L.at(4)))
        life.add(
            "receipt",
            bytes: try L.receipt(
                created: L.at(14),
                records: [
                    [
                        ("quantity", .number(3)), ("product_id", .text(Self.coins)),
                        ("transaction_id", .text("300")), ("original_transaction_id", .text("300")),
                        ("purchase_date", .number(L.at(4))),
                    ]
                ]))
        for day: Int64 in [10, 20] {
            let coins = Self.product(life, Self.coins, at: L.at(day))
            #expect(coins?.kind == .consumable, "day \(day)")
            #expect(coins?.state == .consumed, "day \(day)")
        }
    }

    /// Two statements of one transaction signed at one time that disagree: the one that grants less decides, never
    /// the files' names (a trial renamed two files and turned EXPIRED into ACTIVE).
    @Test func aTieIsDecidedByContentNotByName() throws {
        let shortToken = try L.transaction(
            "100", product: Self.monthly, purchased: L.at(0), expires: L.at(31), signed: L.at(4))
        let longToken = try L.transaction(
            "100", product: Self.monthly, purchased: L.at(0), expires: L.at(60), signed: L.at(4))
        for (first, second) in [("a.jws", "z.jws"), ("z.jws", "a.jws")] {
            var life = Lifecycle()
            life.add(first, shortToken)
            life.add(second, longToken)
            // The short period decides: it has ended (whether it renewed is not known), never active to day 60.
            #expect(Self.product(life, Self.monthly, at: L.at(45))?.state == .unknown, "\(first) short")
        }
    }

    /// Which purchase stands for a product never depends on the order the documents were given in.
    @Test func theOrderGivenNeverPicksTheTransaction() throws {
        let pro = "com.example.lifecycle.pro"
        let one = try L.transaction("200", product: pro, type: "Non-Consumable", purchased: L.at(3), signed: L.at(3))
        let two = try L.transaction("401", product: pro, type: "Non-Consumable", purchased: L.at(3), signed: L.at(3))
        var forward = Lifecycle()
        forward.add("x.jws", one)
        forward.add("y.jws", two)
        var backward = Lifecycle()
        backward.add("x.jws", two)
        backward.add("y.jws", one)
        #expect(Self.product(forward, pro, at: L.at(4))?.transactionID == "401")
        #expect(Self.product(backward, pro, at: L.at(4))?.transactionID == "401")
    }

    /// Billing retry ends: the App Store retries a failed renewal for at most 60 days after the expiry. Whether it
    /// recovered is known only from a statement signed after them (a support engineer's trial: EXPIRED from the
    /// failure's renewal info alone, where a recovery was possible).
    @Test func billingRetryEndsAfterSixtyDays() throws {
        var life = try L.failedRenewal(product: Self.monthly)
        #expect(Self.product(life, Self.monthly, at: L.at(33))?.state == .gracePeriod)
        #expect(Self.product(life, Self.monthly, at: L.at(80))?.state == .billingRetry)
        let open = Self.product(life, Self.monthly, at: L.at(95))
        #expect(open?.state == .unknown)
        #expect(open?.reason?.contains("whether it recovered") == true)
        // Renewal info signed after the 60 days, still in retry: it did not recover.
        life.add(
            "later.jws",
            try L.renewal(original: "100", product: Self.monthly, billingRetry: true, signed: L.at(92)))
        let ended = Self.product(life, Self.monthly, at: L.at(95))
        #expect(ended?.state == .expired)
        #expect(ended?.reason?.contains("60 days") == true)
        // Renewal info alone says the same.
        var alone = Lifecycle()
        alone.add(
            "renewal.jws",
            try L.renewal(original: "100", product: Self.monthly, billingRetry: true, signed: L.at(30)))
        #expect(Self.product(alone, Self.monthly, at: L.at(80))?.state == .billingRetry)
        #expect(Self.product(alone, Self.monthly, at: L.at(95))?.state == .unknown)
    }

    /// Billing retry after a grace period: service ended when the grace period did, not at the expiry (a support
    /// engineer's trial: "since" the expiry, 16 days early, the grace period never named).
    @Test func billingRetryAfterGraceDatesTheEndAtTheGrace() throws {
        let life = try L.failedRenewal(product: Self.monthly)
        let retrying = Self.product(life, Self.monthly, at: L.at(40))
        #expect(retrying?.state == .billingRetry)
        #expect(retrying?.endedDate == L.at(36))
        #expect(retrying?.gracePeriodExpiresDate == L.at(36))
    }

    /// Auto-renew off said before the expiry: after it, whether the customer turned it back on is not known until a
    /// statement signed after the expiry (a support engineer's trial: EXPIRED from renewal info of a month before).
    @Test func autoRenewOffBeforeTheExpiryLeavesAfterItUnknown() throws {
        var life = Lifecycle()
        life.add(
            "t.jws",
            try L.transaction(
                "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        life.add(
            "off.jws", try L.renewal(original: "100", product: Self.monthly, autoRenew: false, signed: L.at(10)))
        #expect(Self.product(life, Self.monthly, at: L.at(20))?.state == .active)
        #expect(Self.product(life, Self.monthly, at: L.at(40))?.state == .unknown)
        life.add(
            "after.jws", try L.renewal(original: "100", product: Self.monthly, autoRenew: false, signed: L.at(35)))
        #expect(Self.product(life, Self.monthly, at: L.at(40))?.state == .expired)
    }

    /// Another app's token inside this app's API response, counted with `--include-unverified`, was listed as this
    /// app's product: a token that names another app states nothing about this app's customer.
    @Test func anotherAppsTokenInAResponseIsNeverThisAppsProduct() throws {
        let ours = try L.transaction(
            "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0))
        let theirs = try L.sign(
            L.json([
                ("transactionId", .text("900")), ("originalTransactionId", .text("900")),
                ("bundleId", .text("com.other.app")), ("productId", .text("com.other.app.pro")),
                ("type", .text("Non-Consumable")), ("purchaseDate", .number(L.at(1))),
                ("signedDate", .number(L.at(1))), ("environment", .text("Sandbox")),
            ]))
        var life = Lifecycle()
        life.add("history.json", L.history([ours, theirs]))
        guard case .success(let status) = life.status(at: L.at(10), includeUnverified: true) else {
            Issue.record("mixed apps")
            return
        }
        #expect(!status.products.contains { $0.productID == "com.other.app.pro" }, "\(status.products)")
        #expect(status.products.contains { $0.productID == Self.monthly })
    }

    static func receipt(cancelled: Int64, yearlyBought: Int64) throws -> Lifecycle {
        var life = Lifecycle()
        life.add(
            "receipt",
            bytes: try L.receipt(
                created: L.at(12),
                records: [
                    [
                        ("quantity", .number(1)), ("product_id", .text(Self.monthly)),
                        ("transaction_id", .text("800")), ("original_transaction_id", .text("800")),
                        ("purchase_date", .number(L.at(0))), ("expires_date", .number(L.at(30))),
                        ("cancellation_date", .number(cancelled)),
                    ],
                    [
                        ("quantity", .number(1)), ("product_id", .text(Self.yearly)),
                        ("transaction_id", .text("801")), ("original_transaction_id", .text("800")),
                        ("purchase_date", .number(yearlyBought)), ("expires_date", .number(L.at(375))),
                    ],
                ]))
        return life
    }

    /// The monthly record's cancellation_date is the second the yearly one was bought: an upgrade.
    @Test func aReceiptsUpgradeIsNotARefund() throws {
        let life = try Self.receipt(cancelled: L.at(10), yearlyBought: L.at(10))
        let monthly = Self.product(life, Self.monthly, at: L.at(11))
        #expect(monthly?.state == .expired)
        #expect(monthly?.revocationDate == nil)
        #expect(monthly?.reason?.contains("upgraded") == true)
        #expect(Self.product(life, Self.yearly, at: L.at(11))?.state == .active)
    }

    /// `verify` says what `status` says: the upgrade's record is `purchase-upgraded`, a refund's
    /// `purchase-cancelled` (the report once called the upgrade a refund), whether the inspection keeps the
    /// records' entries (`dump`, the report) or checks each record as it is read (`verify`: a trial of session 27
    /// found its JSON calling the upgrade a refund).
    @Test(arguments: [true, false]) func verifyNamesTheUpgradeAsStatusDoes(keepsRecords: Bool) throws {
        func codes(_ life: Lifecycle) -> [String] {
            var options = InspectionOptions(anchors: TrustAnchors([TestReceipts.authority?.root].compactMap { $0 }))
            options.keepsRecords = keepsRecords
            let bytes = life.documents[0].bytes
            return Inspector.inspect(InputClassifier.classify(bytes), input: bytes, options: options).findings.map(
                \.code)
        }
        let upgraded = codes(try Self.receipt(cancelled: L.at(10), yearlyBought: L.at(10)))
        #expect(upgraded.contains("purchase-upgraded") && !upgraded.contains("purchase-cancelled"), "\(upgraded)")
        let refunded = codes(try Self.receipt(cancelled: L.at(9), yearlyBought: L.at(10)))
        #expect(refunded.contains("purchase-cancelled") && !refunded.contains("purchase-upgraded"), "\(refunded)")
    }

    /// At a time inside a period cancelled later (by an upgrade or a refund), `verify --status-at` says the product
    /// was active, as `status` does: it dropped cancelled records from the state, and said "not active (latest
    /// expires_date" of an earlier period) (a support engineer's trial).
    @Test(arguments: [true, false]) func verifyDatesACancelledPeriodAsStatusDoes(keepsRecords: Bool) throws {
        func finding(_ life: Lifecycle, at time: Int64) -> (code: String, message: String)? {
            var options = InspectionOptions(anchors: TrustAnchors([TestReceipts.authority?.root].compactMap { $0 }))
            options.keepsRecords = keepsRecords
            options.statusTime = EvaluationTime(argument: String(time))  // epoch milliseconds
            let bytes = life.documents[0].bytes
            return Inspector.inspect(InputClassifier.classify(bytes), input: bytes, options: options).findings.first {
                $0.code.hasPrefix("subscription-") && $0.message.hasPrefix(Self.monthly + " ")
            }.map { ($0.code, $0.message) }
        }
        for cancelled in [L.at(10), L.at(9)] {  // an upgrade, a refund
            let life = try Self.receipt(cancelled: cancelled, yearlyBought: L.at(10))
            #expect(Self.product(life, Self.monthly, at: L.at(5))?.state.grantsService == true)
            #expect(finding(life, at: L.at(5))?.code == "subscription-active", "\(cancelled)")
            #expect(finding(life, at: L.at(11))?.code == "subscription-expired", "\(cancelled)")
            #expect(finding(life, at: L.at(11))?.message.contains("cancelled") == true)
        }
    }

    /// `dump --brief` says of a cancelled record what verify says: an upgrade or a refund (its column was
    /// "refunded", an upgrade listed under it).
    @Test func dumpsPurchasesTellAnUpgradeFromARefund() throws {
        func table(_ life: Lifecycle) throws -> String {
            var options = InspectionOptions(anchors: TrustAnchors([TestReceipts.authority?.root].compactMap { $0 }))
            options.keepsRecords = true
            let payload = try #require(
                ReceiptInspector.inspect(life.documents[0].bytes, options: options).receipt?.payload)
            return DumpSummary(style: TextStyle(useColor: false)).purchases(payload)
        }
        let upgraded = try table(try Self.receipt(cancelled: L.at(10), yearlyBought: L.at(10)))
        #expect(upgraded.contains("cancelled") && upgraded.contains("(upgrade)") && !upgraded.contains("(refund)"))
        let refunded = try table(try Self.receipt(cancelled: L.at(9), yearlyBought: L.at(10)))
        #expect(refunded.contains("(refund)") && !refunded.contains("(upgrade)"), "\(refunded)")
    }

    /// A JWS transaction marked `isUpgraded` whose revocationDate has no revocationReason was upgraded, not
    /// refunded, as the same record of a receipt or of verifyReceipt's JSON: `status` and `verify` say so alike.
    @Test func anUpgradedTransactionsRevocationDateWithoutAReasonIsTheUpgrade() throws {
        var life = Lifecycle()
        life.add(
            "old.jws",
            try L.transaction(
                "900", product: Self.monthly, purchased: L.at(0), expires: L.at(30), revoked: L.at(10), upgraded: true,
                signed: L.at(10)))
        let monthly = Self.product(life, Self.monthly, at: L.at(11))
        #expect(monthly?.state != .revoked)
        #expect(monthly?.revocationDate == nil)
        let options = InspectionOptions(anchors: TrustAnchors([L.jwsAuthority?.root].compactMap { $0 }))
        let bytes = life.documents[0].bytes
        let codes = Inspector.inspect(InputClassifier.classify(bytes), input: bytes, options: options).findings.map(
            \.code)
        #expect(codes.contains("purchase-upgraded") && !codes.contains("purchase-cancelled"), "\(codes)")
        // With a reason, it was refunded.
        var refunded = Lifecycle()
        refunded.add(
            "old.jws",
            try L.transaction(
                "900", product: Self.monthly, purchased: L.at(0), expires: L.at(30), revoked: L.at(10), reason: 1,
                upgraded: true, signed: L.at(10)))
        #expect(Self.product(refunded, Self.monthly, at: L.at(11))?.state == .revoked)
    }

    /// A receipt record that states an expires_date or a cancellation_date that does not read as a date (here an
    /// INTEGER, which `verify` only warns about) is a subscription's record whose expiry is unknown, or a cancelled
    /// purchase: never a purchase owned for ever (a library adopter's trial, session 27). A record with no such date
    /// (Apple writes an empty string) is what it was.
    @Test func aRecordWhoseDatesDoNotReadGrantsNothing() throws {
        func status(_ records: [[(String, L.Claim)]], product: String) throws -> ProductStatus? {
            var life = Lifecycle()
            life.add("receipt", bytes: try L.receipt(created: L.at(40), records: records))
            return Self.product(life, product, at: L.at(45))
        }
        func record(_ id: String, _ product: String, bought: Int64, _ extra: [(String, L.Claim)]) -> [(String, L.Claim)]
        {
            [
                ("quantity", .number(1)), ("product_id", .text(product)), ("transaction_id", .text(id)),
                ("original_transaction_id", .text("800")), ("purchase_date", .number(bought)),
            ] + extra
        }
        let renewed = try status(
            [
                record("800", Self.monthly, bought: L.at(0), [("expires_date", .number(L.at(30)))]),
                record("801", Self.monthly, bought: L.at(30), [("expires_date", .flag(true))]),
            ], product: Self.monthly)
        #expect(renewed?.state.grantsService == false, "\(String(describing: renewed))")
        // No expires_date at all, on a record of a subscription's original transaction: the subscription's.
        let missing = try status(
            [
                record("800", Self.monthly, bought: L.at(0), [("expires_date", .number(L.at(30)))]),
                record("801", Self.monthly, bought: L.at(30), []),
            ], product: Self.monthly)
        #expect(missing?.state.grantsService == false, "\(String(describing: missing))")
        let lifetime = "com.example.lifecycle.lifetime"
        let cancelled = try status(
            [record("900", lifetime, bought: L.at(0), [("cancellation_date", .flag(true))])], product: lifetime)
        #expect(cancelled?.state.grantsService == false, "\(String(describing: cancelled))")
        let owned = try status(
            [record("901", lifetime, bought: L.at(0), [("cancellation_date", .text(""))])], product: lifetime)
        #expect(owned?.state == .owned, "\(String(describing: owned))")
    }

    /// A JWS transaction of a type Apple does not name (another case, a word of its own) with an expiry is a
    /// subscription's: it expires, never becomes a purchase owned for ever (a red team's trial, session 27).
    @Test func aTransactionOfAnUnknownTypeWithAnExpiryExpires() throws {
        for type in ["auto-renewable subscription", "Subscription"] {
            var life = Lifecycle()
            life.add(
                "t.jws",
                try L.transaction(
                    "700", product: Self.monthly, type: type, purchased: L.at(0), expires: L.at(30),
                    signed: L.at(0)))
            #expect(Self.product(life, Self.monthly, at: L.at(10))?.state == .active, "\(type)")
            // Ended, never owned; nothing signed since says whether it renewed.
            #expect(Self.product(life, Self.monthly, at: L.at(40))?.state == .unknown, "\(type)")
        }
    }

    /// A cancellation at another time is a refund (Apple's state "revoked"), whatever else the receipt holds.
    @Test func aReceiptsRefundStaysARefund() throws {
        let life = try Self.receipt(cancelled: L.at(9), yearlyBought: L.at(10))
        #expect(Self.product(life, Self.monthly, at: L.at(11))?.state == .revoked)
    }

    /// Renewal info alone whose renewalDate has passed with auto-renew on says so: a red team's trial read "the
    /// renewal info dates no period (no renewalDate)" beside a renewalDate.
    @Test func renewalInfoAlonePastItsRenewalDateSaysTheDate() throws {
        var life = Lifecycle()
        life.add(
            "renewal.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", signed: L.at(29),
                renewal: try L.renewal(
                    original: "100", product: Self.monthly, renewalDate: L.at(30), signed: L.at(29))))
        let state = Self.product(life, Self.monthly, at: L.at(45))
        #expect(state?.state == .unknown)
        #expect(state?.reason?.contains("renewalDate 2024-01-31T00:00:00Z") == true)
        #expect(state?.reason?.contains("no renewalDate") == false)
    }

    /// A billing grace period lies inside billing retry, which ends 60 days after the expiry: a red team's trial had
    /// a gracePeriodExpiresDate years ahead grant service two years on.
    @Test func aGracePeriodEndsWithBillingRetryAtTheLatest() throws {
        var life = Lifecycle()
        life.add(
            "t.jws",
            try L.transaction(
                "101", original: "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        life.add(
            "fail.json",
            try L.notification(
                "DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: L.at(30),
                transaction: try L.transaction(
                    "101", original: "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30),
                    signed: L.at(30)),
                renewal: try L.renewal(
                    original: "100", product: Self.monthly, billingRetry: true, grace: L.at(2000), signed: L.at(30)),
                status: 4))
        #expect(Self.product(life, Self.monthly, at: L.at(40))?.state == .gracePeriod)
        let later = Self.product(life, Self.monthly, at: L.at(100))
        #expect(later?.grantsService == false, "\(String(describing: later))")
    }

    /// A consumable refunded in part keeps the units not refunded: Apple's revocationPercentage is the share of the
    /// transaction refunded, in milliunits (a support engineer's trial: 500 gems, 40 % refunded, read as all 500).
    @Test func aProratedRefundOfConsumablesKeepsTheRest() throws {
        var life = Lifecycle()
        life.add(
            "bought.jws",
            try L.transaction(
                "1", product: Self.coins, type: "Consumable", purchased: L.at(1), quantity: 500, signed: L.at(1)))
        life.add(
            "refund.jws",
            try L.transaction(
                "1", product: Self.coins, type: "Consumable", purchased: L.at(1), revoked: L.at(5), reason: 0,
                revocationType: "REFUND_PRORATED", revocationPercentage: 40_000, quantity: 500, signed: L.at(5)))
        let state = Self.product(life, Self.coins, at: L.at(6))
        #expect(state?.state == .consumed)
        #expect(state?.quantity == 300)
        #expect(state?.reason?.contains("×200 more refunded") == true, "\(state?.reason ?? "")")
        #expect(Self.product(life, Self.coins, at: L.at(4))?.quantity == 500)
    }

    /// A receipt past its expiration_date (a Volume Purchase licence) grants nothing from then: Apple says to compare
    /// it with the current date (a red team's trial: an expired receipt still granted, exit 0).
    @Test func anExpiredReceiptIsNotCountedAfterItsExpiry() throws {
        var life = Lifecycle()
        life.add(
            "vpp.receipt",
            bytes: try L.receipt(
                created: L.at(1), expires: L.at(20),
                records: [
                    [
                        ("quantity", .number(1)), ("product_id", .text(Self.yearly)), ("transaction_id", .text("5")),
                        ("original_transaction_id", .text("5")), ("purchase_date", .number(L.at(1))),
                        ("expires_date", .number(L.at(400))),
                    ]
                ]))
        #expect(Self.product(life, Self.yearly, at: L.at(10))?.state == .active)
        guard case .success(let later) = life.status(at: L.at(30)) else {
            Issue.record("mixed apps")
            return
        }
        #expect(later.products.isEmpty)
        #expect(later.documents.first?.use == .notCounted)
        #expect(later.documents.first?.problem == "receipt-expired")
    }

    /// Renewal info of the product a subscription was upgraded from, signed before the upgrade, speaks of that
    /// product's period: it names no renewal of the new one (a support engineer's trial: "renews to monthly" after an
    /// upgrade to yearly).
    @Test func renewalInfoFromBeforeAnUpgradeSaysNothingOfTheNewProduct() throws {
        var life = Lifecycle()
        life.add(
            "monthly.json",
            try L.notification(
                "SUBSCRIBED", "INITIAL_BUY", signed: L.at(0),
                transaction: try L.transaction(
                    "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)),
                renewal: try L.renewal(original: "100", product: Self.monthly, signed: L.at(0))))
        life.add(
            "yearly.jws",
            try L.transaction(
                "101", original: "100", product: Self.yearly, purchased: L.at(15), expires: L.at(380), signed: L.at(15))
        )
        let yearly = Self.product(life, Self.yearly, at: L.at(20))
        #expect(yearly?.state == .active)
        #expect(yearly?.renewsTo == nil)
        #expect(yearly?.autoRenew == nil)
    }

    /// A refund taken from a later statement is credited to it in the conflicts (a support engineer's trial: the
    /// refund date was credited to a document that does not state it, and the REFUND was never named).
    @Test func aRefundTakenFromALaterStatementIsCreditedToIt() throws {
        var life = Lifecycle()
        for (name, signed) in [("a.jws", L.at(1)), ("b.jws", L.at(2))] {
            life.add(
                name,
                try L.transaction(
                    "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: signed))
        }
        life.add(
            "refund.jws",
            try L.transaction(
                "100", product: Self.monthly, purchased: L.at(0), expires: L.at(30), revoked: L.at(9), reason: 1,
                signed: L.at(10)))
        guard case .success(let status) = life.status(at: L.at(5)) else {
            Issue.record("mixed apps")
            return
        }
        let conflict = status.conflicts.first { $0.claim == "revocation" }
        #expect(conflict?.used.evidence.document == "refund.jws", "\(status.conflicts)")
    }

    /// A document that could not be read says why in the reader's words, not only a code (a support engineer's
    /// trial: "UNREADABLE … input-ambiguous", and nothing on what to do).
    @Test func anUnreadableDocumentSaysWhatToDo() throws {
        let one = try L.subscribed("100", product: Self.monthly)
        let two = try L.subscribed("200", product: Self.yearly)
        var life = Lifecycle()
        life.add("pasted.txt", "INFO " + one + "\nINFO " + two + "\n")
        guard case .success(let status) = life.status(at: L.at(1)) else {
            Issue.record("mixed apps")
            return
        }
        #expect(status.documents.first?.use == .unreadable)
        #expect(status.documents.first?.note?.contains("paste the one you mean") == true, "\(status.documents)")
    }
}

/// The parts of a compact JWS, for tests that edit a signed payload and sign it again.
enum JWSPart {
    static func payload(of token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var text = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text).map { String(decoding: $0, as: UTF8.self) }
    }

}
