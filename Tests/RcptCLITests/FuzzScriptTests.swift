import Foundation
import ReceiptTestSupport
import Testing

/// `scripts/fuzz.sh` says "ok" only for a harness that ran: one that is missing or cannot start is "never-ran", and
/// the run fails (a gate must not turn green on a harness that never executed an input).
@Suite("The fuzz script's gate")
struct FuzzScriptTests {
    @Test func aHarnessThatNeverRanFailsTheRun() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-fuzz-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Fixtures.url("scripts/fuzz.sh").path, "--regressions", "--no-build"]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["FUZZ_SCRATCH": scratch.path, "FUZZ_WORK": scratch.appendingPathComponent("work").path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(text.suffix(400))")
        #expect(text.contains("fails in attributes: never-ran"), "\(text.suffix(400))")
        #expect(!text.contains(" ok\n"), "\(text.suffix(400))")
    }
}

