import Foundation
import ReceiptJSON
import ReceiptValidation
import ReceiptVerifyReceipt

/// The Apple endpoints a backend calls, as one router: verifyReceipt (production at `/verifyReceipt`, sandbox at
/// `/sandbox/verifyReceipt`), the App Store Server API under `/inApps/`, and `POST /rcpt/scenario` to change the
/// verifyReceipt scenario while serving. No HTTP here: the server hands it whole requests. Thread safe; when a judge
/// reads them (`keepsRequests`), every request is kept (the latest `maximumKept`).
package final class AppleStandIn: @unchecked Sendable {
    private let verifyReceipt: VerifyReceiptStandIn
    private let serverAPI: ServerAPIStandIn
    private let clock: @Sendable () -> Int64
    private let lock = NSLock()
    private var scenario: VerifyReceiptScenario
    private var log: [StandInLogEntry] = []
    private var sequence = 0
    private let keepsRequests: Bool
    /// The most log entries kept in memory.
    static let maximumKept = 10_000

    /// A stand-in answering receipts judged with `options`, API reads from `documents`, starting with `scenario`;
    /// `clock` gives the time of each request in milliseconds since the epoch (the system's by default).
    /// `keepsRequests`: whether requests are kept for `requests(after:)` (a judge's); a stand-in that only serves
    /// keeps none.
    package init(
        options: InspectionOptions, documents: ServerAPIDocuments = ServerAPIDocuments(),
        scenario: VerifyReceiptScenario = VerifyReceiptScenario.catalogue[0], keepsRequests: Bool = true,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) {
        self.keepsRequests = keepsRequests
        verifyReceipt = VerifyReceiptStandIn(options: options)
        serverAPI = ServerAPIStandIn(documents: documents)
        self.scenario = scenario
        self.clock = clock
    }

    /// The verifyReceipt scenario now served.
    package var currentScenario: VerifyReceiptScenario {
        get { lock.withLock { scenario } }
        set { lock.withLock { scenario = newValue } }
    }

    /// The requests answered so far (the latest `maximumKept`), oldest first; none unless `keepsRequests`.
    package var requests: [StandInLogEntry] { lock.withLock { log } }

    /// The number of the latest request answered (0 before the first).
    package var latestSequence: Int { lock.withLock { sequence } }

    /// The kept requests numbered after `sequence`, oldest first.
    package func requests(after sequence: Int) -> [StandInLogEntry] {
        lock.withLock {
            // Numbers are consecutive: the ones wanted are the log's tail.
            guard let first = log.first?.sequence, sequence >= first - 1 else { return log }
            return Array(log[min(log.count, sequence - first + 1)...])
        }
    }

    /// Answers `request` and logs it.
    package func answer(_ request: StandInRequest) -> StandInLogEntry {
        let now = clock()
        let scenario = currentScenario
        return record(request, answer: route(request, scenario: scenario, now: now), scenario: scenario, at: now)
    }

    /// Logs an answer the server gave without asking the stand-in: a body over the limit, a connection over the
    /// limit, bytes that are not HTTP.
    package func record(refusal answer: StandInAnswer, method: String, path: String, bytes: Int) -> StandInLogEntry {
        record(
            StandInRequest(method: method, path: path), answer: answer, scenario: currentScenario, at: clock(),
            bytes: bytes)
    }

    private func record(
        _ request: StandInRequest, answer: StandInAnswer, scenario: VerifyReceiptScenario, at now: Int64,
        bytes: Int? = nil
    ) -> StandInLogEntry {
        lock.withLock {
            sequence += 1
            let entry = StandInLogEntry(
                sequence: sequence, milliseconds: now, method: request.method, path: request.path,
                requestBytes: bytes ?? request.body.count, scenario: scenario.name, answer: answer)
            if keepsRequests {
                // Trimmed by a tenth at a time: a long run moves the kept entries once every thousand requests.
                if log.count >= Self.maximumKept + Self.maximumKept / 10 {
                    log.removeFirst(log.count - Self.maximumKept)
                }
                log.append(entry)
            }
            return entry
        }
    }

    private func route(_ request: StandInRequest, scenario: VerifyReceiptScenario, now: Int64) -> StandInAnswer {
        switch request.path {
        case "/verifyReceipt", "/sandbox/verifyReceipt":
            let endpoint: VerifyReceiptStandIn.Endpoint = request.path == "/verifyReceipt" ? .production : .sandbox
            guard request.method == "POST" else {
                return VerifyReceiptStandIn.json(.object([("status", .number(21000))]), appleStatus: 21000)
            }
            return verifyReceipt.answer(
                request.body, at: endpoint, scenario: scenario, requestDate: AppleDate(milliseconds: now))
        case "/rcpt/scenario":
            return changeScenario(request)
        default:
            if let answer = serverAPI.answer(request, now: now) { return answer }
            return .error(
                404, code: 4_040_000,
                "rcpt serve has no endpoint \(request.method) \(request.path): it serves POST /verifyReceipt, POST /sandbox/verifyReceipt, GET /inApps/v1/transactions/ID, GET /inApps/v1|v2/history/ID, GET /inApps/v1/subscriptions/ID and POST /rcpt/scenario"
            )
        }
    }

    /// `POST /rcpt/scenario` with `{"verifyReceipt": NAME}` (a catalogue scenario) or `{"verifyReceipt": {…}}` (an
    /// answer to serve as it is): serves it from the next request on. `GET /rcpt/scenario` names the one served.
    private func changeScenario(_ request: StandInRequest) -> StandInAnswer {
        if request.method == "GET" {  // the scenario now served
            let name = currentScenario.name
            return .json(200, summary: "scenario \(name)") { json in
                json.object { json in
                    json.key("verifyReceipt")
                    json.string(name)
                }
            }
        }
        let limits = JSONLimits(maximumDepth: 64, maximumNodes: 1_000_000, maximumSize: 16 << 20)
        guard request.method == "POST", let document = try? JSONDocument.read(request.body, limits: limits),
            document.nodes.first?.kind == .object, let node = document.member("verifyReceipt", of: document.root)
        else {
            return .error(
                400, code: 4_000_000, "POST {\"verifyReceipt\": NAME} with a scenario's name, or an answer object")
        }
        let scenario: VerifyReceiptScenario
        if document.nodes[node].kind == .object {
            let body = Array(document.bytes[document.nodes[node].start..<document.nodes[node].end])
            guard let literal = VerifyReceiptScenario.literal(name: "posted answer", body: body) else {
                return .error(400, code: 4_000_002, "the answer is not a JSON object")
            }
            scenario = literal
        } else {
            let name = document.string(node) ?? document.text(node)
            guard let named = VerifyReceiptScenario.named(name) else {
                return .error(
                    400, code: 4_000_001,
                    "no scenario \(name); the scenarios are "
                        + VerifyReceiptScenario.catalogue.map(\.name).joined(separator: ", "))
            }
            scenario = named
        }
        let name = scenario.name
        currentScenario = scenario
        return .json(200, summary: "scenario \(name)") { json in
            json.object { json in
                json.key("verifyReceipt")
                json.string(name)
            }
        }
    }
}
