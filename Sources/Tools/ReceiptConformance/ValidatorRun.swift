import Foundation

/// What one run of a validator came to.
package enum RunOutcome: Sendable, Hashable {
    /// Exit status 0.
    case accepted
    /// A non-zero exit status that means "rejected" (any, unless `--reject-codes` names which).
    case rejected(status: Int32)
    /// A non-zero exit status outside `--reject-codes`: the validator failed without a verdict.
    case errored(status: Int32)
    /// Killed by a signal (or a shell reporting 128 + the signal): a crash is itself a finding.
    case crashed(signal: Int32)
    /// Exited with `status` after its runtime reported an uncaught exception (a Python traceback, a Go panic …):
    /// a crash, not a verdict, whatever `--reject-codes` says (the codes choose only between rejected and errored).
    case raised(runtime: String, status: Int32)
    /// A `--batch` validator wrote a line that is not a verdict (a banner, a log line, a stack trace): no verdict,
    /// and the line is shown.
    case unreadableAnswer(line: String)
    /// A `--batch` validator had written a line before it was given the input, after answering an earlier one: more
    /// than one line for that input. Its answers are out of step with the paths from there on, so none is read as this input's verdict.
    case lineNotAskedFor(line: String)
    /// Still running at the timeout; its whole process group was killed.
    case timedOut
    /// The shell could not find or execute the validator (exit status 127 or 126).
    case couldNotRun(status: Int32)
    /// An HTTP endpoint answered a 4xx status (or a 2xx whose body did not say "accepted", `--accept-when`):
    /// rejected.
    case refused(httpStatus: Int)
    /// An HTTP endpoint answered a 5xx status: it failed on the input (an unhandled error behind it), a crash.
    case serverError(httpStatus: Int)
    /// An HTTP endpoint could not be reached, dropped the connection, or answered with neither a verdict nor an
    /// error (a 1xx or 3xx status): no verdict.
    case unreachable(reason: String)

    /// Classifies an exit status. `rejectCodes` are the statuses that mean "rejected" (nil: every non-zero one):
    /// a status listed is a rejection even after an exception's report on `stderr` (a validator that logs the
    /// exception it handled; a trial found 35 correct rejections of Apple's library called crashes). Any other
    /// non-zero exit after an uncaught exception's report is a crash, and without the report an error.
    package static func of(status: Int32?, signal: Int32?, rejectCodes: Set<Int32>?, stderr: String = "") -> RunOutcome
    {
        if let signal { return .crashed(signal: signal) }
        guard let status else { return .timedOut }
        switch status {
        case 0: return .accepted
        case 126, 127: return .couldNotRun(status: status)
        case 129...192: return .crashed(signal: status - 128)
        default:
            if let rejectCodes, rejectCodes.contains(status) { return .rejected(status: status) }
            if let runtime = UncaughtException.runtime(in: stderr) { return .raised(runtime: runtime, status: status) }
            return rejectCodes == nil ? .rejected(status: status) : .errored(status: status)
        }
    }

    /// How a run ended, without its verdict: the signal, the runtime of an uncaught exception, a timeout, or the
    /// exit status.
    package var ending: String {
        switch self {
        case .crashed(let signal): return Self.signalName(signal)
        case .raised(let runtime, _): return runtime
        case .timedOut: return "timeout"
        case .accepted: return "exit 0"
        case .rejected(let status), .errored(let status), .couldNotRun(let status): return "exit \(status)"
        case .unreadableAnswer, .lineNotAskedFor: return "no verdict"
        case .refused(let status), .serverError(let status): return "HTTP \(status)"
        case .unreachable(let reason): return reason
        }
    }

    /// The signal, for a crash by one.
    package var signal: Int32? {
        if case .crashed(let signal) = self { return signal }
        return nil
    }

    /// One word or two for tables: accepted, rejected, errored, crashed, timed out, could not run.
    package var label: String {
        switch self {
        case .accepted: return "accepted"
        case .rejected, .refused: return "rejected"
        case .errored, .unreadableAnswer, .lineNotAskedFor, .unreachable: return "errored"
        case .crashed, .raised, .serverError: return "crashed"
        case .timedOut: return "timed out"
        case .couldNotRun: return "could not run"
        }
    }

    /// The label with its detail: "rejected (exit 1)", "crashed (SIGSEGV)".
    package var detail: String {
        switch self {
        case .accepted, .timedOut: return label
        case .rejected(let status), .errored(let status), .couldNotRun(let status): return "\(label) (exit \(status))"
        case .crashed(let signal): return "\(label) (\(Self.signalName(signal)))"
        case .raised(let runtime, let status): return "\(label) (\(runtime), exit \(status))"
        case .unreadableAnswer(let line): return "\(label) (answered \"\(Self.quoted(line))\", not a verdict)"
        case .lineNotAskedFor(let line):
            return
                "\(label) (wrote \"\(Self.quoted(line))\" before it was given this input: more than one line for an earlier input, so its answers are out of step)"
        case .refused(let status), .serverError(let status): return "\(label) (HTTP \(status))"
        case .unreachable(let reason): return "\(label) (\(Self.quoted(reason)))"
        }
    }

    /// Whether the validator gave a verdict (accepted or rejected) at all.
    package var isVerdict: Bool {
        switch self {
        case .accepted, .rejected, .refused: return true
        default: return false
        }
    }

    /// A line as a report quotes it: at most 80 characters, the rest marked as cut.
    /// Control characters (an escape sequence, a carriage return) are shown as `?`: the line is the validator's.
    static func quoted(_ line: String) -> String {
        let shown = String(
            String.UnicodeScalarView(
                line.unicodeScalars.prefix(80).map { scalar in
                    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "?" : scalar
                }))
        return line.unicodeScalars.count <= 80 ? shown : shown + "…"
    }

    /// SIGSEGV, SIGABRT … or "signal N".
    package static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
            SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}

/// One run of a validator: how it ended, how long it took, and the end of what it wrote.
package struct ValidatorRun: Sendable, Hashable {
    package var outcome: RunOutcome
    package var seconds: Double
    /// The last lines of its standard error (at most `tailBytes`).
    package var stderrTail: String
    /// The last lines of its standard output (shown when the baseline is not accepted).
    package var stdoutTail: String

    /// How much of each stream is kept.
    package static let tailBytes = 2_000

    package init(outcome: RunOutcome, seconds: Double, stderrTail: String, stdoutTail: String) {
        self.outcome = outcome
        self.seconds = seconds
        self.stderrTail = stderrTail
        self.stdoutTail = stdoutTail
    }
}
