import ReceiptMutation
import ReceiptSuite
import Testing

@testable import ReceiptConformance

@Suite("Running validators")
struct ConformanceRunnerTests {
    @Test func classifiesHowEachRunEnded() throws {
        #expect(try ConformanceRunner.runShell("true", timeout: 30).outcome == .accepted)
        #expect(try ConformanceRunner.runShell("exit 3", timeout: 30).outcome == .rejected(status: 3))
        #expect(try ConformanceRunner.runShell("exit 3", timeout: 30, rejectCodes: [1]).outcome == .errored(status: 3))
        #expect(try ConformanceRunner.runShell("exit 1", timeout: 30, rejectCodes: [1]).outcome == .rejected(status: 1))
        #expect(try ConformanceRunner.runShell("kill -SEGV $$", timeout: 30).outcome == .crashed(signal: 11))
        #expect(try ConformanceRunner.runShell("sh -c 'kill -ABRT $$'", timeout: 30).outcome == .crashed(signal: 6))
        #expect(
            try ConformanceRunner.runShell("/nonexistent/validator x", timeout: 30).outcome
                == .couldNotRun(status: 127))
        // A validator that would run for ten seconds is killed at the timeout and reported as such.
        #expect(try ConformanceRunner.runShell("sleep 10", timeout: 0.3).outcome == .timedOut)
    }

    /// A validator that dies of an uncaught exception exits with an ordinary status; its runtime's report tells the
    /// crash from a rejection, for each runtime validators are written in, whatever --reject-codes names.
    @Test(arguments: [
        ("Python traceback", "python3 -c 'import json; json.loads(\"{\")'"),
        (
            "JVM uncaught exception",
            "printf 'Exception in thread \"main\" java.lang.NullPointerException\\n\\tat Validator.main(Validator.java:12)\\n' >&2; exit 1"
        ),
        (
            "Go panic",
            "printf 'panic: runtime error: index out of range [3] with length 2\\n\\ngoroutine 1 [running]:\\nmain.main()\\n\\t/src/main.go:9 +0x1d\\nexit status 2\\n' >&2; exit 2"
        ),
        (
            "Node.js uncaught exception",
            "printf '/src/validate.js:4\\n  throw new Error(\"bad\");\\n  ^\\n\\nError: bad\\n    at Object.<anonymous> (/src/validate.js:4:9)\\n    at node:internal/main/run_main_module:28:49\\n' >&2; exit 1"
        ),
        (
            "Swift fatal error",
            "printf 'Validator/main.swift:7: Fatal error: Unexpectedly found nil while unwrapping an Optional value\\n' >&2; exit 1"
        ),
        ("Rust panic", "printf \"thread 'main' panicked at src/main.rs:5:13:\\nindex out of bounds\\n\" >&2; exit 101"),
        (
            ".NET unhandled exception",
            "printf 'Unhandled exception. System.FormatException: bad\\n   at Program.Main()\\n' >&2; exit 1"
        ),
    ])
    func tellsUncaughtExceptionsFromRejections(_ runtime: String, _ command: String) throws {
        let run = try ConformanceRunner.runShell(command, timeout: 60)
        guard case .raised(let found, _) = run.outcome else {
            Issue.record("\(runtime): \(run.outcome.detail); stderr \(run.stderrTail)")
            return
        }
        #expect(found == runtime)
        #expect(run.outcome.label == "crashed")
        // A status --reject-codes lists is a rejection even after the report (a validator that logs an exception it
        // handled); with rejections of a status of their own, the report still makes it a crash.
        if case .raised(_, let status) = run.outcome, (1...128).contains(status) {
            let listed = try ConformanceRunner.runShell(command, timeout: 60, rejectCodes: [status]).outcome
            #expect(listed == .rejected(status: status), "\(listed.detail)")
            let other = try ConformanceRunner.runShell(command, timeout: 60, rejectCodes: [status % 120 + 3]).outcome
            #expect(other == .raised(runtime: runtime, status: status), "\(other.detail)")
        }
    }

    @Test func aRejectionThatSaysWhyIsNoCrash() throws {
        // Messages that mention errors are verdicts, not crashes.
        for command in [
            "echo 'invalid: error in signature' >&2; exit 1", "echo 'Error: receipt rejected' >&2; exit 1",
            "echo 'panic: no, just a word' >&2; exit 1",
        ] {
            #expect(try ConformanceRunner.runShell(command, timeout: 60).outcome == .rejected(status: 1), "\(command)")
        }
    }

    @Test func keepsTheEndOfWhatTheValidatorWrote() throws {
        let run = try ConformanceRunner.runShell(
            "echo out; i=0; while [ $i -lt 500 ]; do echo line $i >&2; i=$((i+1)); done; exit 1",
            timeout: 30)
        #expect(run.stdoutTail == "out")
        #expect(run.stderrTail.hasSuffix("line 499"))
        #expect(!run.stderrTail.contains("line 1\n"))
        #expect(run.stderrTail.utf8.count <= ValidatorRun.tailBytes)
    }

    /// A batch validator's answer is a verdict only when its first word is one: a banner or a log line is none.
    @Test func readsVerdictWordsAndNothingElse() {
        for line in ["0", "OK", "accepted /tmp/x.receipt", "Valid\tyes"] {
            #expect(BatchValidator.verdict(of: line) == .accepted, "\(line)")
        }
        for line in ["1", "reject", "INVALID: chain", "failed", "no", "3", "-1"] {
            #expect(BatchValidator.verdict(of: line) == .rejected(status: 1), "\(line)")
        }
        for line in ["", "validator v2 ready", "Traceback (most recent call last):", "0.5", "okay", "true"] {
            #expect(BatchValidator.verdict(of: line) == nil, "\(line)")
        }
        // A name and its value that says otherwise is no verdict (a trial's validator printed "valid: false").
        for line in [
            "valid: false", "ok: false", "accepted: no", "valid, no", "valid = 0", "ok 2", "invalid: false",
            "rejected: 0", "rejected: valid",
        ] {
            #expect(BatchValidator.verdict(of: line) == nil, "\(line)")
        }
        for line in ["valid: true", "ok 1", "accepted: yes"] {
            #expect(BatchValidator.verdict(of: line) == .accepted, "\(line)")
        }
        // A rejection's reason or status code (Apple's library in a peer validator prints "rejected: 1").
        for line in ["invalid: true", "invalid: bundle id mismatch", "rejected: 1", "rejected: 2", "fail: yes"] {
            #expect(BatchValidator.verdict(of: line) == .rejected(status: 1), "\(line)")
        }
        let banner = RunOutcome.unreadableAnswer(line: "ready \u{1B}[31m" + String(repeating: "x", count: 100))
        #expect(banner.label == "errored")
        #expect(!banner.isVerdict)
        #expect(banner.detail.hasPrefix("errored (answered \"ready ?[31mxxx"))
        #expect(banner.detail.hasSuffix("…\", not a verdict)"))
    }

    /// A batch process whose output ends is waited for, not given a moment and called a timeout: with a patient
    /// timeout, a process that exits some work after closing its output (as on a busy machine) is an error or a crash.
    @Test func aBatchProcessThatEndsIsWaitedFor() throws {
        let slowExit = try BatchValidator(command: "read -r path; exec 1>&-; python3 -c 'pass'; exit 4", timeout: 600)
        #expect(slowExit.run("/tmp/a").outcome == .errored(status: 4))
        let slowCrash = try BatchValidator(
            command: "read -r path; exec 1>&-; python3 -c 'pass'; kill -SEGV $$", timeout: 600)
        #expect(slowCrash.run("/tmp/a").outcome == .crashed(signal: 11))
        let banner = try BatchValidator(
            command: "echo 'validator v2 ready'; while read -r p; do echo 0; done", timeout: 600)
        #expect(banner.run("/tmp/a").outcome == .unreadableAnswer(line: "validator v2 ready"))
        // Started again, it is read in step: the banner again, never the verdict meant for the previous input.
        #expect(banner.run("/tmp/b").outcome == .unreadableAnswer(line: "validator v2 ready"))
        // Two lines for one input (a reason a line): the second is never read as the next input's verdict.
        let twoLines = try BatchValidator(
            command:
                "while read -r p; do case $p in *bad*) printf 'invalid: a\\ninvalid: b\\n';; *) echo ok;; esac; done",
            timeout: 600)
        #expect(twoLines.run("/tmp/good").outcome == .accepted)
        #expect(twoLines.run("/tmp/bad").outcome == .rejected(status: 1))
        #expect(twoLines.run("/tmp/good").outcome == .lineNotAskedFor(line: "invalid: b"))
        // Started again, it is read in step.
        #expect(twoLines.run("/tmp/good").outcome == .accepted)
        let python = try BatchValidator(command: "read -r p; python3 -c 'raise KeyError(1)'; exit 1", timeout: 600)
        guard case .raised(let runtime, _) = python.run("/tmp/a").outcome else {
            Issue.record("a Python traceback is a crash")
            return
        }
        #expect(runtime == "Python traceback")
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
