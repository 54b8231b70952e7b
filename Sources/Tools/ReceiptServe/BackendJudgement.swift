import ReceiptASN1
import ReceiptConformance
import ReceiptHTTP
import ReceiptJSON
import ReceiptModel
import ReceiptPKCS7
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
        /// The stand-in requests it made for the forged copy of the receipt, when one was posted.
        package var forgedCalls: [StandInLogEntry] = []
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
        /// answer was refused or not judged.
        case skipped
        /// Granted without asking the stand-in, in a way that says nothing of how the backend handles the answer:
        /// from a cache of an earlier verification, or after verifying elsewhere (a forged copy refused).
        case notJudged = "not-judged"

        package var failed: Bool { self != .pass && self != .skipped && self != .notJudged }
    }

    package var results: [Result]

    package init(results: [Result]) { self.results = results }

    /// Whether every scenario run passed.
    package var passed: Bool { !results.contains { $0.verdict.failed } }

    /// Runs `scenarios` (the catalogue by default) with `standIn` serving, posting `receipt` (a file's bytes) to
    /// `backend` for each. `hasSubscription` says whether the receipt has a subscription record (else
    /// `subscription-lapsed` is skipped).
    ///
    /// A backend that grants without asking the stand-in is not necessarily one that does not verify: it may verify
    /// elsewhere, or remember a receipt it verified before. Every such grant is followed by a forged copy of the
    /// receipt (`forgery(of:)`), answered by the same scenario: granted, the backend does not verify or fails open;
    /// refused, the scenario is not judged (`judgeUnasked`).
    package static func run(
        backend: HTTPTarget, receipt: [UInt8], standIn: AppleStandIn,
        scenarios: [VerifyReceiptScenario] = VerifyReceiptScenario.catalogue, hasSubscription: Bool
    ) -> BackendJudgement {
        var results: [Result] = []
        var stopped: String?
        var askedBefore = false
        let forgery = forgery(of: receipt)
        for scenario in scenarios {
            if stopped != nil || (scenario.answer == .subscriptionLapsed && !hasSubscription) {
                let why = stopped ?? "not run: the receipt has no subscription whose expiry the scenario could move"
                results.append(
                    Result(
                        scenario: scenario, verdict: .skipped, httpStatus: nil, answer: "", calls: [],
                        explanation: why, attacker: scenario.attacker, threat: scenario.threat))
                continue
            }
            standIn.currentScenario = scenario
            let (exchange, calls) = post(receipt, to: backend, standIn: standIn)
            var result = judge(scenario, exchange, calls: calls, askedBefore: askedBefore)
            // A grant made without asking: a forged copy, answered by the same scenario, tells a backend that does
            // not verify (or fails open) from one that verified elsewhere or remembers the receipt.
            if exchange.outcome == .accepted && !calls.contains(where: \.askedVerifyReceipt) {
                let forged = post(forgery, to: backend, standIn: standIn)
                result = judgeUnasked(result, forged: forged.exchange, calls: forged.calls)
            }
            results.append(result)
            askedBefore = askedBefore || calls.contains(where: \.askedVerifyReceipt)
            if scenario.answer == .genuine {
                switch result.verdict {
                case .falseInvalid, .crashed, .noAnswer:
                    stopped = "not run: the backend did not grant the genuine answer"
                case .notJudged:
                    stopped = "not run: the genuine answer was not judged"
                default: break
                }
            }
        }
        standIn.currentScenario = VerifyReceiptScenario.catalogue[0]
        return BackendJudgement(results: results)
    }

    /// Posts `document` to `backend`: its answer, and the stand-in requests it made meanwhile.
    static func post(_ document: [UInt8], to backend: HTTPTarget, standIn: AppleStandIn) -> (
        exchange: HTTPTarget.Exchange, calls: [StandInLogEntry]
    ) {
        let before = standIn.latestSequence
        let exchange = backend.exchange(document: document)
        return (exchange, standIn.requests(after: before))
    }

    /// The verdict of a scenario whose answer the backend granted without asking the stand-in, from what it did with
    /// a forged copy: granting the forgery too is a false valid; refusing it leaves the scenario not judged.
    package static func judgeUnasked(_ genuine: Result, forged: HTTPTarget.Exchange, calls: [StandInLogEntry])
        -> Result
    {
        var result = genuine
        result.forgedCalls = calls
        switch forged.outcome {
        case .accepted:
            break
        case .refused, .rejected:
            result.verdict = .notJudged
            result.explanation =
                "granted without asking the stand-in, and refused a forged copy of the receipt: it verifies elsewhere (is its verifyReceipt URL the stand-in's, --port?) or remembered the receipt (a cache)"
            return result
        case .serverError(let status) where (502...504).contains(status):
            result.verdict = .notJudged
            result.explanation =
                "granted without asking the stand-in, and answered HTTP \(status) to a forged copy of the receipt (asked Apple, could not verify it): it verifies elsewhere or remembered the receipt (a cache)"
            return result
        case .serverError(let status):
            result.verdict = .crashed
            result.explanation =
                "granted without asking the stand-in, and answered HTTP \(status) to a forged copy of the receipt: an unhandled error behind the endpoint"
            return result
        default:
            result.verdict = .noAnswer
            result.explanation =
                "granted without asking the stand-in, and gave no answer to a forged copy of the receipt: whether it verifies is not known"
            return result
        }
        result.verdict = .falseValid
        result.attacker = .anyone
        result.threat =
            "a receipt with a changed byte is one anyone can make: a backend that grants it grants without a purchase"
        result.explanation =
            calls.isEmpty
            ? "granted without asking the stand-in, and granted a forged copy of the receipt (one byte changed) too: it does not verify receipts"
            : "granted without asking the stand-in, and granted a forged copy of the receipt (one byte changed) the stand-in refused"
        return result
    }

    /// The verdict of one exchange.
    /// `askedBefore`: whether the backend asked the stand-in for an earlier scenario, so that a grant without
    /// asking now is a verdict it remembered (a cache), not one made without verifying.
    package static func judge(
        _ scenario: VerifyReceiptScenario, _ exchange: HTTPTarget.Exchange, calls: [StandInLogEntry],
        askedBefore: Bool = false
    )
        -> Result
    {
        var result = Result(
            scenario: scenario, verdict: .pass, httpStatus: exchange.status, answer: exchange.body, calls: calls,
            explanation: "", attacker: scenario.attacker, threat: scenario.threat)
        let notCalled = "the backend " + Self.neverCalled
        // Asked Apple: a call to one of the two verifyReceipt endpoints (a call elsewhere was answered 404).
        let asked = calls.contains(where: \.askedVerifyReceipt)
        let askedSandbox = calls.contains { $0.path == "/sandbox/verifyReceipt" }
        let toldSandbox = calls.contains { $0.answer.appleStatus == VerifyReceiptStatus.sandboxReceiptSentToProduction }
        switch (exchange.outcome, scenario.expected) {
        case (.accepted, _) where !asked && askedBefore:
            result.verdict = .notJudged
            result.explanation =
                "granted without asking the stand-in, after asking it before: a verdict it remembered (a cache of verified receipts), so this answer was never seen"
        case (.refused, .accept) where !asked && askedBefore && scenario.answer == .genuine,
            (.rejected, .accept) where !asked && askedBefore && scenario.answer == .genuine:
            result.verdict = .falseInvalid
            result.explanation =
                "refused the genuine receipt without asking the stand-in, after the other answers: it remembers a refusal, and the paying customer stays locked out"
        case (.refused, _) where !asked && askedBefore, (.rejected, _) where !asked && askedBefore:
            result.verdict = .notJudged
            result.explanation =
                "refused without asking the stand-in, after asking it before: a refusal it remembered (a cache), so this answer was never seen"
        case (.refused, .accept) where !asked, (.rejected, .accept) where !asked:
            result.verdict = .notJudged
            result.explanation =
                "refused without asking the stand-in: it is not pointed at the stand-in (is its verifyReceipt URL the stand-in's, --port?), or it remembers a refusal of this receipt from an earlier run"
        case (.serverError(let status), _) where !asked && !askedBefore && (502...504).contains(status):
            result.verdict = .notJudged
            result.explanation =
                "answered HTTP \(status), Apple unavailable, without asking the stand-in: it could not reach it (is its verifyReceipt URL the stand-in's, --port?)"
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

    /// What the run says of the backend, as a whole.
    package enum Outcome: String, Sendable {
        /// Every scenario judged, and passed (exit 0).
        case passed
        /// A scenario failed (exit 1), whatever else was not judged.
        case failed
        /// None failed, but some were not judged: the backend answered from a cache (exit 2).
        case notJudged = "not-judged"
        /// The genuine answer shows the backend was not set up to be judged (exit 2).
        case noJudgement = "no-judgement"
    }

    package var outcome: Outcome {
        if setupProblem != nil { return .noJudgement }
        if !passed { return .failed }
        return unjudged == nil ? .passed : .notJudged
    }

    /// Why the outcome is not `passed` when it is not for a failure: the setup problem, or what was not judged.
    package var problem: String? { setupProblem ?? unjudged }

    /// What a backend that made no request of the stand-in did not do, and the likely why.
    static let neverCalled =
        "never called the stand-in: is its verifyReceipt URL set to the stand-in's (--port)?"

    /// Why some scenarios were not judged, when the backend answered them from a cache; nil when every scenario
    /// run was judged.
    package var unjudged: String? {
        let names = results.filter { $0.verdict == .notJudged }.map(\.scenario.name)
        guard !names.isEmpty, setupProblem == nil else { return nil }
        return
            "\(names.count) scenario\(names.count == 1 ? "" : "s") not judged (\(names.joined(separator: ", "))): the backend granted without asking the stand-in, remembering the genuine answer; start it with its receipt cache off, then judge again"
    }

    /// Why the run says nothing of the backend, when the genuine answer shows it was not set up to be judged: it
    /// could not be reached, or it never called the stand-in; nil when it was.
    package var setupProblem: String? {
        guard let genuine = results.first, genuine.scenario.answer == .genuine else { return nil }
        if genuine.verdict == .noAnswer { return genuine.explanation }
        if genuine.verdict == .notJudged { return genuine.explanation }
        if genuine.calls.isEmpty && genuine.verdict != .pass && genuine.verdict != .falseValid {
            return "the backend, for the genuine answer, " + Self.neverCalled + " Start it so, then judge again."
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
