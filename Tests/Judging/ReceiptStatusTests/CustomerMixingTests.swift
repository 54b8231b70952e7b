import ReceiptPurchases
import ReceiptStatus
import Testing

/// Documents of two customers given as one's: one Apple account has one subscription a group (its original
/// transaction id kept through renewals, upgrades and resubscribing), so a second subscription of the group beside
/// it — another customer's genuine token replayed — makes the status answer for no one (a red team's trial:
/// another customer's active subscription made an expired customer "ACTIVE", granted).
@Suite("Status: documents of more than one customer")
struct CustomerMixingTests {
    typealias L = Lifecycle
    static let monthly = "com.example.lifecycle.monthly"
    static let yearly = "com.example.lifecycle.yearly"

    static func products(_ life: Lifecycle, at time: Int64) -> [ProductStatus] {
        guard case .success(let status) = life.status(at: time) else {
            Issue.record("mixed apps")
            return []
        }
        return status.products
    }

    @Test func anotherCustomersSubscriptionOfTheGroupIsNotGranted() throws {
        var life = Lifecycle()
        life.add(
            "mine.jws",
            try L.transaction("400", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        // Alone, the customer's own subscription has ended by day 40 (whether it renewed is not known).
        #expect(Self.products(life, at: L.at(40)).map(\.state) == [.unknown])
        // Another account's subscription of the same group, another product, active on day 40.
        life.add(
            "theirs.jws",
            try L.transaction("900", product: Self.yearly, purchased: L.at(35), expires: L.at(400), signed: L.at(35)))
        let products = Self.products(life, at: L.at(40))
        #expect(products.count == 2)
        for product in products {
            #expect(!product.grantsService, "\(product.productID) granted beside another customer's subscription")
            #expect(product.otherCustomers == [product.originalTransactionID == "400" ? "900" : "400"])
        }
        #expect(products.first { $0.productID == Self.yearly }?.state == .active)
    }

    @Test func anotherCustomersSubscriptionOfTheSameProductIsNotGranted() throws {
        var life = Lifecycle()
        life.add(
            "mine.jws",
            try L.transaction("400", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        life.add(
            "theirs.jws",
            try L.transaction("401", product: Self.monthly, purchased: L.at(35), expires: L.at(65), signed: L.at(35)))
        // Each customer's subscription is shown, neither granted: this customer's own ended one does not vanish
        // behind the other's active one (a trial's support engineer saw only the other customer's).
        let products = Self.products(life, at: L.at(40))
        #expect(products.map(\.originalTransactionID) == ["400", "401"])
        #expect(products.allSatisfy { $0.productID == Self.monthly && !$0.grantsService })
        let theirs = products.last
        #expect(theirs?.state == .active)
        #expect(theirs?.transactionID == "401")
        #expect(theirs?.otherCustomers == ["400"])
        #expect(products.first?.otherCustomers == ["401"])
        #expect(products.first?.state != .active)
    }

    /// Another customer's renewal info (another original of the product, no transaction of it) is never granted,
    /// and this customer's own subscription stays in the answer (a red team's trial: it was granted, and the
    /// customer's expired subscription vanished).
    @Test func anotherCustomersRenewalInfoIsNotGranted() throws {
        var life = Lifecycle()
        life.add(
            "mine.jws",
            try L.transaction("600", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        life.add(
            "theirs.json",
            try L.notification(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", signed: L.at(35),
                renewal: try L.renewal(original: "800", product: Self.monthly, renewalDate: L.at(65), signed: L.at(35)))
        )
        let products = Self.products(life, at: L.at(40))
        #expect(products.allSatisfy { !$0.grantsService }, "\(products)")
        #expect(products.first?.originalTransactionID == "600")
    }

    /// Originals that one receipt holds together are one account's: a receipt is signed for one, and names no
    /// ownership, so a family's record sits beside the customer's own (a red team's trial: not granted). A family
    /// member who changes family gets another original after the first ended: one customer.
    @Test func oneReceiptAndOneFamilyMembersHistoryAreOneCustomer() throws {
        func record(_ id: String, _ from: Int64, _ to: Int64) -> [(String, L.Claim)] {
            [
                ("quantity", .number(1)), ("product_id", .text(Self.monthly)), ("transaction_id", .text(id)),
                ("original_transaction_id", .text(id)), ("purchase_date", .number(from)),
                ("expires_date", .number(to)),
            ]
        }
        var receipt = Lifecycle()
        receipt.add(
            "a.receipt",
            bytes: try L.receipt(
                created: L.at(35), records: [record("1000", L.at(0), L.at(30)), record("3000", L.at(31), L.at(61))]))
        #expect(Self.products(receipt, at: L.at(40)).first?.grantsService == true)
        var family = Lifecycle()
        family.add(
            "first.jws",
            try L.transaction(
                "400", product: Self.monthly, purchased: L.at(0), expires: L.at(30), revoked: L.at(20), reason: 0,
                familyShared: true, signed: L.at(20)))
        family.add(
            "second.jws",
            try L.transaction(
                "500", product: Self.monthly, purchased: L.at(25), expires: L.at(55), familyShared: true,
                signed: L.at(25)))
        let shared = Self.products(family, at: L.at(31))
        #expect(shared.first?.grantsService == true, "\(shared)")
    }

    @Test func oneCustomersRenewalsUpgradesAndFamilySharingAreOneCustomer() throws {
        var life = Lifecycle()
        // Renewals and an upgrade keep the original; a Family-Shared subscription of the group is the family's.
        life.add(
            "first.jws",
            try L.transaction("400", product: Self.monthly, purchased: L.at(0), expires: L.at(30), signed: L.at(0)))
        life.add(
            "renewed.jws",
            try L.transaction(
                "401", original: "400", product: Self.monthly, purchased: L.at(30), expires: L.at(60), signed: L.at(30))
        )
        life.add(
            "upgraded.jws",
            try L.transaction(
                "402", original: "400", product: Self.yearly, purchased: L.at(40), expires: L.at(405), signed: L.at(40))
        )
        life.add(
            "family.jws",
            try L.transaction(
                "700", product: Self.monthly, purchased: L.at(10), expires: L.at(70), familyShared: true,
                signed: L.at(10)))
        let products = Self.products(life, at: L.at(45))
        #expect(products.allSatisfy { $0.otherCustomers.isEmpty })
        #expect(products.first { $0.productID == Self.yearly }?.grantsService == true)
        // Two Family-Shared subscriptions of one group at once: two purchasers of one family share it, and a member
        // holds both (a red team's trial had the genuine member "another customer's").
        life.add(
            "other-family.jws",
            try L.transaction(
                "800", product: Self.monthly, purchased: L.at(12), expires: L.at(72), familyShared: true,
                signed: L.at(12)))
        let both = Self.products(life, at: L.at(45))
        #expect(both.allSatisfy { $0.otherCustomers.isEmpty }, "\(both.map(\.otherCustomers))")
    }
}

/// A subscription's period that ended with nothing signed about it since: it renewed, failed or ended, and the
/// documents do not say which (a support engineer's trial: "I paid but the app says I'm not subscribed" was answered
/// EXPIRED from a renewal notification alone). A statement signed after the expiry that shows no renewal says it
/// expired.
@Suite("Status: an ended period with nothing said since")
struct EndedPeriodTests {
    typealias L = Lifecycle
    static let monthly = "com.example.lifecycle.monthly"

    @Test func isUnknownUntilAStatementSignedSinceShowsNoRenewal() throws {
        var life = Lifecycle()
        life.add(
            "renewed.json",
            try L.notification(
                "DID_RENEW", signed: L.at(30),
                transaction: try L.transaction(
                    "101", original: "100", product: Self.monthly, purchased: L.at(30), expires: L.at(60),
                    signed: L.at(30)),
                renewal: try L.renewal(original: "100", product: Self.monthly, signed: L.at(30))))
        guard case .success(let first) = life.status(at: L.at(70)) else {
            Issue.record("mixed apps")
            return
        }
        #expect(first.products.first?.state == .unknown)
        #expect(first.products.first?.reason?.contains("give the transaction history") == true)
        // The history fetched on day 75 lists no renewal: it expired.
        life.add(
            "history.json",
            L.history([
                try L.transaction(
                    "101", original: "100", product: Self.monthly, purchased: L.at(30), expires: L.at(60),
                    signed: L.at(75))
            ]))
        // Renewal info signed after the period's end dating a later purchase: it renewed; whether the later period
        // had begun at a time before the signing is not known (a red team's trial: EXPIRED).
        var renewed = Lifecycle()
        renewed.add("renewed.json", bytes: life.documents[0].bytes)
        renewed.add(
            "renewal.jws",
            try L.renewal(original: "100", product: Self.monthly, renewalDate: L.at(90), signed: L.at(65)))
        guard case .success(let between) = renewed.status(at: L.at(62)) else {
            Issue.record("mixed apps")
            return
        }
        #expect(between.products.first?.state == .unknown)
        #expect(between.products.first?.reason?.contains("later purchase") == true)
        guard case .success(let later) = life.status(at: L.at(70)) else {
            Issue.record("mixed apps")
            return
        }
        #expect(later.products.first?.state == .expired)
    }
}
