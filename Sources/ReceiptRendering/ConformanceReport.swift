import ReceiptConformance
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptSuite

/// The table, summary and JSON (`rcpt.conformance/2`) of a conformance run.
package struct ConformanceReport: Sendable {
    package static let schema = "rcpt.conformance/2"

    package var results: [ConformanceResult]

    package init(results: [ConformanceResult]) {
        self.results = results
    }

    /// The results of one class.
    package func results(_ resultClass: ResultClass) -> [ConformanceResult] {
        results.filter { $0.resultClass == resultClass }
    }

    /// Whether the run fails: a bad receipt accepted, a crash, a hang, an error, a validator that could not run, or
    /// the baseline rejected.
    package var failed: Bool { results.contains { $0.resultClass.isFailure } }

    /// Passed and judged (passed or accepted-bad) counts for one concern's must-reject receipts.
    package func score(_ concern: Concern) -> (passed: Int, total: Int) {
        let relevant = results.filter { $0.concern == concern && $0.name != "baseline" }
        return (relevant.filter { $0.resultClass == .passed }.count, relevant.count)
    }

    package func text(style: TextStyle) -> String {
        var out = style.bold(pad("mutation", 40) + " " + pad("group", 10) + " " + pad("concern", 8) + " "
                             + pad("expected", 8) + " " + pad("observed", 22) + " verdict") + "\n"
        for result in results {
            let verdict: String
            switch result.resultClass {
            case .passed: verdict = style.green("ok")
            case .acceptedBad: verdict = style.red("ACCEPTED BAD RECEIPT")
            case .baselineRejected: verdict = style.red("REJECTED VALID BASELINE")
            case .crashed: verdict = style.red("CRASHED")
            case .timedOut: verdict = style.red("TIMED OUT")
            case .errored: verdict = style.red("ERRORED")
            case .couldNotRun: verdict = style.red("COULD NOT RUN")
            case .overStrict: verdict = style.yellow("over-strict")
            }
            // Names come from the suite's manifest, which anyone can edit: shown terminal-safe.
            out += pad(TerminalText.safe(result.name), 40) + " " + pad(TerminalText.safe(result.group), 10) + " "
                + pad(result.concern.rawValue, 8) + " " + pad(result.expected.rawValue, 8) + " "
                + pad(result.run.outcome.detail, 22) + " " + verdict + "\n"
        }
        let problems = results.filter { $0.resultClass.isFailure || $0.resultClass == .overStrict }
        if !problems.isEmpty {
            out += "\n" + style.bold("What went wrong") + "\n"
            for result in problems {
                out += "  \(TerminalText.safe(result.name)) (\(TerminalText.safe(result.group)), \(result.concern.rawValue)): "
                    + "\(TerminalText.safe(result.description)) — \(result.run.outcome.detail)\n"
                if !result.run.outcome.isVerdict || result.resultClass == .acceptedBad, !result.run.stderrTail.isEmpty {
                    for line in result.run.stderrTail.split(separator: "\n", omittingEmptySubsequences: false).suffix(5) {
                        out += style.dim("    | " + TerminalText.safe(String(line))) + "\n"
                    }
                }
            }
        }
        return out + "\n" + summary + "\n"
    }

    /// One line that adds up: every run is passed, failed (by class) or over-strict; then the scores by concern.
    package var summary: String {
        let passed = results(.passed).count
        let overStrict = results(.overStrict).count
        let failed = results.count - passed - overStrict
        let classes: [(ResultClass, String)] = [
            (.acceptedBad, "bad accepted"), (.baselineRejected, "baseline rejected"), (.crashed, "crashed"),
            (.timedOut, "timed out"), (.errored, "errored"), (.couldNotRun, "could not run"),
        ]
        let parts = classes.compactMap { resultClass, label -> String? in
            let count = results(resultClass).count
            return count == 0 ? nil : "\(count) \(label)"
        }
        var line = "\(results.count) runs: \(passed) passed, \(failed) failed"
        if !parts.isEmpty { line += " (\(parts.joined(separator: ", ")))" }
        line += ", \(overStrict) over-strict"
        for concern in Concern.allCases {
            let score = score(concern)
            if score.total > 0 { line += "; \(concern.rawValue) \(score.passed)/\(score.total) passed" }
        }
        return line
    }

    package func json() -> [UInt8] {
        var json = JSONWriter()
        json.object { json in
            json.member("schema", Self.schema)
            json.member("failed", failed)
            json.member("passed", results(.passed).count)
            json.member("total", results.count)
            json.key("classes")
            json.object { json in
                for resultClass in ResultClass.allCases {
                    json.key(named: resultClass.rawValue)
                    json.array { json in for result in results(resultClass) { json.string(result.name) } }
                }
            }
            json.key("scores")
            json.object { json in
                for concern in Concern.allCases {
                    let score = score(concern)
                    json.key(named: concern.rawValue)
                    json.object { json in
                        json.member("passed", score.passed)
                        json.member("total", score.total)
                    }
                }
            }
            json.key("results")
            json.array { json in
                for result in results { Self.write(result, to: &json) }
            }
        }
        return json.bytes + [0x0A]
    }

    static func write(_ result: ConformanceResult, to json: inout JSONWriter) {
        json.object { json in
            json.member("name", result.name)
            json.member("group", result.group)
            json.member("description", result.description)
            json.member("concern", result.concern.rawValue)
            json.member("expected", result.expected.rawValue)
            json.member("observed", result.run.outcome.label)
            json.member("detail", result.run.outcome.detail)
            json.member("class", result.resultClass.rawValue)
            // Seconds, to the millisecond (this member once held milliseconds under its name).
            json.key("seconds")
            json.number(text: Self.secondsText(result.run.seconds))
            json.member("stderr", result.run.stderrTail.isEmpty ? nil : result.run.stderrTail)
        }
    }

    /// `seconds` as a JSON number with three decimals: 0.042 for 42 ms.
    package static func secondsText(_ seconds: Double) -> String {
        let milliseconds = seconds.isFinite ? Int64(max(0, min(seconds, 1e9)) * 1000 + 0.5) : 0
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// The report for a run stopped because the baseline was not accepted.
    package static func baselineText(_ result: ConformanceResult, style: TextStyle) -> String {
        var out = style.red(style.bold("the validator does not accept the valid baseline")) + ": "
            + result.run.outcome.detail + "\n"
        out += "Nothing else can be judged: check the validator's options (its trust root, bundle id, version and "
            + "device; the suite's manifest.json suggests a command line).\n"
        for (title, text) in [("stdout", result.run.stdoutTail), ("stderr", result.run.stderrTail)] where !text.isEmpty {
            out += style.dim("\(title):") + "\n"
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).suffix(10) {
                out += "    | " + TerminalText.safe(String(line)) + "\n"
            }
        }
        return out
    }

    func pad(_ text: String, _ width: Int) -> String { TextLayout.rightPad(text, width) }
}
