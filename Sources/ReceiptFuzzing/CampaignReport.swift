import Foundation
import ReceiptSuite
import ReceiptConformance

/// Writes a campaign's findings: each group's smallest input, a `manifest.json` in the schema of mutation suites
/// (the expected verdict is `rcpt verify`'s, so `rcpt conformance` replays the disagreements as regressions: a fixed
/// validator passes), and `report.json` (`rcpt.fuzz-validator/1`).
package enum CampaignReport {
    package static let schema = "rcpt.fuzz-validator/1"

    package static func write(_ summary: CampaignSummary, expectations: ManifestExpectations, seed: UInt64,
                             seeds: [String], to directory: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var manifest = Manifest(input: seeds.joined(separator: ", "), seed: seed, expectations: expectations,
                                mutations: [], skipped: [:])
        for group in summary.groups {
            let name = fileName(group)
            let file = name + (group.representative.isJWS ? ".jws" : ".receipt")
            manager.createFile(atPath: directory + "/" + file, contents: Data(group.representative.bytes))
            manifest.mutations.append(ManifestEntry(
                name: name, file: file, group: group.kind.rawValue, layer: group.code,
                description: group.representative.edits.joined(separator: " then ") + " (seed \(seeds[safe: group.representative.seed] ?? "?"))",
                expected: group.verdict.isValid ? ExpectedVerdict.accept.rawValue : ExpectedVerdict.reject.rawValue,
                finding: group.verdict.isValid ? nil : group.code, signatureValid: true,
                concern: Concern.security.rawValue))
        }
        try manifest.write(in: directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(ReportDocument(summary, seed: seed, seeds: seeds)) + Data("\n".utf8))
            .write(to: URL(fileURLWithPath: directory + "/report.json"))
    }

    /// `accepted-what-rcpt-rejects-chain-invalid`: the class and the code, file-name safe.
    package static func fileName(_ group: DisagreementGroup) -> String {
        let raw = group.kind.rawValue + "-" + group.code
        return String(raw.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    /// The summary as people read it.
    package static func text(_ summary: CampaignSummary, allowed: Set<Disagreement>) -> String {
        let rate = summary.seconds > 0 ? Double(summary.runs) / summary.seconds : 0
        var out = "\(summary.runs) inputs in \(String(format: "%.1f", summary.seconds)) s (\(String(format: "%.0f", rate)) inputs/s): "
            + "\(summary.agreed) agreed with rcpt verify, \(summary.runs - summary.agreed) disagreed\n"
        if summary.groups.isEmpty { return out + "no disagreement\n" }
        for kind in Disagreement.allCases {
            let groups = summary.groups.filter { $0.kind == kind }
            guard !groups.isEmpty else { continue }
            out += "\n\(kind.rawValue): \(summary.counts[kind] ?? 0) inputs in \(groups.count) group(s)"
                + (allowed.contains(kind) ? " (allowed)" : "") + "\n"
            for group in groups {
                out += "  \(group.code.padding(toLength: 34, withPad: " ", startingAt: 0)) \(group.count) input(s); smallest: "
                    + group.representative.edits.joined(separator: " then ") + "\n"
            }
        }
        return out
    }

    struct ReportDocument: Encodable {
        struct Group: Encodable {
            var kind: String
            var code: String
            var count: Int
            var file: String
            var edits: [String]
            var seed: String
            var rcptCodes: [String]
            var rcptValid: Bool
            var validatorOutcome: String
            var validatorStderr: String
        }

        var schema = CampaignReport.schema
        var seed: UInt64
        var seeds: [String]
        var runs: Int
        var seconds: Double
        var inputsPerSecond: Double
        var agreed: Int
        var counts: [String: Int]
        var groups: [Group]

        init(_ summary: CampaignSummary, seed: UInt64, seeds: [String]) {
            self.seed = seed
            self.seeds = seeds
            runs = summary.runs
            seconds = (summary.seconds * 1000).rounded() / 1000
            inputsPerSecond = summary.seconds > 0 ? (Double(summary.runs) / summary.seconds).rounded() : 0
            agreed = summary.agreed
            counts = Dictionary(uniqueKeysWithValues: summary.counts.map { ($0.key.rawValue, $0.value) })
            groups = summary.groups.map { group in
                Group(kind: group.kind.rawValue, code: group.code, count: group.count,
                      file: CampaignReport.fileName(group) + (group.representative.isJWS ? ".jws" : ".receipt"),
                      edits: group.representative.edits, seed: seeds[safe: group.representative.seed] ?? "",
                      rcptCodes: group.verdict.codes, rcptValid: group.verdict.isValid,
                      validatorOutcome: group.run.outcome.label, validatorStderr: group.run.stderrTail)
            }
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
