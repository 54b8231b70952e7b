@testable import ReceiptConformance
import ReceiptMutation
import ReceiptSuite
import Testing

@Suite("Running validators")
struct ConformanceRunnerTests {
    @Test func classifiesHowEachRunEnded() throws {
        #expect(try ConformanceRunner.runShell("true", timeout: 30).outcome == .accepted)
        #expect(try ConformanceRunner.runShell("exit 3", timeout: 30).outcome == .rejected(status: 3))
        #expect(try ConformanceRunner.runShell("exit 3", timeout: 30, rejectCodes: [1]).outcome == .errored(status: 3))
        #expect(try ConformanceRunner.runShell("exit 1", timeout: 30, rejectCodes: [1]).outcome == .rejected(status: 1))
        #expect(try ConformanceRunner.runShell("kill -SEGV $$", timeout: 30).outcome == .crashed(signal: 11))
        #expect(try ConformanceRunner.runShell("sh -c 'kill -ABRT $$'", timeout: 30).outcome == .crashed(signal: 6))
        #expect(try ConformanceRunner.runShell("/nonexistent/validator x", timeout: 30).outcome
            == .couldNotRun(status: 127))
        // A validator that would run for ten seconds is killed at the timeout and reported as such.
        #expect(try ConformanceRunner.runShell("sleep 10", timeout: 0.3).outcome == .timedOut)
    }

    @Test func keepsTheEndOfWhatTheValidatorWrote() throws {
        let run = try ConformanceRunner.runShell("echo out; i=0; while [ $i -lt 500 ]; do echo line $i >&2; i=$((i+1)); done; exit 1",
                                                 timeout: 30)
        #expect(run.stdoutTail == "out")
        #expect(run.stderrTail.hasSuffix("line 499"))
        #expect(!run.stderrTail.contains("line 1\n"))
        #expect(run.stderrTail.utf8.count <= ValidatorRun.tailBytes)
    }

    @Test func namesSignalsAndDetails() {
        #expect(RunOutcome.crashed(signal: 11).detail == "crashed (SIGSEGV)")
        #expect(RunOutcome.rejected(status: 1).detail == "rejected (exit 1)")
        #expect(RunOutcome.of(status: 139, signal: nil, rejectCodes: nil) == .crashed(signal: 11))
        #expect(RunOutcome.of(status: 126, signal: nil, rejectCodes: nil) == .couldNotRun(status: 126))
    }

    @Test func replacesThePlaceholderBareOrQuoted() {
        let path = "/tmp/suite dir/a.receipt"
        let quoted = ShellWords.quoted(path)
        #expect(ConformanceRunner.commandLine("v {}", path: path) == "v \(quoted)")
        #expect(ConformanceRunner.commandLine("v \"{}\"", path: path) == "v \(quoted)")
        #expect(ConformanceRunner.commandLine("v '{}'", path: path) == "v \(quoted)")
    }

    @Test func quotesPathsForTheShell() {
        #expect(ShellWords.quoted("suite/a-b.receipt") == "suite/a-b.receipt")
        #expect(ShellWords.quoted("it's here") == "'it'\\''s here'")
    }
}
