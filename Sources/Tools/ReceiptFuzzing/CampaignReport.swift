import Foundation
import ReceiptConformance
import ReceiptDiagnostics
import ReceiptMutation
import ReceiptSuite

/// Writes a campaign's findings: each group's smallest input, a `manifest.json` in the schema of mutation suites
/// (the expected verdict is `rcpt verify`'s, so `rcpt conformance` replays the disagreements as regressions: a fixed
/// validator passes), and `report.json` (`rcpt.fuzz-validator/1`).
package enum CampaignReport {
    package static let schema = "rcpt.fuzz-validator/1"

    /// Writes the findings to `directory`: the seeds' baselines first (must-accept entries of group `baseline`, so a
    /// replay refuses a validator that rejects them), then each group's smallest input, `manifest.json` and
    /// `report.json`.
    package static func write(
        _ summary: CampaignSummary, gate: CampaignGate, expectations: ManifestExpectations, seed: UInt64,
        seeds: [String], to directory: String
    ) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        Manifest.removePrevious(in: directory)  // the command asked for --force when there was one
        var manifest = Manifest(
            input: seeds.joined(separator: ", "), seed: seed, expectations: expectations,
            mutations: [], skipped: [:])
        for baseline in summary.baselines where baseline.verdict.isValid {
            let file = baselineFile(baseline)
            manager.createFile(atPath: directory + "/" + file, contents: Data(baseline.input.bytes))
            manifest.mutations.append(
                ManifestEntry(
                    name: file.split(separator: ".").first.map(String.init) ?? file, file: file, group: "baseline",
                    layer: "none",
                    description:
                        "the seed \(seeds[safe: baseline.input.seed] ?? "?") re-signed unchanged by the test CA: a correctly configured validator accepts it",
                    expected: ExpectedVerdict.accept.rawValue, finding: nil, signatureValid: true,
                    concern: Concern.security.rawValue, attacker: Attacker.replay.rawValue,
                    threat: "the seed itself, re-signed: genuine"))
        }
        for group in summary.groups {
            let name = fileName(group)
            let file = name + extensionOf(group.representative)
            manager.createFile(atPath: directory + "/" + file, contents: Data(group.representative.bytes))
            manifest.mutations.append(
                ManifestEntry(
                    name: name, file: file, group: group.kind.rawValue, layer: group.code,
                    description: group.representative.edits.joined(separator: " then ")
                        + " (seed \(seeds[safe: group.representative.seed] ?? "?"))",
                    expected: group.verdict.isValid ? ExpectedVerdict.accept.rawValue : ExpectedVerdict.reject.rawValue,
                    finding: group.verdict.isValid ? nil : group.code, signatureValid: true,
                    concern: threat(group).concern.rawValue, attacker: threat(group).attacker.rawValue,
                    threat: threat(group).why, readers: threat(group).readers))
        }
        try manifest.write(in: directory)
        try Data(json(summary, gate: gate, seed: seed, seeds: seeds, directory: directory))
            .write(to: URL(fileURLWithPath: directory + "/report.json"))
    }

    /// A finding's file extension as a suite names its files: `.json` for a JSON document (a notification body, an
    /// API response), `.jws` for a token, `.receipt` for a receipt.
    static func extensionOf(_ input: GeneratedInput) -> String {
        guard input.isJWS else { return ".receipt" }
        return input.bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
            ? ".json" : ".jws"
    }

    /// `report.json` (`rcpt.fuzz-validator/1`): the files it names are in `directory` when one is given, and none
    /// is named when the findings were not written. `failed` is the campaign's exit status (`gate`), so a CI step
    /// reads the verdict from the report alone.
    package static func json(
        _ summary: CampaignSummary, gate: CampaignGate, seed: UInt64, seeds: [String], directory: String?
    ) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = ReportDocument(summary, gate: gate, seed: seed, seeds: seeds, written: directory != nil)
        return Array(((try? encoder.encode(document)) ?? Data("{}".utf8)) + Data("\n".utf8))
    }

    /// `baseline-0.receipt`: a seed's baseline file.
    static func baselineFile(_ baseline: SeedBaseline) -> String {
        "baseline-\(baseline.input.seed)" + extensionOf(baseline.input)
    }

    /// Who could make a group's inputs and what accepting them costs: from the catalogue entries its representative
    /// was made with, as `mutate` and `conformance` label the same input. A random payload or claim edit is the
    /// signer's, unless the validator accepted what rcpt refuses for another app, device or version: a genuine
    /// document replayed would be refused for that too. A crash, hang or error stays the edits' own: a replay of
    /// another app's document does not make a signer's shape (a reviewer's trial: a crash on `attribute-two-fields`
    /// was labelled a replay for its incidental bundle-id-mismatch; another's: accepting `bundle-id-as-integer` was
    /// a replay, security, here and signer, robustness in `conformance`).
    package static func threat(_ group: DisagreementGroup) -> Threat {
        threat(group.kind, group.representative, group.verdict)
    }

    /// The threat of one input of a group of `kind`, with `rcpt verify`'s `verdict` on it.
    static func threat(_ kind: Disagreement, _ input: GeneratedInput, _ verdict: ReferenceVerdict) -> Threat {
        let edits = input.edits.filter { $0 != "baseline" && $0 != FuzzInputGenerator.staleHash }
        let fromCatalogue =
            !edits.isEmpty && edits.allSatisfy { $0.hasPrefix("catalogue:") || $0.hasPrefix("jws-catalogue:") }
        let threats = input.edits.compactMap { edit -> Threat? in
            if edit == "baseline" || edit == FuzzInputGenerator.staleHash { return nil }
            if edit.hasPrefix("catalogue:") {
                return MutationCatalogue.named(String(edit.dropFirst(10)))?.threat ?? Threat.signedEdit
            }
            if edit.hasPrefix("jws-catalogue:") {
                return JWSMutationCatalogue.named(String(edit.dropFirst(14)))?.threat ?? Threat.signedEdit
            }
            return Threat.signedEdit
        }
        let made = Threat.combined(threats)
        if !fromCatalogue, made.attacker == .signer, kind == .acceptedWhatRcptRejects,
            let replayed = Threat.replayed(for: verdict.codes)
        {
            return replayed
        }
        return made
    }

    /// `accepted-what-rcpt-rejects-chain-invalid`: the class and the code, file-name safe.
    package static func fileName(_ group: DisagreementGroup) -> String {
        let raw = group.kind.rawValue + "-" + group.code
        return String(raw.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    /// The summary as people read it.
    package static func text(
        _ summary: CampaignSummary, gate: CampaignGate, seeds: [String] = [],
        directory: String? = nil, validator: String = ""
    ) -> String {
        if let refused = summary.baselines.first(where: \.refused) {
            var out =
                "the validator does not accept the seed \(seeds[safe: refused.input.seed] ?? "#\(refused.input.seed)") re-signed unchanged by the test CA, "
                + "which rcpt verify accepts: its options are wrong (a --root path, the bundle id, the device id, a missing dependency), "
                + "and no mutation can be judged with it. It \(refused.run.outcome.detail)"
                + (refused.run.outcome.isVerdict ? "" : " instead of giving a verdict") + ".\n"
            if let directory {
                let file = directory + "/" + baselineFile(refused)
                out += "  file:      \(file)\n  reproduce: \(ConformanceRunner.commandLine(validator, path: file))\n"
            } else {
                out += "  (--out-dir writes the re-signed seed, to run the validator on it by hand)\n"
            }
            for (name, tail) in [("stdout", refused.run.stdoutTail), ("stderr", refused.run.stderrTail)]
            where !tail.isEmpty {
                out +=
                    "  \(name):\n"
                    + tail.split(separator: "\n", omittingEmptySubsequences: false).suffix(10)
                    .map { "    | " + $0 + "\n" }.joined()
            }
            return out
        }
        let rate = summary.seconds > 0 ? Double(summary.runs) / summary.seconds : 0
        var out =
            "\(summary.runs) inputs in \(String(format: "%.1f", summary.seconds)) s (\(String(format: "%.0f", rate)) inputs/s): "
            + "\(summary.agreed) agreed with rcpt verify, \(summary.runs - summary.agreed) disagreed\n"
        if summary.groups.isEmpty { return out + "no disagreement\n" }
        for kind in Disagreement.allCases {
            let groups = summary.groups.filter { $0.kind == kind }
            guard !groups.isEmpty else { continue }
            out +=
                "\n\(kind.rawValue): \(summary.counts[kind] ?? 0) inputs in \(groups.count) group(s)"
                + (gate.allowed.contains(kind) ? " (allowed)" : "") + "\n"
            for group in groups {
                let threat: Threat = threat(group)
                let note: String = gate.note(group).flatMap { $0 == "allowed" ? nil : " (" + $0 + ")" } ?? ""
                let edits: String = group.representative.edits.joined(separator: " then ")
                let code: String = TerminalText.column(group.code, width: 34)
                let first: String = "\(group.firstInput) (" + String(format: "%.1f", group.firstSeconds) + " s)"
                out +=
                    "  " + code + " \(group.count) input(s), first at input " + first + "; smallest: " + edits
                    + " [" + threat.attacker.rawValue + ", " + threat.concern.rawValue + "]" + note + "\n"
            }
        }
        return out
    }

    struct ReportDocument: Encodable {
        /// A value written even when absent: `null`, so the shape of the JSON does not depend on the run.
        struct Nullable<Value: Encodable>: Encodable {
            var value: Value?
            func encode(to encoder: Encoder) throws {
                var container = encoder.singleValueContainer()
                if let value { try container.encode(value) } else { try container.encodeNil() }
            }
        }

        struct Run: Encodable {
            var outcome: String
            var detail: String
            /// The signal that killed it, when one did.
            var signal: Nullable<Int32>
            /// The runtime whose uncaught exception ended it, when one did.
            var uncaught: Nullable<String>
            var stderr: String

            init(_ run: ValidatorRun) {
                outcome = run.outcome.label
                detail = run.outcome.detail
                signal = Nullable(value: run.outcome.signal)
                if case .raised(let runtime, _) = run.outcome {
                    uncaught = Nullable(value: runtime)
                } else {
                    uncaught = Nullable(value: nil)
                }
                stderr = run.stderrTail
            }
        }

        struct Baseline: Encodable {
            var seed: String
            var file: Nullable<String>
            var rcptValid: Bool
            var refused: Bool
            var validator: Run
        }

        struct Group: Encodable {
            var kind: String
            var code: String
            var concern: String
            var attacker: String
            /// Why the input's attacker and concern are what they are.
            var threat: String
            var count: Int
            /// The representative's file in the findings folder; null when the findings were not written.
            var file: Nullable<String>
            var edits: [String]
            var seed: String
            var rcptCodes: [String]
            var rcptValid: Bool
            var validatorOutcome: String
            var validator: Run
            var validatorStderr: String
            /// The input (from 1) and the seconds into the campaign at which the group was first hit.
            var firstInput: Int
            var firstSeconds: Double
            /// Whether the group fails the campaign; why not when it does not (allowed, over-strict, not gated).
            var fails: Bool
            var note: Nullable<String>
        }

        var schema = CampaignReport.schema
        /// Whether the campaign fails (exit 1), and the concerns whose accepted bad inputs fail it.
        var failed: Bool
        var gate: [String]
        var seed: UInt64
        var seeds: [String]
        /// Whether the validator refused a seed rcpt verify accepts (then nothing else ran).
        var refused: Bool
        var baselines: [Baseline]
        var runs: Int
        var seconds: Double
        var inputsPerSecond: Double
        var agreed: Int
        var counts: [String: Int]
        var groups: [Group]

        init(_ summary: CampaignSummary, gate: CampaignGate, seed: UInt64, seeds: [String], written: Bool) {
            failed = gate.fails(summary)
            self.gate = gate.concerns.map(\.rawValue)
            self.seed = seed
            self.seeds = seeds
            refused = summary.baselines.contains(where: \.refused)
            baselines = summary.baselines.map { baseline in
                Baseline(
                    seed: seeds[safe: baseline.input.seed] ?? "",
                    file: Nullable(
                        value: written && baseline.verdict.isValid ? CampaignReport.baselineFile(baseline) : nil),
                    rcptValid: baseline.verdict.isValid, refused: baseline.refused, validator: Run(baseline.run))
            }
            runs = summary.runs
            seconds = (summary.seconds * 1000).rounded() / 1000
            inputsPerSecond = summary.seconds > 0 ? (Double(summary.runs) / summary.seconds).rounded() : 0
            agreed = summary.agreed
            counts = Dictionary(uniqueKeysWithValues: summary.counts.map { ($0.key.rawValue, $0.value) })
            groups = summary.groups.map { group in
                Group(
                    kind: group.kind.rawValue, code: group.code,
                    concern: CampaignReport.threat(group).concern.rawValue,
                    attacker: CampaignReport.threat(group).attacker.rawValue,
                    threat: CampaignReport.threat(group).why, count: group.count,
                    file: Nullable(
                        value: written
                            ? CampaignReport.fileName(group) + CampaignReport.extensionOf(group.representative) : nil),
                    edits: group.representative.edits, seed: seeds[safe: group.representative.seed] ?? "",
                    rcptCodes: group.verdict.codes, rcptValid: group.verdict.isValid,
                    validatorOutcome: group.run.outcome.label, validator: Run(group.run),
                    validatorStderr: group.run.stderrTail, firstInput: group.firstInput,
                    firstSeconds: (group.firstSeconds * 1000).rounded() / 1000, fails: gate.fails(group),
                    note: Nullable(value: gate.note(group)))
            }
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
