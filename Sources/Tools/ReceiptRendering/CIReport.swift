/// What a run gave, in the shape CI systems read: one case per input (or per group of findings), each passed,
/// failed (a wrong verdict: a bad input accepted, a valid one rejected) or errored (no verdict: a crash, a hang, a
/// validator that could not run), with the rule it breaks, a message, the details a person acts on (the file, the
/// command that reproduces it, why it matters, what the validator wrote) and the file it is about. `JUnitXML` (CI
/// test tabs) and `SARIFLog` (code scanning) write it.
package struct CIReport: Sendable {
    /// The command that ran: `rcpt conformance`, `rcpt fuzz-validator`, `rcpt verify`.
    package var tool: String
    /// What was run over: the suite, the seeds, the files.
    package var subject: String
    package var seconds: Double
    /// Name and value pairs a reader may want (the validator's command line, the suite).
    package var properties: [(name: String, value: String)]
    package var cases: [Case]

    package struct Case: Sendable {
        package enum Outcome: String, Sendable {
            case passed
            case failed
            case errored
            /// Not judged on purpose: a file a directory scan left out as clearly not a document.
            case skipped
        }

        package var name: String
        /// The group it belongs to (a catalogue group, a disagreement class, `verify`).
        package var group: String
        package var outcome: Outcome
        /// The rule a failure breaks: `accepted-bad/chain`, `crashed`, a finding code.
        package var rule: String
        /// What the rule means, once per rule.
        package var ruleDescription: String
        package var message: String
        package var details: String
        /// The file the case is about, as the run named it.
        package var file: String?
        package var seconds: Double
        /// Reported, though not a failure (an over-strict rejection, an allowed disagreement).
        package var isNote: Bool

        package init(
            name: String, group: String, outcome: Outcome, rule: String, ruleDescription: String,
            message: String, details: String, file: String?, seconds: Double, isNote: Bool = false
        ) {
            self.name = name
            self.group = group
            self.outcome = outcome
            self.rule = rule
            self.ruleDescription = ruleDescription
            self.message = message
            self.details = details
            self.file = file
            self.seconds = seconds
            self.isNote = isNote
        }
    }

    package init(
        tool: String, subject: String, seconds: Double, properties: [(name: String, value: String)],
        cases: [Case]
    ) {
        self.tool = tool
        self.subject = subject
        self.seconds = seconds
        self.properties = properties
        self.cases = cases
    }

    package var failures: Int { cases.filter { $0.outcome == .failed }.count }
    package var errors: Int { cases.filter { $0.outcome == .errored }.count }
    package var skipped: Int { cases.filter { $0.outcome == .skipped }.count }
}
