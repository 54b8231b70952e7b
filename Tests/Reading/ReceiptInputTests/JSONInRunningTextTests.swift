import ReceiptDiagnostics
import ReceiptInput
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// What a red team found (session 39): the judgement of a JSON body depended on what stood before it in the text.
/// From the fifth `{` of a log line on, no opening was tried as JSON, so the receipt inside a body was read bare and
/// the body's refusals went unseen (a duplicated receipt-data, a response naming another app: valid); an array body
/// was never tried; a body nested past the classifier's JSON depth yet within the verifyReceipt reader's went half
/// read; a form's one receipt in a field of another name was refused; and short lines of `MI…` cost a look to the end
/// of the text each.
@Suite("JSON bodies judged the same wherever they stand in a text")
struct JSONInRunningTextTests {
    static let g = ClassifierAmbiguityTests.g
    static let f = ClassifierAmbiguityTests.f
    static let token = ClassifierAmbiguityTests.token

    static let bodies = [
        #"[{"receipt-data":"\#(g)"}]"#,
        #"{"receipt-data":"\#(g)","Receipt-Data":"\#(f)"}"#,
        #"{"signedPayload":"\#(token)","receipt-data":"\#(g)"}"#,
        #"{"status":21003,"latest_receipt":"\#(g)"}"#,
    ]

    static let before = [
        "", "INFO {\"a\":1} {\"b\":2} {\"c\":3} {\"d\":4} {\"e\":5} body ", "[req 42] [INFO] got ",
        "{{ template }} {unclosed and then ",
    ]

    /// The refusal, the read error, or the error findings of `text`'s document.
    static func judgement(_ text: String) throws -> String {
        let classified = InputClassifier.classify(Array(text.utf8))
        if let refusal = classified.refusal { return refusal.code }
        let inspection = ReceiptInspector.inspect(
            classified.bytes, options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
        if let error = inspection.readError { return error.code }
        return inspection.findings.filter { $0.severity == .error }.map(\.code).sorted().joined(separator: ",")
    }

    @Test("a body's refusal holds after any text", arguments: bodies.indices, before.indices)
    func refusalHoldsAfterText(body: Int, prefix: Int) throws {
        let alone = try Self.judgement(Self.bodies[body])
        #expect(!alone.isEmpty)
        #expect(try Self.judgement(Self.before[prefix] + Self.bodies[body]) == alone)
    }

    @Test("a body nested past the JSON depth is refused, whatever reader would take it")
    func deepBody() throws {
        for depth in [127, 200, 600] {
            let nested = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
            let body = #"{"receipt-data":"\#(Self.g)","signedPayload":"\#(Self.token)","x":\#(nested)}"#
            #expect(try ReceiptBodyAmbiguityTests.readError(body) != nil, "depth \(depth)")
        }
    }

    /// A reviewer's trial: the members a reader judges after a part nested past the limit went unseen, and the
    /// receipt was read bare (a response's status 21003: valid).
    @Test("a response nested past the JSON depth before its receipt is refused, alone or after text")
    func deepBeforeTheReceipt() throws {
        let nested = String(repeating: "[", count: 130) + String(repeating: "]", count: 130)
        let body = #"{"status":21003,"pad":\#(nested),"latest_receipt":"\#(Self.g)"}"#
        for text in [body, "got: " + body, #"{"a":1} "# + body] {
            #expect(try !Self.judgement(text).isEmpty, "\(text.prefix(20))")
        }
    }

    /// A reviewer's trial: log lines cut short (an unclosed object and string each) before a genuine receipt spent
    /// the scans' budget, and the receipt was refused.
    @Test("log lines cut short cost their own line")
    func truncatedLogLines() throws {
        let cut = #"Dec 1 app[123]: {"event":"request","ctx":{"user":42,"items":[{"id":1,"note":"xxx [truncated]"#
        let whole = #"Dec 1 app[123]: {"event":"ok","ctx":{"user":42,"items":[{"id":1}]}}"#
        let log =
            Array(repeating: cut, count: 30).joined(separator: "\n") + "\n"
            + Array(repeating: whole, count: 2_000).joined(separator: "\n") + "\nreceipt-data " + Self.g + "\n"
        #expect(try ReceiptBodyAmbiguityTests.readError(log) == nil)
    }

    @Test("a form's one receipt is read in a field of any name; a second one is ambiguous")
    func formField() throws {
        #expect(try ReceiptBodyAmbiguityTests.readError("receipt=\(Self.g)&user=42") == nil)
        #expect(try ReceiptBodyAmbiguityTests.readError("receipt=\(Self.g)&other=\(Self.f)") == "input-ambiguous")
    }

    @Test("openings a scan settles cost nothing more; past the budget, a document after them is refused")
    func unclosedOpenings() throws {
        // Openings one scan settles: none closes, so none is a body, and the receipt after them is read.
        let unclosed = String(repeating: "{", count: 100_000) + " " + Self.g
        #expect(try ReceiptBodyAmbiguityTests.readError(unclosed) == nil)
        // Openings each inside a string as every scan before it reads the text: each needs a scan of its own to the
        // end, and past the budget the receipt after them is refused, never read bare.
        let unsettled = String(repeating: "\"\"\\\"{", count: 20_000) + " " + Self.g
        #expect(try ReceiptBodyAmbiguityTests.readError(unsettled) == "input-ambiguous")
        // Balanced log objects before it cost their own length, and the document is read.
        let log = String(repeating: #"{"level":"info","n":[1,2,3]} "#, count: 5_000) + Self.g
        #expect(try ReceiptBodyAmbiguityTests.readError(log) == nil)
    }

    @Test("short lines of MI are no document")
    func shortBase64Lines() {
        let text = "hello:\n" + String(repeating: "MIA\nMI\n", count: 20_000)
        let classified = InputClassifier.classify(Array(text.utf8))
        #expect(!classified.isDocument)
    }
}
