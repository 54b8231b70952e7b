import Foundation
import ReceiptDiagnostics
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// The tokens of one object of an unsigned API response are a pair Apple made: a subscription's last transaction and
/// its renewal info, by `originalTransactionId`. Two genuine tokens of different subscriptions (here of two apps) in
/// one `lastTransactions` entry were valid, and a backend reading the renewal info beside the transaction read
/// another subscription's (a support engineer's trial, session 29).
@Suite("Paired tokens of a response")
struct PairedTokensTests {
    static func token(_ name: String) -> String {
        String(decoding: Fixtures.bytes("Corpus/jws/\(name)"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func response(transaction: String, renewal: String) -> [UInt8] {
        Array(
            #"{"data":[{"subscriptionGroupIdentifier":"1","lastTransactions":[{"status":1,"signedTransactionInfo":"\#(transaction)","signedRenewalInfo":"\#(renewal)"}]}]}"#
                .utf8)
    }

    @Test func aPairOfTwoSubscriptionsIsInvalid() throws {
        let options = InspectionOptions(anchors: try TrustAnchors.appleRootG3())
        let mixed = JWSInspector.inspect(
            Self.response(
                transaction: Self.token("gopay-txn-2000000004047119-sandbox.jws"),
                renewal: Self.token("gopay-renewal-2000000184445477-sandbox.jws")), options: options)
        #expect(!mixed.isValid)
        #expect(mixed.findings.contains { $0.code == "jws-binding-mismatch" && $0.message.contains("pairs") })
        // The same renewal info beside its own subscription's transaction is a pair.
        let paired = JWSInspector.inspect(
            Self.response(
                transaction: Self.token("gopay-txn-2000000184445477-sandbox.jws"),
                renewal: Self.token("gopay-renewal-2000000184445477-sandbox.jws")), options: options)
        #expect(!paired.findings.contains { $0.code == "jws-binding-mismatch" }, "\(paired.findings.map(\.message))")
    }
}
