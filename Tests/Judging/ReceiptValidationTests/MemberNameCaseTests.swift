import Foundation
import ReceiptDiagnostics
import ReceiptInput
import ReceiptModel
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// Go and .NET match JSON member names without regard to case (Go's `EqualFold` also reads `ſ` as `s`), so a
/// backend in either reads `SignedTransactions` as `signedTransactions`: each place holds the kind Apple puts there
/// and the app the document names, however the name is written. A red team's trial: a genuine notification in
/// `SignedTransactions`, a transaction in `ſignedPayload`, another app in `BundleId` beside the tokens, all valid.
@Suite("Member names in any case")
struct MemberNameCaseTests {
    static func token(_ name: String) -> String {
        String(decoding: Fixtures.bytes("Corpus/jws/\(name)"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let notification = token("gopay-notif-DID_RENEW-sandbox.jws")
    static let transaction = token("gopay-txn-2000000184445477-sandbox.jws")

    static func inspect(_ json: String) throws -> Inspection {
        let bytes = Array(json.utf8)
        return Inspector.inspect(
            InputClassifier.classify(bytes), input: bytes,
            options: InspectionOptions(anchors: try TrustAnchors.appleRootG3()))
    }

    @Test(arguments: [
        #"{"SignedTransactions":["NOTIFICATION"]}"#, #"{"signedtransactions":["NOTIFICATION"]}"#,
        #"{"signedTransactions":[["NOTIFICATION"]]}"#, #"{"SignedPayload":"TRANSACTION"}"#,
        #"{"ſignedPayload":"TRANSACTION"}"#, #"{"SIGNEDPAYLOAD":"TRANSACTION"}"#,
    ])
    func aTokenOfAnotherKindIsRefusedWhateverTheCase(_ shape: String) throws {
        let json = shape.replacingOccurrences(of: "NOTIFICATION", with: Self.notification)
            .replacingOccurrences(of: "TRANSACTION", with: Self.transaction)
        let inspection = try Self.inspect(json)
        #expect(!inspection.isValid, "\(shape)")
        #expect(
            inspection.findings.contains { $0.code == "jws-kind-mismatch" },
            "\(shape): \(inspection.findings.map(\.code))")
    }

    @Test func theRightKindUnderAnotherCaseIsValid() throws {
        let inspection = try Self.inspect(#"{"SignedTransactions":["\#(Self.transaction)"]}"#)
        #expect(inspection.isValid, "\(inspection.findings.map(\.code))")
    }

    @Test(arguments: ["BundleId", "BUNDLEID", "Environment"])
    func anUnsignedNameOfAnotherAppIsCompared(_ name: String) throws {
        let value = name.lowercased() == "environment" ? "Production" : "com.example.other"
        let inspection = try Self.inspect(
            #"{"\#(name)":"\#(value)","signedTransactions":["\#(Self.transaction)"]}"#)
        #expect(!inspection.isValid, "\(name)")
        #expect(
            inspection.findings.contains { $0.code == "jws-binding-mismatch" },
            "\(name): \(inspection.findings.map(\.code))")
    }
}
