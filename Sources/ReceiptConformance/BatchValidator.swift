import Foundation

/// A validator run once for many inputs (`--batch`): `/bin/sh -c COMMAND` in its own process group, one input path
/// per line on its standard input, one verdict per line on its standard output — its first word one of
/// `acceptingWords` (in any case) for accepted, anything else (`1`, `reject`, `invalid` …) for rejected. A line not there within the
/// timeout is a timeout; a process that dies is a crash (by signal) or an error; either way it is started again
/// for the next input. A Python or JVM validator is then not restarted per input.
/// One process, used from one thread at a time (a run's batch path is serial): `@unchecked Sendable` so a run's
/// closures may hold it.
package final class BatchValidator: @unchecked Sendable {
    /// The first words of a verdict line that mean accepted, compared in lower case.
    package static let acceptingWords = ["0", "accept", "accepted", "valid", "ok"]
    /// The same, as the help and the README say it.
    package static var acceptingPhrase: String {
        acceptingWords.dropLast().joined(separator: ", ") + " or " + (acceptingWords.last ?? "") + " (in any case)"
    }

    let command: String
    let timeout: Double
    private var pid: pid_t = 0
    private var input: Int32 = -1
    private var output: Int32 = -1
    private var pending: [UInt8] = []
    /// Where the process's standard error goes: read when it dies, to tell a crash (a traceback, a panic) from an
    /// error, and kept in the run.
    private let stderrPath = FileManager.default.temporaryDirectory.path + "/rcpt-batch-\(UUID().uuidString).err"

    package init(command: String, timeout: Double) throws {
        self.command = command
        self.timeout = timeout
        try start()
    }

    deinit {
        stop()
        unlink(stderrPath)
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
            pid = 0
        }
    }

    /// The validator's verdict on `path`.
    package func run(_ path: String) -> ValidatorRun {
        let started = Date()
        if pid == 0 { try? start() }
        let line = Array((path + "\n").utf8)
        let written = line.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        var outcome: RunOutcome
        if written != line.count {
            outcome = reap() ?? .errored(status: 255)
        } else if let answer = readLine(deadline: started.addingTimeInterval(timeout)) {
            let word = answer.split(separator: " ").first.map { String($0).lowercased() } ?? ""
            outcome = Self.acceptingWords.contains(word) ? .accepted : .rejected(status: 1)
        } else if let died = reap() {
            outcome = died
        } else {
            outcome = .timedOut
            stop()
        }
        let stderrTail = outcome == .accepted || outcome == .rejected(status: 1) ? "" : ConformanceRunner.tail(of: stderrPath)
        return ValidatorRun(outcome: outcome, seconds: Date().timeIntervalSince(started), stderrTail: stderrTail,
                            stdoutTail: "")
    }

    /// The outcome of a validator that has exited (and is started again next time), or nil while it runs.
    private func reap() -> RunOutcome? {
        var status: Int32 = 0
        usleep(2_000)
        guard pid > 0, waitpid(pid, &status, WNOHANG) == pid else { return nil }
        pid = 0
        stop()
        let signal = status & 0x7F
        // A process that ends gives no verdict: a signal, a shell's 128 + N or an uncaught exception's report is a
        // crash; any other end an error.
        let outcome = RunOutcome.of(status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
                                    rejectCodes: nil,
                                    stderr: ConformanceRunner.head(of: stderrPath) + "\n" + ConformanceRunner.tail(of: stderrPath, bytes: 256 << 10))
        switch outcome {
        case .rejected(let code): return .errored(status: code)
        case .accepted: return .errored(status: 0)
        default: return outcome
        }
    }

    private func readLine(deadline: Date) -> String? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line.trimmingCharacters(in: .whitespaces)
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 1000)))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count <= 0 { return nil }
            pending += buffer[..<count]
            // A verdict is a word: a line longer than this is no answer (and is not held without bound).
            if pending.count > Self.lineLimit, !pending.contains(0x0A) { return nil }
        }
    }
}
