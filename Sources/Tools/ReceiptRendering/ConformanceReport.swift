import ReceiptConformance
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptSuite

/// The table, summary and JSON (`rcpt.conformance/2`) of a conformance run.
package struct ConformanceReport: Sendable {
    package static let schema = "rcpt.conformance/2"

    package var results: [ConformanceResult]
    /// Which accepted must-reject entries fail the run.
    package var gate: Gate

    package init(results: [ConformanceResult], gate: Gate = .standard) {
        self.results = results
        self.gate = gate
    }

    /// The results of one class.
    package func results(_ resultClass: ResultClass) -> [ConformanceResult] {
        results.filter { $0.resultClass == resultClass }
    }

    /// Whether the run fails: a bad receipt accepted (of a concern the gate fails on), a crash, a hang, an error, a
    /// validator that could not run, or the baseline rejected.
    package var failed: Bool { results.contains { gate.fails($0) } }

    /// Accepted must-reject entries the gate reports but does not fail on (robustness, by default).
    package var reportedOnly: [ConformanceResult] {
        results.filter { $0.resultClass == .acceptedBad && !gate.fails($0) }
    }

    /// Passed and judged (passed or accepted-bad) counts for one concern's must-reject receipts.
    package func score(_ concern: Concern) -> (passed: Int, total: Int) {
        let relevant = results.filter { $0.concern == concern && $0.name != "baseline" }
        return (relevant.filter { $0.resultClass == .passed }.count, relevant.count)
    }

    package func text(style: TextStyle) -> String {
        var out =
            style.bold(
                pad("mutation", 40) + " " + pad("group", 10) + " " + pad("attacker", 8) + " "
                    + pad("concern", 10) + " " + pad("expected", 8) + " " + pad("observed", 22) + " verdict") + "\n"
        for result in results {
            let verdict: String
            switch result.resultClass {
            case .passed: verdict = style.green("ok")
            case .acceptedBad where !gate.fails(result): verdict = style.yellow("accepted (\(result.concern.rawValue))")
            case .acceptedBad:
                // Named for what the entry is: a JWS suite's entries are tokens and JSON documents.
                let what =
                    result.file.hasSuffix(".receipt") ? "RECEIPT" : result.file.hasSuffix(".jws") ? "TOKEN" : "DOCUMENT"
                verdict = style.red("ACCEPTED BAD " + what)
            case .baselineRejected: verdict = style.red("REJECTED VALID BASELINE")
            case .crashed: verdict = style.red("CRASHED")
            case .timedOut: verdict = style.red("TIMED OUT")
            case .errored: verdict = style.red("ERRORED")
            case .couldNotRun: verdict = style.red("COULD NOT RUN")
            case .overStrict: verdict = style.yellow("over-strict")
            }
            // Names come from the suite's manifest, which anyone can edit: shown terminal-safe.
            out +=
                pad(TerminalText.safe(result.name), 40) + " " + pad(TerminalText.safe(result.group), 10) + " "
                + pad(result.attacker?.rawValue ?? "-", 8) + " " + pad(result.concern.rawValue, 10) + " "
                + pad(result.expected.rawValue, 8) + " "
                + pad(result.run.outcome.detail, 22) + " " + verdict + "\n"
        }
        let problems = results.filter { $0.resultClass.isFailure || $0.resultClass == .overStrict }
        if !problems.isEmpty {
            out += "\n" + style.bold("What went wrong, by cause") + "\n"
            // One block per cause (class and group), in the order causes first appear: each says why it matters, then
            // every failure with its file and the command that reproduces it.
            var causes: [String] = []
            var byCause: [String: [ConformanceResult]] = [:]
            for result in problems {
                let key =
                    result.resultClass.rawValue + " " + result.causeGroup
                    + (result.resultClass == .acceptedBad ? " " + result.concern.rawValue : "")
                    + (gate.allowedEntries.contains(result.name) ? " allowed" : "")
                if byCause[key] == nil { causes.append(key) }
                byCause[key, default: []].append(result)
            }
            for key in causes {
                guard let group = byCause[key], let first = group.first else { continue }
                let concern = first.resultClass == .acceptedBad ? " " + first.concern.rawValue : ""
                let heading =
                    "\(group.count) \(TerminalText.safe(first.causeGroup))\(concern) \(group.count == 1 ? "entry" : "entries") "
                    + (gate.fails(first) || first.resultClass != .acceptedBad
                        ? Self.classPhrase(first.resultClass)
                        : gate.allowedEntries.contains(first.name)
                            ? "accepted (reported: --allow-entry)"
                            : "accepted (reported, not gated: --fail-on \(first.concern.rawValue) fails on them)")
                    + ": "
                    + (group.allSatisfy { Self.markerEntries.contains($0.name) }
                        ? Self.cause(first)
                        : Self.cause(first, byName: false))
                out += "\n" + (gate.fails(first) ? style.red(heading) : style.yellow(heading)) + "\n"
                // Who could make it and the readers it would fool: said once for a run of entries that share them.
                var said: (threat: String?, readers: String?) = (nil, nil)
                for result in group {
                    out +=
                        "  \(TerminalText.safe(result.name)) (\(Self.threatLabel(result))): "
                        + "\(TerminalText.safe(result.description)) — \(result.run.outcome.detail)\n"
                    if result.resultClass == .acceptedBad, let threat = result.threat, threat != said.threat {
                        out += style.dim("    who:       ") + TerminalText.safe(threat) + "\n"
                    }
                    if result.resultClass == .acceptedBad, let readers = result.readers, readers != said.readers {
                        out += style.dim("    readers:   ") + TerminalText.safe(readers) + "\n"
                    }
                    said = (result.threat, result.readers)
                    out += style.dim("    file:      ") + TerminalText.safe(result.file) + "\n"
                    out += style.dim("    reproduce: ") + TerminalText.safe(result.command) + "\n"
                    if !result.run.outcome.isVerdict || result.resultClass == .acceptedBad,
                        !result.run.stderrTail.isEmpty
                    {
                        for line in result.run.stderrTail.split(separator: "\n", omittingEmptySubsequences: false)
                            .suffix(5)
                        {
                            out += style.dim("    | " + TerminalText.safe(String(line))) + "\n"
                        }
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
            let count = results(resultClass).filter { gate.fails($0) }.count
            return count == 0 ? nil : "\(count) \(label)"
        }
        let reported = reportedOnly.count
        var line = "\(results.count) runs: \(passed) passed, \(failed - reported) failed"
        if !parts.isEmpty { line += " (\(parts.joined(separator: ", ")))" }
        line += ", \(overStrict) over-strict"
        if reported > 0 { line += ", \(reported) reported (accepted, not gated)" }
        for concern in Concern.allCases {
            let score = score(concern)
            if score.total > 0 {
                line += "; \(concern.rawValue) \(score.passed)/\(score.total) passed"
                if !gate.concerns.contains(concern) {
                    line += " (acceptances not gated: --fail-on \(concern.rawValue); crashes and hangs fail)"
                }
            }
        }
        return line
    }

    package func json() -> [UInt8] {
        var json = JSONWriter()
        json.object { json in
            json.member("schema", Self.schema)
            json.member("failed", failed)
            json.array("gate") { json in
                for concern in Concern.allCases where gate.concerns.contains(concern) { json.string(concern.rawValue) }
            }
            json.member("passed", results(.passed).count)
            json.member("total", results.count)
            json.object("classes") { json in
                for resultClass in ResultClass.allCases {
                    json.key(named: resultClass.rawValue)
                    json.array { json in for result in results(resultClass) { json.string(result.name) } }
                }
            }
            json.object("scores") { json in
                for concern in Concern.allCases {
                    let score = score(concern)
                    json.key(named: concern.rawValue)
                    json.object { json in
                        json.member("passed", score.passed)
                        json.member("total", score.total)
                    }
                }
            }
            json.array("results") { json in
                for result in results { write(result, to: &json) }
            }
        }
        return json.bytes + [0x0A]
    }

    func write(_ result: ConformanceResult, to json: inout JSONWriter) {
        json.object { json in
            json.member("name", result.name)
            json.member("group", result.group)
            json.member("description", result.description)
            json.member("attacker", result.attacker?.rawValue)
            json.member("concern", result.concern.rawValue)
            json.member("threat", result.threat)
            json.member("readers", result.readers)
            json.member("fails", gate.fails(result))
            json.member("expected", result.expected.rawValue)
            json.member("observed", result.run.outcome.label)
            json.member("detail", result.run.outcome.detail)
            json.member("class", result.resultClass.rawValue)
            // Seconds, to the millisecond (this member once held milliseconds under its name).
            json.key("seconds")
            json.number(text: Self.secondsText(result.run.seconds))
            json.member("stderr", result.run.stderrTail.isEmpty ? nil : result.run.stderrTail)
            json.member("signal", result.run.outcome.signal.map { Int($0) })
            json.member("file", result.file)
            json.member("command", result.command)
            json.member("cause", result.resultClass == .passed ? nil : Self.cause(result))
        }
    }

    /// The run as CI systems read it: a case per entry, failed for a wrong verdict, errored for none.
    package func ciReport(suite: String, validator: String) -> CIReport {
        let cases = results.map { result -> CIReport.Case in
            let outcome: CIReport.Case.Outcome
            switch result.resultClass {
            case .passed, .overStrict: outcome = .passed
            case .acceptedBad where !gate.fails(result): outcome = .passed
            case .acceptedBad, .baselineRejected: outcome = .failed
            case .crashed, .timedOut, .errored, .couldNotRun: outcome = .errored
            }
            var details = ""
            if result.resultClass != .passed {
                details =
                    "why: \(Self.cause(result))\nwho could make it: \(Self.threatLabel(result))"
                    + (result.threat.map { " — " + $0 } ?? "") + (result.readers.map { "\nreaders: " + $0 } ?? "")
                    + "\nfile: \(result.file)\nreproduce: \(result.command)"
                if !result.run.stderrTail.isEmpty { details += "\nstderr:\n" + result.run.stderrTail }
            }
            return CIReport.Case(
                name: result.name, group: result.group, outcome: outcome,
                rule: result.resultClass.rawValue + "/" + result.group
                    + (result.resultClass == .acceptedBad ? "/" + result.concern.rawValue : ""),
                ruleDescription: "\(result.group) entries \(Self.classPhrase(result.resultClass))"
                    + (result.resultClass == .acceptedBad ? " (\(result.concern.rawValue))" : ""),
                message:
                    "\(result.name) (\(Self.threatLabel(result))): \(result.description) — expected \(result.expected.rawValue), \(result.run.outcome.detail)",
                details: details, file: result.file, seconds: result.run.seconds,
                isNote: result.resultClass == .overStrict || (result.resultClass == .acceptedBad && !gate.fails(result))
            )
        }
        return CIReport(
            tool: "rcpt conformance", subject: suite,
            seconds: results.reduce(0) { $0 + $1.run.seconds },
            properties: [("validator", validator), ("summary", summary)], cases: cases)
    }

    /// What a class of result did, as a heading says it.
    static func classPhrase(_ resultClass: ResultClass) -> String {
        switch resultClass {
        case .passed: return "passed"
        case .acceptedBad: return "accepted though they must be rejected"
        case .overStrict: return "rejected though they must be accepted"
        case .baselineRejected: return "rejected: the valid baseline"
        case .crashed: return "crashed the validator"
        case .timedOut: return "hung the validator"
        case .errored: return "made the validator fail without a verdict"
        case .couldNotRun: return "could not be run"
        }
    }

    /// "anyone, security": who could make the entry's input and what accepting it costs.
    static func threatLabel(_ result: ConformanceResult) -> String {
        (result.attacker.map { $0.rawValue + ", " } ?? "") + result.concern.rawValue
    }

    /// `seconds` as a JSON number with three decimals: 0.042 for 42 ms.
    package static func secondsText(_ seconds: Double) -> String {
        let milliseconds = seconds.isFinite ? Int64(max(0, min(seconds, 1e9)) * 1000 + 0.5) : 0
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// The report for a run stopped because the baseline was not accepted.
    package static func baselineText(_ result: ConformanceResult, style: TextStyle) -> String {
        var out =
            style.red(style.bold("the validator does not accept the valid baseline")) + ": "
            + result.run.outcome.detail + "\n"
        switch result.run.outcome {
        case .unreachable, .timedOut, .couldNotRun:
            // No answer at all: the options are not what is wrong.
            out +=
                "Nothing else can be judged: the validator gave no answer. Check that it runs and can be reached (the "
                + "command or URL, the server started, --timeout long enough for it).\n"
        default:
            out +=
                "Nothing else can be judged: check the validator's options (its trust root, bundle id, version and "
                + "device; a mutation suite's manifest.json suggests a command line). A validator that also judges "
                + "entitlement refuses a seed whose purchases have expired: the suite judges verification, so make it "
                + "from a seed with a current purchase, or point it at the validator's verification step.\n"
        }
        out += style.dim("file:      ") + TerminalText.safe(result.file) + "\n"
        out += style.dim("reproduce: ") + TerminalText.safe(result.command) + "\n"
        for (title, text) in [("stdout", result.run.stdoutTail), ("stderr", result.run.stderrTail)] where !text.isEmpty
        {
            out += style.dim("\(title):") + "\n"
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).suffix(10) {
                out += "    | " + TerminalText.safe(String(line)) + "\n"
            }
        }
        return out
    }

    func pad(_ text: String, _ width: Int) -> String { TextLayout.rightPad(text, width) }
}
