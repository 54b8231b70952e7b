import Foundation
import ReceiptDiagnostics
import ReceiptInput
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// What a third red team found (session 24): a verifyReceipt body or a PEM text that holds a second, different
/// receipt was read for its first one, so a forged receipt beside a genuine one passed for whichever reader takes
/// the other. Every such input is refused (`input-ambiguous`, or `json-duplicate-receipt-data` for a member named
/// twice, in any case); the same receipt given twice is read.
@Suite("Receipt bodies and PEM texts holding two receipts")
struct ReceiptBodyAmbiguityTests {
    /// A genuine receipt and a copy with one byte changed, in base64 (the classifier's own fixtures).
    static let g = ClassifierAmbiguityTests.g
    static let f = ClassifierAmbiguityTests.f

    static func pem(_ base64: String) -> String {
        var lines: [Substring] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(rest.prefix(64))
            rest = rest.dropFirst(64)
        }
        return "-----BEGIN PKCS7-----\n" + lines.joined(separator: "\n") + "\n-----END PKCS7-----\n"
    }

    /// The code of the error that stopped reading `text`, or nil when it was read.
    static func readError(_ text: String) throws -> String? {
        let classified = InputClassifier.classify(Array(text.utf8))
        #expect(classified.holdsDocuments, "a document was found")
        if let refusal = classified.refusal { return refusal.code }
        let inspection = ReceiptInspector.inspect(
            classified.bytes, options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
        return inspection.readError?.code
    }

    static let twoReceipts: [(String, String)] = [
        ("latest_receipt beside receipt-data", #"{"status":0,"latest_receipt":"\#(f)","receipt-data":"\#(g)"}"#),
        ("a receipt-data nested beside the top-level one", #"{"receipt-data":"\#(g)","x":{"receipt-data":"\#(f)"}}"#),
        ("another receipt in any string of the body", #"{"receipt-data":"\#(g)","note":["\#(f)"]}"#),
        ("two PEM blocks", pem(g) + pem(f)),
        ("two base64 lines", g + "\n" + f + "\n"),
        ("a PEM block and base64 after it", pem(g) + "\n" + f + "\n"),
        (
            "a receipt beside a notification's token",
            #"{"signedPayload":"\#(ClassifierAmbiguityTests.token)","receipt-data":"\#(g)"}"#
        ),
        (
            "a receipt beside an API response's tokens",
            #"{"signedTransactions":["\#(ClassifierAmbiguityTests.token)"],"note":"\#(g)"}"#
        ),
    ]

    @Test(arguments: twoReceipts.map(\.0))
    func aSecondReceiptIsRefused(_ name: String) throws {
        let text = try #require(Self.twoReceipts.first { $0.0 == name }?.1)
        #expect(try Self.readError(text) == "input-ambiguous", "\(name)")
    }

    /// Go's and .NET's JSON readers match a member's name without regard to case, and take the last copy.
    @Test func aReceiptMemberNamedAgainInAnotherCaseIsRefused() throws {
        for body in [
            #"{"receipt-data":"\#(Self.g)","Receipt-Data":"\#(Self.f)"}"#,
            #"{"RECEIPT-DATA":"\#(Self.g)","receipt-data":"\#(Self.g)"}"#,
            #"{"status":0,"latest_receipt":"\#(Self.g)","Latest_Receipt":"\#(Self.f)"}"#,
        ] {
            #expect(try Self.readError(body) == "json-duplicate-receipt-data", "\(body.prefix(40))")
        }
    }

    /// receipt-data only below the top level is refused wherever it stands: in an object (`{"request": {…}}`) or in
    /// an array (`[{…}]`, which was dug into for its string and read; a trial of session 27).
    @Test func aReceiptDataOnlyNestedIsRefusedInAnArrayToo() throws {
        for body in [#"{"request":{"receipt-data":"\#(Self.g)"}}"#, #"[{"receipt-data":"\#(Self.g)"}]"#] {
            #expect(try Self.readError(body) == "json-receipt-data-nested", "\(body.prefix(30))")
        }
    }

    @Test func theSameReceiptGivenTwiceIsRead() throws {
        for text in [
            Self.pem(Self.g) + Self.pem(Self.g), Self.pem(Self.g) + "\n" + Self.g + "\n",
            #"{"receipt-data":"\#(Self.g)","latest_receipt":"\#(Self.g)"}"#,
            "Subject: a receipt\n" + Self.pem(Self.g) + "Sent from my phone\n",
            Self.g + "\n" + Self.g + "\n", Self.g + "\n\n" + Self.g + "\n",
        ] {
            #expect(try Self.readError(text) == nil, "\(text.prefix(40))")
        }
    }
}
