import ArgumentParser
import ReceiptBatch
import ReceiptConformance
import ReceiptDiagnostics
import ReceiptFuzzing
import ReceiptInput
import ReceiptMutation
import ReceiptRendering
import ReceiptSuite
import ReceiptValidation

/// The runs of `fuzz-validator` and of a batch `verify` as CI systems read them (`--format junit|sarif`);
/// `conformance`'s is `ConformanceReport.ciReport`.
extension CIReport {
    /// The report as JUnit XML (`junit`) or SARIF 2.1.0.
    func written(junit: Bool) -> [UInt8] {
        junit ? JUnitXML.document(self) : SARIFLog.document(self, version: Rcpt.configuration.version)
    }

    /// A campaign: a case per seed baseline, then one per disagreement group (failed for a wrong verdict, errored
    /// for none; an allowed class, and an accepted input of a concern not gated, passes, reported as a note).
    static func campaign(
        _ summary: CampaignSummary, seeds: [String], validator: String, gate: CampaignGate,
        directory: String?
    ) -> CIReport {
        var cases: [Case] = summary.baselines.map { baseline in
            let seed =
                seeds.indices.contains(baseline.input.seed) ? seeds[baseline.input.seed] : "seed \(baseline.input.seed)"
            return Case(
                name: "baseline of \(seed)", group: "baseline", outcome: baseline.refused ? .failed : .passed,
                rule: "baseline-rejected",
                ruleDescription: "the validator does not accept a seed re-signed unchanged: its options are wrong",
                message: baseline.refused
                    ? "the validator does not accept \(seed) re-signed unchanged (\(baseline.run.outcome.detail)), which rcpt verify accepts"
                    : "accepted",
                details: baseline.refused ? baseline.run.stderrTail : "", file: seed, seconds: baseline.run.seconds)
        }
        for group in summary.groups {
            let written = directory.map {
                $0 + "/" + CampaignReport.fileName(group) + (group.representative.isJWS ? ".jws" : ".receipt")
            }
            // Without the findings written, the seed the input was made from is where the result points.
            let seedFile = seeds.indices.contains(group.representative.seed) ? seeds[group.representative.seed] : nil
            let file = written ?? seedFile
            let isVerdict = group.kind == .acceptedWhatRcptRejects || group.kind == .rejectedWhatRcptAccepts
            let threat = CampaignReport.threat(group)
            var details =
                "smallest input: \(group.representative.edits.joined(separator: " then "))"
                + "\nwho could make it: \(threat.attacker.rawValue), \(threat.concern.rawValue) — \(threat.why)"
                + "\nrcpt verify: \(group.verdict.isValid ? "valid" : "invalid") \(group.verdict.codes.joined(separator: ", "))"
            if let written {
                details += "\nfile: \(written)\nreproduce: " + ConformanceRunner.commandLine(validator, path: written)
            }
            if !group.run.stderrTail.isEmpty { details += "\nstderr:\n" + group.run.stderrTail }
            cases.append(
                Case(
                    name: CampaignReport.fileName(group), group: group.kind.rawValue,
                    outcome: !gate.fails(group) ? .passed : isVerdict ? .failed : .errored,
                    rule: group.kind.rawValue + "/" + group.code,
                    ruleDescription: "\(group.kind.rawValue) for rcpt's finding \(group.code)",
                    message:
                        "\(group.count) input(s) \(group.kind.rawValue) (\(group.code)); \(group.run.outcome.detail)",
                    details: details, file: file, seconds: group.run.seconds, isNote: !gate.fails(group)))
        }
        return CIReport(
            tool: "rcpt fuzz-validator", subject: seeds.joined(separator: " "), seconds: summary.seconds,
            properties: [
                ("validator", validator), ("runs", String(summary.runs)),
                ("agreed", String(summary.agreed)),
            ], cases: cases)
    }

    /// A batch `verify`: a case per file (`verdict`), in input order.
    static func verdicts(_ cases: [Case], seconds: Double) -> CIReport {
        CIReport(tool: "rcpt verify", subject: "\(cases.count) files", seconds: seconds, properties: [], cases: cases)
    }

    /// A file a directory scan left out as clearly not a document, and why: a skipped test case (a SARIF note), so
    /// a CI tab shows what the gate did not judge.
    static func skipped(_ entry: BatchInspection.Skipped) -> Case {
        Case(
            name: entry.path, group: "verify", outcome: .skipped, rule: "skipped",
            ruleDescription: "a file a directory scan left out as clearly not a receipt or a JWS",
            message: "skipped: \(entry.reason)", details: "", file: entry.path, seconds: 0)
    }

    /// One file's verdict: passed when valid, failed when invalid (the rule is its first error code), errored when
    /// unreadable.
    static func verdict(path: String, document: Inspection?, reproduce: String) -> Case {
        guard let document else {
            return Case(
                name: path, group: "verify", outcome: .errored, rule: ErrorCode.fileUnreadable.rawValue,
                ruleDescription: "the file could not be read",
                message: "cannot read the file: \(InputFile.problem(path))",
                details: "", file: path, seconds: 0)
        }
        if let error = document.readError {
            return Case(
                name: path, group: document.kind.rawValue, outcome: .errored, rule: error.code,
                ruleDescription: "unreadable: \(error.code)",
                message: "\(error.code): \(error.message)" + (error.offset.map { " (offset \($0))" } ?? ""),
                details: "reproduce: \(reproduce)", file: path, seconds: 0)
        }
        let errors = document.codes(.error)
        guard let first = errors.first, !document.isValid else {
            return Case(
                name: path, group: document.kind.rawValue, outcome: .passed, rule: "valid", ruleDescription: "valid",
                message: "valid", details: "", file: path, seconds: 0)
        }
        let messages = document.findings.filter { $0.severity == .error }.map { "\($0.code): \($0.message)" }
        return Case(
            name: path, group: document.kind.rawValue, outcome: .failed, rule: first,
            ruleDescription: "rcpt verify finds \(first)",
            message: "invalid: " + errors.joined(separator: ", "),
            details: messages.joined(separator: "\n") + "\nreproduce: \(reproduce)", file: path, seconds: 0)
    }
}
