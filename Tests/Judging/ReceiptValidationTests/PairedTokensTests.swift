import Foundation
import ReceiptDiagnostics
import ReceiptModel
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

    /// A response's renewal info is bound to the app by the transaction of its subscription beside it: under
    /// `--require-binding` Apple's subscription-status response was refused, as renewal info carries no bundle id
    /// (a support engineer's trial, session 29). Alone it stays unbound.
    @Test func aPairIsBoundByItsTransaction() throws {
        var options = InspectionOptions(anchors: try TrustAnchors.appleRootG3())
        options.expectations = Expectations(bundleID: "Com.VoiceRecording.Telephone", environment: .sandbox)
        options.requiresBinding = true
        let paired = JWSInspector.inspect(
            Self.response(
                transaction: Self.token("gopay-txn-2000000184445477-sandbox.jws"),
                renewal: Self.token("gopay-renewal-2000000184445477-sandbox.jws")), options: options)
        #expect(paired.isValid, "\(paired.everyFinding.map(\.message))")
        #expect(paired.binding?.isBound == true)
        let alone = JWSInspector.inspect(
            Array(Self.token("gopay-renewal-2000000184445477-sandbox.jws").utf8), options: options)
        #expect(!alone.isValid)
        #expect(alone.binding?.isBound == false)
    }

    /// The same pair as the document's own members is judged as a pair; a history's array of transactions of two
    /// subscriptions is no pair (a review of session 29: the first grouping missed the one and paired the other).
    @Test func membersPairAndArrayElementsDoNot() throws {
        let options = InspectionOptions(anchors: try TrustAnchors.appleRootG3())
        let transaction = Self.token("gopay-txn-2000000004047119-sandbox.jws")
        let other = Self.token("gopay-txn-2000000184445477-sandbox.jws")
        let renewal = Self.token("gopay-renewal-2000000184445477-sandbox.jws")
        let members = JWSInspector.inspect(
            Array(#"{"signedTransactionInfo":"\#(transaction)","signedRenewalInfo":"\#(renewal)"}"#.utf8),
            options: options)
        #expect(members.findings.contains { $0.code == "jws-binding-mismatch" && $0.message.contains("pairs") })
        let history = JWSInspector.inspect(
            Array(#"{"data":{"signedTransactions":["\#(transaction)","\#(other)"]}}"#.utf8), options: options)
        #expect(!history.findings.contains { $0.message.contains("pairs") }, "\(history.findings.map(\.message))")
    }
}
