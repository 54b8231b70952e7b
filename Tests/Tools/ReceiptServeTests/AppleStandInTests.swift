import Foundation
import ReceiptJSON
import ReceiptServe
import ReceiptTestSupport
import ReceiptValidation
import ReceiptVerifyReceipt
import Testing

/// The stand-in's answers, without a network: verifyReceipt per scenario for a real sandbox receipt, the App Store
/// Server API from real signed transactions, the router's errors and the scenario switch.
@Suite("Apple stand-in")
struct AppleStandInTests {
    /// 2026-11-29T00:00:00Z: after every subscription in the corpus has expired.
    static let now: Int64 = 1_795_910_400_000
    static let receipt = Fixtures.realReceipt("tpinappreceipt-sandbox-g5.receipt")

    static func standIn(_ scenario: String = "genuine", documents: ServerAPIDocuments = ServerAPIDocuments())
        throws -> AppleStandIn
    {
        let options = InspectionOptions(anchors: try TrustAnchors.appleRoot())
        return AppleStandIn(
            options: options, documents: documents, scenario: try #require(VerifyReceiptScenario.named(scenario)),
            clock: { now })
    }

    static var body: [UInt8] {
        Array("{\"receipt-data\":\"\(Data(receipt).base64EncodedString())\"}".utf8)
    }

    static func post(_ standIn: AppleStandIn, _ path: String, _ body: [UInt8] = body) throws -> JSONDocument {
        let entry = standIn.answer(StandInRequest(method: "POST", path: path, body: body))
        return try JSONDocument.read(entry.answer.body)
    }

    static func status(_ document: JSONDocument) -> String? {
        document.member("status", of: document.root).map { document.text($0) }
    }

    static func text(_ document: JSONDocument, _ path: [String]) -> String? {
        var node = document.root
        for name in path {
            guard let next = document.member(name, of: node) else { return nil }
            node = next
        }
        return document.string(node) ?? document.text(node)
    }

    /// The latest expiry in latest_receipt_info, in milliseconds.
    static func latestExpiry(_ document: JSONDocument) -> Int64? {
        guard let latest = document.member("latest_receipt_info", of: document.root) else { return nil }
        return document.children(of: latest).compactMap { record in
            document.member("expires_date_ms", of: record).flatMap { document.string($0) }.flatMap { Int64($0) }
        }.max()
    }

    @Test("a sandbox receipt is 21007 at production and 0 at sandbox, renewed past the request")
    func genuine() throws {
        let standIn = try Self.standIn()
        #expect(Self.status(try Self.post(standIn, "/verifyReceipt")) == "21007")
        let answer = try Self.post(standIn, "/sandbox/verifyReceipt")
        #expect(Self.status(answer) == "0")
        #expect(Self.text(answer, ["receipt", "bundle_id"]) == "dev.bonzer.weeka.app")
        let expiry = try #require(Self.latestExpiry(answer))
        #expect(expiry > Self.now)
        #expect(Self.text(answer, ["latest_receipt"]) == Data(Self.receipt).base64EncodedString())
    }

    @Test("each edited scenario changes what it says and nothing else")
    func editedScenarios() throws {
        let other = try Self.post(try Self.standIn("other-bundle-id"), "/sandbox/verifyReceipt")
        #expect(Self.status(other) == "0")
        #expect(Self.text(other, ["receipt", "bundle_id"]) == VerifyReceiptStandIn.otherBundleID)

        let none = try Self.post(try Self.standIn("no-purchases"), "/sandbox/verifyReceipt")
        let receipt = try #require(none.member("receipt", of: none.root))
        let inApp = try #require(none.member("in_app", of: receipt))
        #expect(none.children(of: inApp).isEmpty)
        #expect(none.member("latest_receipt_info", of: none.root) == nil)

        // The same at production, whatever the receipt's environment: the edit is what is tested.
        let atProduction = try Self.post(try Self.standIn("other-bundle-id"), "/verifyReceipt")
        #expect(Self.status(atProduction) == "0")
        #expect(Self.text(atProduction, ["receipt", "bundle_id"]) == VerifyReceiptStandIn.otherBundleID)

        let lapsed = try Self.post(try Self.standIn("subscription-lapsed"), "/sandbox/verifyReceipt")
        #expect(try #require(Self.latestExpiry(lapsed)) < Self.now)
        #expect(Self.text(lapsed, ["receipt", "bundle_id"]) == "dev.bonzer.weeka.app")
    }

    @Test("status scenarios answer their code at either endpoint; 21006 with the receipt, 211xx retryable")
    func statusScenarios() throws {
        for code in VerifyReceiptScenario.statusCodes.map(\.code) {
            let standIn = try Self.standIn("status-\(code)")
            for path in ["/verifyReceipt", "/sandbox/verifyReceipt"] {
                let answer = try Self.post(standIn, path)
                #expect(Self.status(answer) == String(code), "\(code) at \(path)")
                #expect((answer.member("receipt", of: answer.root) != nil) == (code == 21006), "\(code)")
                #expect((answer.member("is-retryable", of: answer.root) != nil) == (code >= 21100), "\(code)")
            }
        }
    }

    @Test("sandbox-retry: 21007 at production whatever the receipt, valid at sandbox")
    func sandboxRetry() throws {
        let standIn = try Self.standIn("sandbox-retry")
        #expect(Self.status(try Self.post(standIn, "/verifyReceipt")) == "21007")
        #expect(Self.status(try Self.post(standIn, "/sandbox/verifyReceipt")) == "0")
    }

    @Test("what Apple answers a bad request: 21002 for a body that is not receipt-data, 21000 for a GET")
    func badRequests() throws {
        let standIn = try Self.standIn()
        for body in ["", "{", "[]", "{\"receipt-data\": 5}", "{\"receipt-data\": \"AAAA\"}", "\u{0}\u{1}"] {
            #expect(Self.status(try Self.post(standIn, "/verifyReceipt", Array(body.utf8))) == "21002", "\(body)")
        }
        let get = standIn.answer(StandInRequest(method: "GET", path: "/verifyReceipt"))
        #expect(String(decoding: get.answer.body, as: UTF8.self).contains("21000"))
    }

    /// A body naming receipt-data more than once (twice, in another case or an escaped spelling) is judged as `rcpt verify` judges it: refused, 21002, whichever copy holds the genuine receipt. The
    /// stand-in once answered 0 for the last copy (a trial of session 27), teaching a backend that ambiguous bodies
    /// pass.
    @Test("a body naming receipt-data twice is 21002, as rcpt verify says, whichever copy is genuine")
    func ambiguousBodies() throws {
        let standIn = try Self.standIn()
        let genuine = Data(Self.receipt).base64EncodedString()
        for body in [
            "{\"receipt-data\":\"AAAA\",\"receipt-data\":\"\(genuine)\"}",
            "{\"receipt-data\":\"\(genuine)\",\"receipt-data\":\"\(genuine)\"}",
            "{\"Receipt-Data\":\"AAAA\",\"receipt-data\":\"\(genuine)\"}",
            "{\"receipt\\u002ddata\":\"AAAA\",\"receipt-data\":\"\(genuine)\"}",
            "{\"receipt-data\":null,\"receipt-data\":\"\(genuine)\"}",
        ] {
            let bytes = Array(body.utf8)
            let inspection = Inspector.inspect(bytes, options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
            let verified = VerifyReceiptResponse(
                try #require(inspection.receipt), requestDate: AppleDate(milliseconds: Self.now))
            #expect(verified.status.code == 21002, "\(body.prefix(40))")
            #expect(
                Self.status(try Self.post(standIn, "/sandbox/verifyReceipt", bytes)) == "21002", "\(body.prefix(40))")
        }
        #expect(Self.status(try Self.post(standIn, "/sandbox/verifyReceipt")) == "0")
    }

    @Test("unavailable scenarios answer HTTP errors and HTML")
    func unavailable() throws {
        let down = try Self.standIn("http-503").answer(StandInRequest(method: "POST", path: "/verifyReceipt"))
        #expect(down.answer.httpStatus == 503)
        let html = try Self.standIn("not-json").answer(
            StandInRequest(method: "POST", path: "/verifyReceipt", body: Self.body))
        #expect(html.answer.httpStatus == 200)
        #expect((try? JSONDocument.read(html.answer.body)) == nil)
    }

    @Test("POST /rcpt/scenario changes the scenario; an unknown name is refused with the list")
    func scenarioSwitch() throws {
        let standIn = try Self.standIn()
        let changed = standIn.answer(
            StandInRequest(
                method: "POST", path: "/rcpt/scenario", body: Array(#"{"verifyReceipt":"status-21010"}"#.utf8)))
        #expect(changed.answer.httpStatus == 200)
        #expect(standIn.currentScenario.name == "status-21010")
        let current = standIn.answer(StandInRequest(method: "GET", path: "/rcpt/scenario"))
        #expect(String(decoding: current.answer.body, as: UTF8.self).contains("status-21010"))
        #expect(Self.status(try Self.post(standIn, "/verifyReceipt")) == "21010")
        let unknown = standIn.answer(
            StandInRequest(method: "POST", path: "/rcpt/scenario", body: Array(#"{"verifyReceipt":"nope"}"#.utf8)))
        #expect(unknown.answer.httpStatus == 400)
        #expect(String(decoding: unknown.answer.body, as: UTF8.self).contains("sandbox-retry"))
        #expect(standIn.currentScenario.name == "status-21010")
        #expect(standIn.requests.map(\.sequence) == [1, 2, 3, 4])
        #expect(standIn.requests(after: 2).map(\.sequence) == [3, 4])
        #expect(standIn.requests(after: 4).isEmpty)
        #expect(standIn.requests(after: 0).map(\.sequence) == [1, 2, 3, 4])
        #expect(standIn.latestSequence == 4)
    }

    @Test("a stand-in that only serves keeps no requests, and still numbers them")
    func servingKeepsNothing() throws {
        let standIn = AppleStandIn(
            options: InspectionOptions(anchors: try TrustAnchors.appleRoot()), keepsRequests: false)
        for _ in 0..<3 { _ = standIn.answer(StandInRequest(method: "GET", path: "/rcpt/scenario")) }
        #expect(standIn.requests.isEmpty)
        #expect(standIn.latestSequence == 3)
        #expect(standIn.requests(after: 0).isEmpty)
    }

    @Test("an unknown path is 404 naming what is served")
    func unknownPath() throws {
        let entry = try Self.standIn().answer(StandInRequest(method: "GET", path: "/inApps/v1/notifications/test"))
        #expect(entry.answer.httpStatus == 404)
        #expect(String(decoding: entry.answer.body, as: UTF8.self).contains("POST /verifyReceipt"))
    }
}

/// Answers of the user's own: a scenario file's JSON object, or one posted to `/rcpt/scenario`, served as it is.
@Suite("Stand-in literal answers")
struct LiteralAnswerTests {
    @Test("a posted answer object is served byte for byte at both endpoints; a non-object is refused")
    func postedAnswer() throws {
        let standIn = try AppleStandInTests.standIn()
        let answer = #"{"status":0,"receipt":{"bundle_id":"com.example.own","in_app":[]},"environment":"Production"}"#
        let changed = standIn.answer(
            StandInRequest(
                method: "POST", path: "/rcpt/scenario", body: Array(#"{"verifyReceipt":\#(answer)}"#.utf8)))
        #expect(changed.answer.httpStatus == 200)
        for path in ["/verifyReceipt", "/sandbox/verifyReceipt"] {
            let entry = standIn.answer(StandInRequest(method: "POST", path: path, body: AppleStandInTests.body))
            #expect(String(decoding: entry.answer.body, as: UTF8.self) == answer)
            #expect(entry.answer.appleStatus == 0)
        }
        #expect(VerifyReceiptScenario.literal(name: "x", body: Array("[1]".utf8)) == nil)
        #expect(VerifyReceiptScenario.literal(name: "x", body: Array("{".utf8)) == nil)
    }
}
