import Foundation
import ReceiptCrypto
import ReceiptDiff
import ReceiptMutation
import ReceiptSigning
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// A JWS input compared with itself is equal whatever it holds, and a token is itself however it is wrapped: a
/// trial found `rcpt diff` reporting a change between a file and its own copy when a member was named twice (one
/// side paired with the first of the two, the other with the last), and 68 changes between a notification and the
/// same token in a `{"signedPayload": …}` body.
@Suite("Equal JWS: every catalogue mutation against itself, and a token in any wrapping")
struct JWSEqualityTests {
    static let kit: MutationKit? = TestReceipts.jwsAuthorities("jws diff").map {
        MutationKit(authority: $0.own, foreign: $0.foreign, deviceID: [])
    }

    static func inspected(_ bytes: [UInt8]) throws -> JWSInspection {
        let options = InspectionOptions(anchors: TrustAnchors([try #require(kit).authority.root]))
        return JWSInspector.inspect(bytes, options: options)
    }

    static func diff(_ a: [UInt8], _ b: [UInt8]) throws -> DiffResult {
        JWSComparison.compare(
            JWSDiffInput(name: "a", inspection: try inspected(a)),
            JWSDiffInput(name: "b", inspection: try inspected(b)), options: DiffOptions(encoding: true))
    }

    @Test(arguments: JWSMutationCatalogue.all.map(\.name))
    func everyMutationEqualsItself(_ name: String) throws {
        let kit = try #require(Self.kit)
        let mutation = try #require(JWSMutationCatalogue.all.first { $0.name == name })
        for source in [
            "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws",
            "Corpus/jws/gopay-notif-CONSUMPTION_REQUEST-production.jws",
        ] {
            guard let bytes = try? mutation.apply(to: Fixtures.bytes(source), kit: kit) else { continue }
            let result = try Self.diff(bytes, bytes)
            #expect(result.isEqual, "\(name) on \(source): \(result.changes.prefix(3).map(\.path.description))")
        }
    }

    @Test func aTokenEqualsItselfInANotificationBody() throws {
        let token = String(decoding: Fixtures.bytes("Corpus/jws/imdhemy-notif-TEST-sandbox.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let body = Array(#"{"signedPayload":"\#(token)"}"#.utf8)
        let result = try Self.diff(body, Array(token.utf8))
        #expect(result.isEqual, "\(result.changes.prefix(3).map(\.path.description))")
        // A change is still seen through the wrapping.
        let other = Fixtures.bytes("Corpus/jws/gopay-notif-DID_RENEW-sandbox.jws")
        #expect(try !Self.diff(body, other).isEqual)
    }

    /// Unsigned members beside a genuine notification's token bind it to another app: verify says invalid, and a
    /// diff with the bare body said "equal" (a red team's trial, session 29). The verdict is compared.
    @Test func anUnsignedMemberThatChangesTheVerdictIsAChange() throws {
        let token = String(
            decoding: Fixtures.bytes("Corpus/jws/gopay-notif-CONSUMPTION_REQUEST-production.jws"), as: UTF8.self
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        let body = Array(#"{"signedPayload":"\#(token)"}"#.utf8)
        let bound = Array(#"{"signedPayload":"\#(token)","bundleId":"com.other","environment":"Sandbox"}"#.utf8)
        let options = InspectionOptions(anchors: try TrustAnchors.appleRootG3())
        let result = JWSComparison.compare(
            JWSDiffInput(name: "a", inspection: JWSInspector.inspect(body, options: options)),
            JWSDiffInput(name: "b", inspection: JWSInspector.inspect(bound, options: options)))
        #expect(!result.isEqual)
        #expect(result.changes.first { $0.path.description == "verdict.valid" }?.new == .bool(false))
        let errors = result.changes.first { $0.path.description == "verdict.errors" }?.new
        #expect(errors == .list([.word("jws-binding-mismatch")]), "\(String(describing: errors))")
    }
}
