import Foundation

/// A validator run once for many inputs (`--batch`): `/bin/sh -c COMMAND` in its own process group, one input path
/// per line on its standard input, one verdict per line on its standard output — its first word one of
/// `acceptingWords` for accepted, one of `rejectingWords` or a non-zero integer for rejected (in any case). Any other
/// line (a banner, a log line) is no verdict: the run errored, the line is quoted, and the process is started again
/// so the next answer is read in step. A line not there within the timeout is a timeout; a process that dies (its
/// output ends) is waited for until the timeout and is a crash (by signal or with an uncaught exception's report)
/// or an error, never a timeout however busy the machine; either way it is started again for the next input. A
/// Python or JVM validator is then not restarted per input.
/// One process, used from one thread at a time (a run's batch path is serial): `@unchecked Sendable` so a run's
/// closures may hold it.
package final class BatchValidator: @unchecked Sendable {
    /// The first words of a verdict line that mean accepted, compared in lower case.
    package static let acceptingWords = ["0", "accept", "accepted", "valid", "ok"]
    /// The first words of a verdict line that mean rejected, compared in lower case (a non-zero integer does too).
    package static let rejectingWords = ["1", "reject", "rejected", "invalid", "fail", "failed", "no"]
    /// The accepting words as the help and the README say them.
    package static var acceptingPhrase: String { phrase(acceptingWords) }
    /// The rejecting words as the help and the README say them.
    package static var rejectingPhrase: String { phrase(rejectingWords) + ", or another non-zero integer" }

    static func phrase(_ words: [String]) -> String {
        words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }

    /// The verdict a line gives, or nil when it gives none.
    package static func verdict(of line: String) -> RunOutcome? {
        // The first words, a lone separator ("valid = false") passed over.
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0).lowercased() }
            .filter { ![":", "=", ",", "-", "->"].contains($0) }.prefix(2)
        // "invalid:" and "rejected," are the word itself.
        func bare(_ word: String) -> String {
            word.count > 1 && [":", ",", ";", ".", "="].contains(word.last) ? String(word.dropLast()) : word
        }
        let word = bare(words.first ?? "")
        let verdict: RunOutcome
        if acceptingWords.contains(word) {
            verdict = .accepted
        } else if rejectingWords.contains(word) || Int64(word).map({ $0 != 0 }) == true {
            verdict = .rejected(status: 1)
        } else {
            return nil
        }
        // "valid: false", "ok = 0": a name and a value that says otherwise, not a verdict word and a reason, so
        // neither sense is read into the line. A value that says the same ("valid: yes", "invalid: true") or a
        // rejection's reason or status code ("rejected: 1", "rejected: VERIFICATION_FAILURE") keeps the verdict.
        guard words.count > 1 else { return verdict }
        let value = bare(words[words.startIndex + 1])
        let saysFalse = ["false", "no", "0"].contains(value)
        if verdict == .accepted {
            let otherwise =
                saysFalse || (rejectingWords.contains(value) && value != "1") || Int64(value).map { $0 != 1 } == true
            return otherwise ? nil : verdict
        }
        let otherwise = saysFalse || ["accept", "accepted", "valid", "ok"].contains(value)
        return otherwise ? nil : verdict
    }

    let command: String
    let timeout: Double
    private var pid: pid_t = 0
    private var input: Int32 = -1
    private var output: Int32 = -1
    private var pending: [UInt8] = []
    /// Whether this process has given a verdict.
    private var answered = false
    /// Where the process's standard error goes: read when it dies, to tell a crash (a traceback, a panic) from an
    /// error, and kept in the run.
    private let stderrPath = FileManager.default.temporaryDirectory.path + "/rcpt-batch-\(UUID().uuidString).err"

    package init(command: String, timeout: Double) throws {
        self.command = command
        self.timeout = timeout
        ValidatorProcesses.keep(scratch: stderrPath)
        try start()
    }

    deinit {
        stop()
        unlink(stderrPath)
        ValidatorProcesses.forget(scratch: stderrPath)
    }

    private func start() throws {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { throw CocoaError(.fileWriteUnknown) }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            throw CocoaError(.fileWriteUnknown)
        }
        let (readEnd, writeEnd) = (toChild[1], fromChild[0])
        let spawned = ConformanceRunner.spawnShell(command) { actions in
            posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
            posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addclose(&actions, readEnd)
            posix_spawn_file_actions_addclose(&actions, writeEnd)
        }
        close(toChild[0])
        close(fromChild[1])
        guard case .success(let started) = spawned else {
            close(toChild[1])
            close(fromChild[0])
            throw CocoaError(.executableNotLoadable)
        }
        pid = started
        input = toChild[1]
        output = fromChild[0]
        pending = []
        answered = false
        signal(SIGPIPE, SIG_IGN)
    }

    /// The longest answer line read.
    static let lineLimit = 64 << 10

    package func stop() {
        if input >= 0 { close(input) }
        if output >= 0 { close(output) }
        input = -1
        output = -1
        if pid > 0 {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            ValidatorProcesses.ended(pid)
            pid = 0
        }
    }

    /// The validator's verdict on `path`.
    package func run(_ path: String) -> ValidatorRun {
        let started = Date()
        let deadline = started.addingTimeInterval(timeout)
        if pid == 0 { try? start() }
        // One line per path: once the process has answered, a line already there was written for an earlier input
        // (a second line for it, caught when written with the first), and read as this input's answer it would be
        // the wrong input's verdict from here on. (Before its first answer, a line is read as the answer: a banner.)
        if answered, let extra = lineNotAskedFor() {
            stop()
            return ValidatorRun(
                outcome: .lineNotAskedFor(line: extra), seconds: Date().timeIntervalSince(started),
                stderrTail: ConformanceRunner.tail(of: stderrPath), stdoutTail: "")
        }
        let line = Array((path + "\n").utf8)
        let written = line.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        var outcome: RunOutcome
        if written != line.count {
            // It stopped reading: it has exited, or is about to.
            outcome = awaitExit(until: deadline)
        } else {
            switch readLine(deadline: deadline) {
            case .line(let answer):
                if let verdict = Self.verdict(of: answer) {
                    outcome = verdict
                    answered = true
                } else {
                    // Out of step from here on: started again for the next input.
                    outcome = .unreadableAnswer(line: answer)
                    stop()
                }
            case .overlong(let start):
                outcome = .unreadableAnswer(line: start)
                stop()
            case .endOfOutput:
                outcome = awaitExit(until: deadline)
            case .deadline:
                outcome = .timedOut
                stop()
            }
        }
        let stderrTail = outcome.isVerdict ? "" : ConformanceRunner.tail(of: stderrPath)
        return ValidatorRun(
            outcome: outcome, seconds: Date().timeIntervalSince(started), stderrTail: stderrTail,
            stdoutTail: "")
    }

    /// The outcome of a validator whose output has ended: it is waited for until `deadline` (however long a busy
    /// machine takes to end it) and started again next time; still running at the deadline, it timed out.
    private func awaitExit(until deadline: Date) -> RunOutcome {
        while pid > 0 {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                ValidatorProcesses.ended(pid)
                pid = 0
                stop()
                return ending(status)
            }
            if reaped == -1 && errno != EINTR {
                ValidatorProcesses.ended(pid)
                pid = 0
                stop()
                return .errored(status: 255)
            }
            if deadline.timeIntervalSinceNow <= 0 {
                stop()
                return .timedOut
            }
            usleep(2_000)
        }
        return .errored(status: 255)
    }

    /// How a process that ended gives no verdict: a signal, a shell's 128 + N or an uncaught exception's report is
    /// a crash; any other end an error.
    private func ending(_ status: Int32) -> RunOutcome {
        let signal = status & 0x7F
        let outcome = RunOutcome.of(
            status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
            rejectCodes: nil,
            stderr: ConformanceRunner.head(of: stderrPath) + "\n"
                + ConformanceRunner.tail(of: stderrPath, bytes: 256 << 10))
        switch outcome {
        case .rejected(let code): return .errored(status: code)
        case .accepted: return .errored(status: 0)
        default: return outcome
        }
    }

    /// What reading an answer came to.
    private enum Answer {
        case line(String)
        /// A line longer than `lineLimit`: its start.
        case overlong(String)
        /// The output ended: the process closed it or died.
        case endOfOutput
        case deadline
    }

    /// What the validator wrote that nobody has asked for yet (its start), if anything: output already read and
    /// not taken, or waiting in the pipe.
    private func lineNotAskedFor() -> String? {
        if pending.isEmpty, output >= 0 {
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0, descriptor.revents & Int16(POLLIN) != 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }  // the output ended: the run finds it so
            pending += buffer[..<count]
        }
        guard !pending.isEmpty else { return nil }
        let line = pending.prefix(while: { $0 != 0x0A }).prefix(200)
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func readLine(deadline: Date) -> Answer {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return .line(line.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            // A verdict is a word: a line longer than this is no answer (and is not held without bound).
            if pending.count > Self.lineLimit {
                return .overlong(String(decoding: pending.prefix(200), as: UTF8.self))
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return .deadline }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 1000)))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return .endOfOutput }
            pending += buffer[..<count]
        }
    }
}
