import ReceiptJSON
import ReceiptModel
import ReceiptValidation
import ReceiptVerifyReceipt

/// Apple's verifyReceipt endpoint, offline: the answer to one posted body under a scenario. The receipt is judged as
/// `rcpt verify` judges it, with the endpoint's environment expected (so a sandbox receipt posted to production
/// answers 21007, as Apple's does); the scenario then edits the answer.
package struct VerifyReceiptStandIn: Sendable {
    /// Which of Apple's two endpoints was called: `buy.itunes.apple.com` or `sandbox.itunes.apple.com`.
    package enum Endpoint: String, Sendable, Hashable {
        case production
        case sandbox

        var environment: ReceiptEnvironment { self == .production ? .production : .sandbox }
    }

    /// Trust anchors and evaluation time for the posted receipts.
    package var options: InspectionOptions
    /// The bundle id the `other-bundle-id` scenario writes.
    package static let otherBundleID = "com.example.other-app"
    /// How long the genuine answer's server state keeps a subscription active after the request.
    static let renewalMilliseconds: Int64 = 30 * 86_400_000

    package init(options: InspectionOptions) { self.options = options }

    /// The answer to `body` posted to `endpoint` at `requestDate` under `scenario`.
    package func answer(
        _ body: [UInt8], at endpoint: Endpoint, scenario: VerifyReceiptScenario, requestDate: AppleDate
    ) -> StandInAnswer {
        switch scenario.answer {
        case .httpError(let status):
            return StandInAnswer(
                httpStatus: status, contentType: "text/plain", body: Array("Service Unavailable\n".utf8),
                summary: "HTTP \(status)")
        case .notJSON:
            return StandInAnswer(
                httpStatus: 200, contentType: "text/html",
                body: Array("<html><body><h1>Please sign in to the network</h1></body></html>\n".utf8),
                summary: "HTML, not JSON")
        case .status(let code) where code != 21006:
            var members: [(String, ResponseValue)] = [("status", .number(Int64(code)))]
            if (21100...21199).contains(code) { members.append(("is-retryable", .bool(true))) }
            return Self.json(.object(members), appleStatus: code)
        case .literal(let body, let status):  // read once, when the scenario was made
            return StandInAnswer(
                httpStatus: 200, contentType: "application/json", body: body, summary: scenario.summary,
                appleStatus: status)
        case .sandboxRetry where endpoint == .production:
            return Self.json(
                .object([("status", .number(Int64(VerifyReceiptStatus.sandboxReceiptSentToProduction)))]),
                appleStatus: VerifyReceiptStatus.sandboxReceiptSentToProduction)
        default:
            break
        }
        guard let receiptData = Self.receiptData(body) else {
            return Self.json(
                .object([("status", .number(Int64(VerifyReceiptStatus.malformed)))]),
                appleStatus: VerifyReceiptStatus.malformed, note: "the body is not JSON with a receipt-data string")
        }
        var options = self.options
        // Only the genuine answer depends on the endpoint's environment (21007 for a sandbox receipt posted to
        // production, as at Apple); an edited answer is the same at both, so that it tests what it edits whatever
        // the receipt's environment.
        if scenario.answer == .genuine { options.expectations.environment = endpoint.environment }
        // The whole body is judged, as `rcpt verify` judges it: a body naming receipt-data twice, in another case or
        // spelling, is refused there (21002), not answered for whichever copy a reader keeps.
        guard let inspection = Inspector.inspect(body, options: options).receipt else {
            return Self.json(
                .object([("status", .number(Int64(VerifyReceiptStatus.malformed)))]),
                appleStatus: VerifyReceiptStatus.malformed, note: "receipt-data is not a receipt")
        }
        let response = VerifyReceiptResponse(inspection, requestDate: requestDate)
        guard response.status.code == VerifyReceiptStatus.valid, case .object(var members) = response.tree() else {
            return Self.json(response.tree(), appleStatus: response.status.code, note: response.status.reason)
        }
        if case .status(let code) = scenario.answer {  // 21006: the receipt decoded, and the status.
            members = members.map { $0.0 == "status" ? ("status", .number(Int64(code))) : $0 }
            return Self.json(.object(members), appleStatus: code)
        }
        let receipt = members.first { $0.0 == "receipt" }?.1
        var inApp = Self.array(Self.member("in_app", of: receipt))
        var latest = ServerState.latestReceiptInfo(inApp, renewedAfter: requestDate)
        switch scenario.answer {
        case .otherBundleID:
            members = Self.replacing("receipt", in: members) { receipt in
                Self.setting("bundle_id", to: .string(Self.otherBundleID), in: receipt)
            }
        case .noPurchases:
            inApp = []
            latest = []
            members = Self.replacing("receipt", in: members) { receipt in
                Self.setting("in_app", to: .array([]), in: receipt)
            }
        case .subscriptionLapsed:
            latest = ServerState.latestReceiptInfo(inApp, lapsedBefore: requestDate)
        default:
            break
        }
        if !latest.isEmpty || Self.hasSubscription(inApp) {
            members.append(("latest_receipt_info", .array(latest)))
            members.append(("latest_receipt", .string(receiptData)))
        }
        return Self.json(.object(members), appleStatus: VerifyReceiptStatus.valid)
    }

    /// The `receipt-data` string of a verifyReceipt request body, nil when the body is not such JSON.
    static func receiptData(_ body: [UInt8]) -> String? {
        let limits = JSONLimits(maximumDepth: 16, maximumNodes: 10_000, maximumSize: body.count)
        guard let document = try? JSONDocument.read(body, limits: limits), document.nodes.first?.kind == .object,
            let node = document.member("receipt-data", of: document.root)
        else { return nil }
        return document.string(node)
    }

    static func json(_ value: ResponseValue, appleStatus: Int, note: String? = nil) -> StandInAnswer {
        StandInAnswer(
            httpStatus: 200, contentType: "application/json", body: AppleWireJSON.bytes(value) + [0x0A],
            summary: "status \(appleStatus)" + (note.map { " (\($0))" } ?? ""), appleStatus: appleStatus)
    }

    static func member(_ name: String, of value: ResponseValue?) -> ResponseValue? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.0 == name }?.1
    }

    static func array(_ value: ResponseValue?) -> [ResponseValue] {
        guard case .array(let elements) = value else { return [] }
        return elements
    }

    static func hasSubscription(_ records: [ResponseValue]) -> Bool {
        records.contains { member("expires_date_ms", of: $0) != nil }
    }

    static func replacing(
        _ name: String, in members: [(String, ResponseValue)], with edit: (ResponseValue) -> ResponseValue
    ) -> [(String, ResponseValue)] {
        members.map { $0.0 == name ? (name, edit($0.1)) : $0 }
    }

    static func setting(_ name: String, to value: ResponseValue, in object: ResponseValue) -> ResponseValue {
        guard case .object(let members) = object else { return object }
        return .object(members.map { $0.0 == name ? (name, value) : $0 })
    }
}
