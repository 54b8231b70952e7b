import ReceiptConformance
import ReceiptMutation

/// The table, summary and JSON (`rcpt.conformance/1`) of a conformance run.
public struct ConformanceReport: Sendable {
    public var results: [ConformanceResult]

    public init(results: [ConformanceResult]) {
        self.results = results
    }

    /// Must-reject receipts the validator accepted.
    public var acceptedBad: [ConformanceResult] { results.filter(\.acceptedBadReceipt) }
    /// Whether the baseline (a valid receipt) was rejected or timed out.
    public var baselineRejected: Bool { results.contains { $0.name == "baseline" && !$0.passed } }
    /// Must-accept receipts the validator rejected (over-strict; reported, not a failure).
    public var rejectedGood: [ConformanceResult] {
        results.filter { $0.expected == .accept && !$0.passed && $0.name != "baseline" }
    }
    /// Must-reject receipts on which the validator hung.
    public var timedOut: [ConformanceResult] { results.filter { $0.observed == .timeout } }

    /// Whether the run fails: a bad receipt accepted, a hang on one, or the baseline rejected.
    public var failed: Bool { !acceptedBad.isEmpty || baselineRejected || timedOut.contains { $0.expected == .reject } }

    public func text(style: TextStyle) -> String {
        var out = style.bold("mutation".padding(toLength: 40, withPad: " ", startingAt: 0) + " expected  observed  verdict")
            + "\n"
        for result in results {
            let verdict: String
            if result.passed {
                verdict = style.green("ok")
            } else if result.acceptedBadReceipt {
                verdict = style.red("ACCEPTED BAD RECEIPT")
            } else if result.name == "baseline" {
                verdict = style.red("REJECTED VALID BASELINE")
            } else if result.observed == .timeout {
                verdict = style.red("TIMEOUT")
            } else {
                verdict = style.yellow("over-strict")
            }
            // Names come from the suite's manifest, which anyone can edit: shown terminal-safe.
            out += TextLayout.safe(result.name).padding(toLength: 40, withPad: " ", startingAt: 0) + " "
                + result.expected.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + " "
                + result.observed.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + " " + verdict + "\n"
        }
        let passed = results.filter(\.passed).count
        out += "\n\(passed) passed, \(results.count - passed) failed"
        out += " (\(acceptedBad.count) bad receipt(s) accepted, \(rejectedGood.count) valid variant(s) rejected"
        out += baselineRejected ? ", baseline rejected)" : ")"
        return out + "\n"
    }

    public func json() -> [UInt8] {
        var json = JSONWriter()
        json.object { json in
            json.member("schema", "rcpt.conformance/1")
            json.member("failed", failed)
            json.member("passed", results.filter(\.passed).count)
            json.member("total", results.count)
            json.member("acceptedBad", strings: acceptedBad.map(\.name))
            json.member("rejectedGood", strings: rejectedGood.map(\.name))
            json.member("baselineRejected", baselineRejected)
            json.key("results")
            json.array { json in
                for result in results {
                    json.object { json in
                        json.member("name", result.name)
                        json.member("group", result.group)
                        json.member("expected", result.expected.rawValue)
                        json.member("observed", result.observed.rawValue)
                        json.member("exitStatus", result.exitStatus.map(Int64.init))
                        json.member("passed", result.passed)
                    }
                }
            }
        }
        return json.bytes + [0x0A]
    }
}
