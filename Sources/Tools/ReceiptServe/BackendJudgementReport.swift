import Foundation
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptSuite

extension BackendJudgement {
    /// The judgement for people: one line per scenario, what the backend asked the stand-in, who could cause each
    /// failure and what it costs, and a summary line.
    package func text(backend: String, receipt: String) -> String {
        var text = "Backend \(TerminalText.safe(backend)) judged with \(TerminalText.safe(receipt))\n"
        let width = results.map(\.scenario.name.count).max() ?? 0
        for result in results {
            let label =
                result.verdict.failed
                ? result.verdict.rawValue.uppercased() : result.verdict.rawValue
            let name = TerminalText.column(result.scenario.name, width: width)
            text +=
                "  " + TerminalText.column(label, width: 13) + " \(name)  "
                + TerminalText.safe(result.explanation) + "\n"
            for (label, calls) in [("asked", result.calls), ("forged copy asked", result.forgedCalls)]
            where !calls.isEmpty {
                let shown = calls.map { "\($0.method) \($0.path) → \($0.answer.summary)" }
                text += "      \(label): " + TerminalText.safe(shown.joined(separator: "; ")) + "\n"
            }
            if result.verdict.failed {
                if let status = result.httpStatus {
                    let body = result.answer.split(whereSeparator: \.isNewline).joined(separator: " ")
                    let shown = body.isEmpty ? "" : "  " + TerminalText.safe(String(body.prefix(100)))
                    text += "      answered: HTTP \(status)\(shown)\n"
                }
                if result.verdict == .falseValid || (result.verdict != .noAnswer && !result.calls.isEmpty) {
                    text += "      who: \(result.attacker.rawValue); \(result.threat)\n"
                }
            }
        }
        let counts = Dictionary(grouping: results, by: \.verdict).mapValues(\.count)
        let order: [Verdict] = [.pass, .falseValid, .falseInvalid, .crashed, .noAnswer, .notJudged, .skipped]
        let parts = order.compactMap { verdict in counts[verdict].map { "\($0) \(verdict.rawValue)" } }
        text += "\(results.count) scenarios: " + parts.joined(separator: ", ") + "\n"
        return text
    }

    /// The judgement as JSON (`rcpt.serve-judgement/1`).
    package func json(backend: String, receipt: String, pretty: Bool) -> [UInt8] {
        JSONWriter.document(pretty: pretty) { json in
            json.object { json in
                json.member("schema", "rcpt.serve-judgement/1")
                json.member("backend", backend)
                json.member("receipt", receipt)
                json.member("passed", outcome == .passed)
                json.member("outcome", outcome.rawValue)
                json.member("problem", problem)
                json.objects("results", results) { result, json in
                    json.member("scenario", result.scenario.name)
                    json.member("summary", result.scenario.summary)
                    json.member("expected", result.scenario.expected.rawValue)
                    json.member("attacker", result.attacker.rawValue)
                    json.member("threat", result.threat)
                    json.member("verdict", result.verdict.rawValue)
                    json.member("explanation", result.explanation)
                    json.member("http_status", result.httpStatus)
                    json.member("answer", result.httpStatus == nil ? nil : result.answer)
                    json.objects("calls", result.calls) { call, json in Self.write(call, to: &json) }
                    if !result.forgedCalls.isEmpty {
                        json.objects("forged_calls", result.forgedCalls) { call, json in Self.write(call, to: &json) }
                    }
                }
            }
        }
    }

    /// One stand-in request, as the judgement's JSON gives it.
    private static func write(_ call: StandInLogEntry, to json: inout JSONWriter) {
        json.member("method", call.method)
        json.member("path", call.path)
        json.member("http_status", call.answer.httpStatus)
        json.member("apple_status", call.answer.appleStatus)
        json.member("answer", call.answer.summary)
    }
}
