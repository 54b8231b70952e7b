import ReceiptConformance
import ReceiptHTTP
import ReceiptJSON
import ReceiptSuite
import ReceiptValidation
import ReceiptVerifyReceipt

/// How a backend handles each answer Apple's verifyReceipt can give (`rcpt serve --judge`): for every scenario the
/// stand-in serves it, the receipt is posted to the backend's purchase endpoint, and what the backend decided is
/// compared with what a careful backend decides. The genuine answer goes first: a backend that refuses it cannot
/// be judged, and the run stops there.
package struct BackendJudgement: Sendable {
    /// One scenario's result.
    package struct Result: Sendable {
        package var scenario: VerifyReceiptScenario
        package var verdict: Verdict
        /// The backend's HTTP status, when it answered.
        package var httpStatus: Int?
        /// The end of the backend's answer.
        package var answer: String
        /// The stand-in requests the backend made while deciding.
        package var calls: [StandInLogEntry]
        /// Why the verdict, in one sentence.
        package var explanation: String
        /// Who could exploit the failure, and what it costs: the scenario's, unless the backend failed in another
        /// way (a grant after an unretried 21007).
        package var attacker: Attacker
        package var threat: String
    }

    /// What the backend's decision was worth.
    package enum Verdict: String, Sendable, Hashable {
        /// As a careful backend decides.
        case pass
        /// Granted what a careful backend refuses: the worst finding.
        case falseValid = "false-valid"
        /// Refused what a careful backend grants.
        case falseInvalid = "false-invalid"
        /// Answered 5xx: an unhandled error behind the endpoint.
        case crashed
        /// No decision: unreachable, a timeout, a redirect.
        case noAnswer = "no-answer"
        /// Not run: the receipt has nothing the scenario changes (no subscription to lapse), or the genuine
        /// answer was refused.
        case skipped

        package var failed: Bool { self != .pass && self != .skipped }
    }

    package var results: [Result]

    package init(results: [Result]) { self.results = results }

    /// Whether every scenario run passed.
    package var passed: Bool { !results.contains { $0.verdict.failed } }

    /// Runs `scenarios` (the catalogue by default) with `standIn` serving, posting `receiptPath` to `backend` for
    /// each. `hasSubscription` says whether the receipt has a subscription record (else `subscription-lapsed` is
    /// skipped).
    package static func run(
        backend: HTTPTarget, receiptPath: String, standIn: AppleStandIn,
        scenarios: [VerifyReceiptScenario] = VerifyReceiptScenario.catalogue, hasSubscription: Bool
    ) -> BackendJudgement {
        var results: [Result] = []
        var baselineRefused = false
        for scenario in scenarios {
            if baselineRefused || (scenario.answer == .subscriptionLapsed && !hasSubscription) {
                let why =
                    baselineRefused
                    ? "not run: the backend did not grant the genuine answer"
                    : "not run: the receipt has no subscription whose expiry the scenario could move"
                results.append(
                    Result(
                        scenario: scenario, verdict: .skipped, httpStatus: nil, answer: "", calls: [],
                        explanation: why, attacker: scenario.attacker, threat: scenario.threat))
                continue
            }
            standIn.currentScenario = scenario
            let before = standIn.requests.last?.sequence ?? 0
            let exchange = backend.exchange(receiptPath)
            let calls = standIn.requests.filter { $0.sequence > before }
            let result = judge(scenario, exchange, calls: calls)
            results.append(result)
            if scenario.answer == .genuine && [.falseInvalid, .crashed, .noAnswer].contains(result.verdict) {
                baselineRefused = true
            }
        }
        standIn.currentScenario = VerifyReceiptScenario.catalogue[0]
        return BackendJudgement(results: results)
    }

    /// The verdict of one exchange.
    package static func judge(
        _ scenario: VerifyReceiptScenario, _ exchange: HTTPTarget.Exchange, calls: [StandInLogEntry]
    )
        -> Result
    {
        var result = Result(
            scenario: scenario, verdict: .pass, httpStatus: exchange.status, answer: exchange.body, calls: calls,
            explanation: "", attacker: scenario.attacker, threat: scenario.threat)
        let notCalled =
            "the backend never called the stand-in: is its verifyReceipt URL set to the stand-in's (--port)?"
        // Asked Apple: a call to one of the two verifyReceipt endpoints (a call elsewhere was answered 404).
        let asked = calls.contains { $0.path == "/verifyReceipt" || $0.path == "/sandbox/verifyReceipt" }
        let askedSandbox = calls.contains { $0.path == "/sandbox/verifyReceipt" }
        let toldSandbox = calls.contains { $0.answer.appleStatus == VerifyReceiptStatus.sandboxReceiptSentToProduction }
        switch (exchange.outcome, scenario.expected) {
        case (.accepted, _) where toldSandbox && !askedSandbox:
            result.verdict = .falseValid
            result.explanation =
                "granted after the production endpoint answered 21007, without asking the sandbox endpoint: it grants on a non-zero status"
            result.attacker = .anyone
            result.threat =
                "a sandbox purchase costs nothing: anyone with a sandbox tester account gets a receipt Apple answers 21007 for, and a backend that grants on it grants for free"
        case (.accepted, .accept):
            if !asked {
                result.verdict = .falseValid
                result.explanation = "granted without calling verifyReceipt at all"
            } else {
                result.explanation = "granted, as a careful backend does"
            }
        case (.accepted, .reject):
            result.verdict = .falseValid
            result.explanation =
                asked
                ? "granted the purchase on this answer: \(scenario.summary)"
                : "granted the purchase without calling verifyReceipt"
        case (.refused, .reject), (.rejected, .reject):
            result.explanation = "refused, as a careful backend does"
        case (.refused, .accept), (.rejected, .accept):
            result.verdict = .falseInvalid
            if scenario.answer == .sandboxRetry && !askedSandbox {
                result.explanation =
                    "refused a sandbox receipt without retrying at the sandbox endpoint (App Review's purchases fail)"
            } else if !asked {
                result.explanation = notCalled
            } else {
                result.explanation = "refused the purchase on this answer: \(scenario.summary)"
            }
        case (.serverError(let status), .reject) where scenario.isAppleUnavailable && (502...504).contains(status):
            result.explanation = "answered HTTP \(status) so that its client retries later: nothing granted"
        case (.serverError(let status), _):
            result.verdict = .crashed
            result.explanation =
                calls.isEmpty
                ? "answered HTTP \(status), and " + notCalled
                : "answered HTTP \(status): an unhandled error behind the endpoint"
        case (.unreachable(let reason), _):
            result.verdict = .noAnswer
            result.explanation = "the backend could not be reached: " + reason
        case (.timedOut, _):
            result.verdict = .noAnswer
            result.explanation = "no answer within the timeout"
        default:
            result.verdict = .noAnswer
            result.explanation = "no verdict"
        }
        return result
    }

    /// Why the run says nothing of the backend, when the genuine answer shows it was not set up to be judged: it
    /// could not be reached, or it never called the stand-in; nil when it was.
    package var setupProblem: String? {
        guard let genuine = results.first, genuine.scenario.answer == .genuine else { return nil }
        if genuine.verdict == .noAnswer { return genuine.explanation }
        if genuine.calls.isEmpty && genuine.verdict != .pass && genuine.verdict != .falseValid {
            return
                "the backend never called the stand-in for the genuine answer: start it with its verifyReceipt URL set to the stand-in's (--port), then judge again"
        }
        return nil
    }
}

extension BackendJudgement {
    /// What the stand-in answers for `receipt` (DER or base64) when its environment is not checked, and whether the
    /// answer holds a subscription: a backend is judged only with a receipt that verifies.
    package static func probe(_ receipt: [UInt8], options: InspectionOptions) -> (
        answer: StandInAnswer, hasSubscription: Bool
    ) {
        let body = RequestBody.receiptData(extra: []).bytes(for: receipt)
        let scenario = VerifyReceiptScenario.catalogue.first { $0.answer == .sandboxRetry } ?? .catalogue[0]
        let answer = VerifyReceiptStandIn(options: options).answer(
            body, at: .sandbox, scenario: scenario, requestDate: AppleDate(milliseconds: 0))
        let document = try? JSONDocument.read(answer.body)
        let hasSubscription = document.map { $0.member("latest_receipt_info", of: $0.root) != nil } ?? false
        return (answer, hasSubscription)
    }
}
