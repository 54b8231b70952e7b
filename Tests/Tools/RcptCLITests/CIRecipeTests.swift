import Foundation
import ReceiptTestSupport
import Testing

/// The CI recipe in docs/ works out of the box: its own fuzz and replay commands, run as the workflow runs them
/// (its CONTEXT, a careful server validator in VALIDATOR, a short campaign instead of five minutes, the sandbox
/// receipt as the seed), pass.
@Suite("The CI recipes in docs/")
struct CIRecipeTests {
    /// The shell command of the step that holds `marker`, its continuation lines joined.
    static func command(_ workflow: String, containing marker: String) -> String? {
        let lines = workflow.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard
            var index = lines.firstIndex(where: {
                $0.contains(marker) && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#")
            })
        else { return nil }
        var command = lines[index].replacingOccurrences(of: "run: ", with: "")
        while command.hasSuffix("\\"), index + 1 < lines.count {
            index += 1
            command = String(command.dropLast()) + " " + lines[index].trimmingCharacters(in: .whitespaces)
        }
        return command.trimmingCharacters(in: .whitespaces)
    }

    static func run(_ command: String, environment: [String: String], in directory: URL) throws -> (Int32, String) {
        try CLI.process("/bin/sh", ["-c", command], in: directory, adding: environment)
    }

    @Test func theFuzzValidatorRecipePassesACarefulServerValidator() throws {
        let workflow = try String(contentsOf: Fixtures.url("docs/github-actions-fuzz-validator.yml"), encoding: .utf8)
        #expect(workflow.contains("CONTEXT: server"))
        let fuzz = try #require(Self.command(workflow, containing: "rcpt fuzz-validator"))
        let replay = try #require(Self.command(workflow, containing: "rcpt conformance"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-recipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("tests/fixtures"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Fixtures.realReceipt(Fixtures.sandboxReceipt)).write(
            to: directory.appendingPathComponent("tests/fixtures/real.receipt"))
        let temp = directory.appendingPathComponent("runner").path
        let environment = [
            "RUNNER_TEMP": temp, "CONTEXT": "server", "GITHUB_RUN_NUMBER": "1",
            "PATH": CLI.executable.deletingLastPathComponent().path + ":"
                + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            // A server knows the app, not the device: the careful validator checks what it can.
            "VALIDATOR": "rcpt verify --root tests/testca/root.pem --bundle-id com.cocoanetics.EmmiView {}",
        ]
        // The test CA the recipe expects committed.
        #expect(try Self.run("rcpt ca init tests/testca", environment: environment, in: directory).0 == 0)
        // A fixed campaign on a pull request (the same inputs every time), five minutes exploring on a push; a
        // short campaign here.
        #expect(workflow.contains(#"budget="--seed 1 --runs 2000""#))
        #expect(workflow.contains(#"budget="--seed $GITHUB_RUN_NUMBER --time 300""#))
        // Its own exit status, not the step's bookkeeping of it (the step keeps the SARIF only when one was written).
        #expect(fuzz.hasSuffix(" || status=$?"), "\(fuzz)")
        let short = fuzz.replacingOccurrences(of: "$budget", with: "--seed 1 --runs 80 --timeout 600")
            .replacingOccurrences(of: " || status=$?", with: "")
        #expect(!short.contains("$budget"), "the recipe's campaign changed: \(fuzz)")
        let fuzzed = try Self.run(short, environment: environment, in: directory)
        #expect(fuzzed.0 == 0, "\(short)\n\(fuzzed.1.suffix(800))")
        let sarif = try Data(contentsOf: directory.appendingPathComponent("fuzz.sarif.part"))
        #expect(sarif.count > 100)
        // The findings folder holds the seed's baseline: its replay, as the recipe runs it, passes too.
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("tests"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent("findings"),
            to: directory.appendingPathComponent("tests/receipt-regressions"))
        let replayed = try Self.run(
            replay.replacingOccurrences(of: "--jobs 2", with: "--jobs 2 --timeout 600"),
            environment: environment, in: directory)
        #expect(replayed.0 == 0, "\(replay)\n\(replayed.1.suffix(800))")
    }
}
