import Foundation
import ReceiptTestSupport
import Testing

/// `scripts/fuzz.sh` says "ok" only for a harness that ran: one that is missing or cannot start is "never-ran", and
/// the run fails (a gate must not turn green on a harness that never executed an input).
@Suite("The fuzz script's gate")
struct FuzzScriptTests {
    @Test func aHarnessThatNeverRanFailsTheRun() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-fuzz-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (status, text) = try CLI.process(
            "/bin/bash", [Fixtures.url("scripts/fuzz.sh").path, "--regressions", "--no-build"],
            adding: [
                "FUZZ_SCRATCH": scratch.path,
                "FUZZ_WORK": scratch.appendingPathComponent("work").path,
            ])
        #expect(status == 1, "\(text.suffix(400))")
        #expect(text.contains("fails in attributes: never-ran"), "\(text.suffix(400))")
        #expect(!text.contains(" ok\n"), "\(text.suffix(400))")
    }
}
