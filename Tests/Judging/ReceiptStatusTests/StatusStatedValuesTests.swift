import Foundation
import ReceiptPurchases
import ReceiptStatus
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

    static func product(_ life: Lifecycle, _ id: String, at time: Int64) -> ProductStatus? {
        guard case .success(let status) = life.status(at: time) else {
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

    @Test(arguments: ["9223372036854775808", "-5", "0", "1.5", "18446744073709551617"])
    func aQuantityThatIsNotACountIsUnknown(_ stated: String) throws {
        let status = Self.product(try Self.coins(second: stated), Self.coins, at: L.at(3))
        #expect(status?.state == .consumed)
        #expect(status?.quantity == nil)
        #expect(status?.reason?.contains("not a count") == true)
    }

    @Test func unitsPastTheLargestCountAreUnknown() throws {
        let status = Self.product(
            try Self.coins(second: String(Int64.max - 1)), Self.coins, at: L.at(3))
        #expect(status?.quantity == nil)
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

    /// A cancellation at another time is a refund (Apple's state "revoked"), whatever else the receipt holds.
    @Test func aReceiptsRefundStaysARefund() throws {
        let life = try Self.receipt(cancelled: L.at(9), yearlyBought: L.at(10))
        #expect(Self.product(life, Self.monthly, at: L.at(11))?.state == .revoked)
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
