import Foundation
import ReceiptDiagnostics
import ReceiptSuite

/// What a conformance result means for the run.
package enum ResultClass: String, Sendable, Hashable, CaseIterable {
    /// The validator did what a correct one must.
    case passed
    /// A must-reject receipt was accepted: a vulnerability, a policy gap or a robustness divergence, by the entry's
    /// concern (a robustness one fails the run only when the gate says so: `Gate`).
    case acceptedBad = "accepted-bad"
    /// A must-accept receipt was rejected: over-strict, reported but not a failure (except the baseline).
    case overStrict = "over-strict"
    /// The valid baseline was rejected: the validator's options are wrong, and nothing else can be judged.
    case baselineRejected = "baseline-rejected"
    case crashed
    case timedOut = "timed-out"
    case errored
    case couldNotRun = "could-not-run"

    /// Whether a result of this class makes the run fail (an accepted bad entry: by its concern, `Gate`).
    package var isFailure: Bool { self != .passed && self != .overStrict }
}

/// Which accepted must-reject entries fail a run, by concern: security and policy by default, robustness when asked
/// (`--fail-on robustness`). A crash, hang, error, a validator that could not run and a rejected baseline always
/// fail it.
package struct Gate: Sendable, Hashable {
    package var concerns: Set<Concern>
    /// Entries whose acceptance is reported but never fails the run (`--allow-entry`): a policy the user's app has
    /// chosen, such as a production server that accepts Sandbox documents for App Review, as Apple advises.
    package var allowedEntries: Set<String> = []

    package static let standard = Gate(concerns: [.security, .policy])

    package init(concerns: Set<Concern>) {
        self.concerns = concerns
    }

    /// The standard gate and `more`.
    package init(failingAlsoOn more: [Concern]) {
        self.concerns = Gate.standard.concerns.union(more)
    }

    /// Whether `result` fails the run.
    package func fails(_ result: ConformanceResult) -> Bool {
        guard result.resultClass == .acceptedBad else { return result.resultClass.isFailure }
        return concerns.contains(result.concern) && !allowedEntries.contains(result.name)
    }
}

/// One row of a conformance run.
package struct ConformanceResult: Sendable, Hashable {
    package var name: String
    package var group: String
    /// The layer the entry's edit is in (`signature`, `chain`, `payload` …), from the manifest.
    package var layer: String?
    /// What the mutation does, from the manifest.
    package var description: String
    package var concern: Concern
    /// Who could make the input (absent in suites written before it was recorded).
    package var attacker: Attacker?
    /// Why the entry has its attacker and concern.
    package var threat: String?
    /// For a robustness entry: the readers a validator that accepts it could disagree with.
    package var readers: String?
    package var expected: ExpectedVerdict
    package var run: ValidatorRun
    /// The input's path, as given to the validator.
    package var file: String
    /// The exact command line that was run on it (with `--batch`, the path was written to the running validator).
    package var command: String

    /// What the text report groups failures by: the catalogue's group, and for a JWS entry its layer too (every JWS
    /// entry is in one group, and "signature not checked" and "chain not checked" are different repairs).
    package var causeGroup: String {
        guard group == "jws", let layer, !layer.isEmpty else { return group }
        return "jws " + layer
    }

    /// Whether the entry is a must-accept baseline: a suite's re-signed input, a findings folder's seeds.
    package var isBaseline: Bool { group == "baseline" || name == "baseline" }

    /// What this result means for the run.
    package var resultClass: ResultClass {
        switch run.outcome {
        case .crashed, .raised, .serverError: return .crashed
        case .timedOut: return .timedOut
        case .errored, .unreadableAnswer, .lineNotAskedFor, .unreachable: return .errored
        case .couldNotRun: return .couldNotRun
        case .accepted: return expected == .accept ? .passed : .acceptedBad
        case .rejected, .refused:
            if expected == .reject { return .passed }
            return isBaseline ? .baselineRejected : .overStrict
        }
    }
}

/// Runs a validator command on every receipt of a mutation suite.
package enum ConformanceRunner {
    /// What to run and how.
    package struct Options: Sendable {
        /// A shell command in which `{}` (also written `"{}"` or `'{}'`) is replaced by each receipt's quoted path.
        package var command: String
        package var timeout: Double
        /// The exit statuses that mean "rejected"; nil: every non-zero status.
        package var rejectCodes: Set<Int32>?
        /// Only mutations of this concern (the baseline always runs).
        package var only: Concern?
        /// What the validator can be asked (nil: the suite's own context, else device): a server validator is not
        /// run on entries that rest on the device or the app version.
        package var context: ValidatorContext?
        /// Validators run at once (each in its own process group).
        package var jobs: Int
        /// One persistent validator process reading paths on its standard input (`BatchValidator`).
        package var batch: Bool
        /// A validator that is no command (an HTTP endpoint): when set, `command` and `batch` are not used.
        package var target: (any DocumentValidator)?

        package init(
            command: String, timeout: Double, rejectCodes: Set<Int32>? = nil, only: Concern? = nil,
            jobs: Int = 1, batch: Bool = false
        ) {
            self.command = command
            self.timeout = timeout
            self.rejectCodes = rejectCodes
            self.only = only
            self.jobs = max(1, jobs)
            self.batch = batch
        }
    }

    /// Why a run stopped before judging the suite.
    package struct BaselineFailure: Error, Sendable {
        package var result: ConformanceResult
    }

    /// Runs the validator on the baselines (a suite's one, a findings folder's seeds), then — if it accepted every
    /// one — on every other entry of `directory`'s manifest, `jobs` at a time (or through one `--batch` process),
    /// the results in manifest order. `progress` is called after each run with the number done and the total.
    /// Throws `BaselineFailure` when a baseline is not accepted: the validator's options are wrong, and every other
    /// verdict would mislead. A folder without a baseline is refused (`SuiteError`): nothing then shows the
    /// validator accepts anything, and a validator that rejects everything would pass.
    /// The entries a validator in the run's context is not asked about (a server knows neither the device nor the
    /// app version), in manifest order: not run, and named by the report.
    package static func outOfContext(_ manifest: Manifest, options: Options) -> [String] {
        let context =
            options.context ?? manifest.expectations.context.flatMap(ValidatorContext.init(rawValue:)) ?? .device
        return manifest.mutations.filter { entry in
            !Self.isBaseline(entry)
                && context.excludes(
                    finding: entry.finding,
                    appVersionGiven: manifest.expectations.appVersion != nil && context == .device) != nil
        }.map(\.name)
    }

    package static func run(
        _ options: Options, directory: String,
        progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) throws -> [ConformanceResult] {
        let manifest = try Manifest.read(in: directory)
        let outOfContext = Set(outOfContext(manifest, options: options))
        let entries = manifest.mutations.filter { entry in
            if outOfContext.contains(entry.name) { return false }
            guard let only = options.only, !Self.isBaseline(entry) else { return true }
            return (entry.concern.flatMap(Concern.init(rawValue:)) ?? .security) == only
        }
        // Every entry's file must be there, in the folder: a missing must-reject file would otherwise count as a
        // rejection (the validator cannot read it), and a path out of the folder runs the validator on anything.
        for entry in entries {
            var isDirectory: ObjCBool = false
            guard !entry.file.isEmpty, !entry.file.contains("/"), entry.file != ".", entry.file != "..",
                FileManager.default.fileExists(atPath: directory + "/" + entry.file, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else {
                throw SuiteError(
                    .manifestInvalid,
                    "\(directory)/manifest.json names \(ShellWords.quoted(entry.file)) (entry \(entry.name)), which is not a file in the folder: a missing must-reject file would pass as a rejection"
                )
            }
        }
        let baselines = entries.filter { Self.isBaseline($0) && $0.expected == ExpectedVerdict.accept.rawValue }
        guard !baselines.isEmpty else {
            throw SuiteError(
                .manifestNoBaseline,
                "\(directory)/manifest.json has no must-accept baseline (an entry of group baseline, expected accept): without one a validator that rejects everything would pass. Regenerate the folder with this rcpt (rcpt mutate --all, or rcpt fuzz-validator --out-dir)"
            )
        }
        let batch = options.batch ? try BatchValidator(command: options.command, timeout: options.timeout) : nil
        defer { batch?.stop() }
        let done = Counter()
        let total = entries.count
        @Sendable func judge(_ entry: ManifestEntry) throws(SuiteError) -> ConformanceResult {
            let path = directory + "/" + entry.file
            let line = commandLine(options.command, path: path)
            let run: ValidatorRun
            if let target = options.target {
                run = target.run(path)
            } else if let batch {
                run = batch.run(path)
            } else {
                run = try runShell(line, timeout: options.timeout, rejectCodes: options.rejectCodes)
            }
            progress(done.increment(), total)
            return ConformanceResult(
                name: entry.name, group: entry.group, layer: entry.layer, description: entry.description,
                concern: entry.concern.flatMap(Concern.init(rawValue:)) ?? .security,
                attacker: entry.attacker.flatMap(Attacker.init(rawValue:)), threat: entry.threat,
                readers: entry.readers,
                expected: ExpectedVerdict(rawValue: entry.expected) ?? .reject, run: run,
                file: path,
                command: options.target?.reproduction(of: path)
                    ?? (options.batch ? "echo \(ShellWords.quoted(path)) | \(options.command)" : line))
        }
        // The baselines first, one at a time: a validator that rejects one is stopped there.
        var results: [ConformanceResult] = []
        for entry in baselines {
            let result = try judge(entry)
            if result.run.outcome != .accepted { throw BaselineFailure(result: result) }
            results.append(result)
        }
        let rest = entries.filter { entry in !baselines.contains { $0.name == entry.name && $0.file == entry.file } }
        if batch != nil {
            for entry in rest { results.append(try judge(entry)) }
        } else {
            let outcomes = Parallel.map(rest.count, jobs: options.jobs) { index in
                Result { () throws(SuiteError) in try judge(rest[index]) }
            }
            for outcome in outcomes { results.append(try outcome.get()) }
        }
        return results
    }

    /// Whether a manifest entry is a must-accept baseline.
    static func isBaseline(_ entry: ManifestEntry) -> Bool { entry.group == "baseline" || entry.name == "baseline" }

    /// A count shared by the threads of one run.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        /// The count after adding one.
        func increment() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }

    /// `command` with each `{}` (bare or already in quotes) replaced by the shell-quoted `path`.
    package static func commandLine(_ command: String, path: String) -> String {
        let quoted = ShellWords.quoted(path)
        return command.replacingOccurrences(of: "\"{}\"", with: quoted)
            .replacingOccurrences(of: "'{}'", with: quoted)
            .replacingOccurrences(of: "{}", with: quoted)
    }

    /// Runs `/bin/sh -c <line>` in its own process group with standard input from /dev/null and both outputs
    /// captured to temporary files; past `timeout` seconds the whole group is killed.
    package static func runShell(_ line: String, timeout: Double, rejectCodes: Set<Int32>? = nil) throws(SuiteError)
        -> ValidatorRun
    {
        let started = Date()
        let directory = FileManager.default.temporaryDirectory.path
        let stdoutPath = directory + "/rcpt-conformance-\(UUID().uuidString).out"
        let stderrPath = directory + "/rcpt-conformance-\(UUID().uuidString).err"
        ValidatorProcesses.keep(scratch: stdoutPath)
        ValidatorProcesses.keep(scratch: stderrPath)
        defer {
            unlink(stdoutPath)
            unlink(stderrPath)
            ValidatorProcesses.forget(scratch: stdoutPath)
            ValidatorProcesses.forget(scratch: stderrPath)
        }
        let spawned = spawnShell(line) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        guard case .success(let pid) = spawned else {
            throw SuiteError(.validatorFailed, "cannot start /bin/sh (error \(spawned))")
        }
        defer { ValidatorProcesses.ended(pid) }
        // Poll for the exit every 5 ms (no waiting thread); past the deadline, kill the whole group.
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1_000_000_000)
        var raw: Int32 = 0
        var timedOut = false
        while true {
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid { break }
            if reaped == -1 && errno != EINTR {
                throw SuiteError(.validatorFailed, "lost track of the validator process (errno \(errno))")
            }
            if DispatchTime.now().uptimeNanoseconds >= deadline {
                kill(-pid, SIGKILL)
                while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
                timedOut = true
                break
            }
            usleep(5_000)
        }
        // Children the validator left behind in its group go too.
        kill(-pid, SIGKILL)
        let signal = raw & 0x7F
        let stderrTail = tail(of: stderrPath)
        // An uncaught exception's report starts where the tail may not reach: read its head too, when it matters.
        let status = signal == 0 ? (raw >> 8) & 0xFF : nil
        let stderr = (status ?? 0) != 0 ? head(of: stderrPath) + "\n" + tail(of: stderrPath, bytes: 256 << 10) : ""
        let outcome =
            timedOut
            ? RunOutcome.timedOut
            : RunOutcome.of(
                status: status, signal: signal == 0 ? nil : signal, rejectCodes: rejectCodes,
                stderr: stderr)
        return ValidatorRun(
            outcome: outcome, seconds: Date().timeIntervalSince(started),
            stderrTail: stderrTail, stdoutTail: tail(of: stdoutPath))
    }

    /// Starts `/bin/sh -c line` as the leader of a new process group (so a timeout can kill everything it starts),
    /// with the file actions `configure` adds; the pid, or posix_spawn's error.
    package static func spawnShell(_ line: String, configure: (inout posix_spawn_file_actions_t) -> Void)
        -> Result<pid_t, SpawnError>
    {
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        // Its own process group, and no signal blocked: rcpt blocks SIGINT and SIGTERM while it runs validators
        // (to stop them when it is interrupted), and a child would inherit the block.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        configure(&actions)
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", line]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        return ValidatorProcesses.start {
            let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
            return spawned == 0 ? .success(pid) : .failure(SpawnError(code: spawned))
        }
    }

    /// posix_spawn's error number.
    package struct SpawnError: Error, Sendable, CustomStringConvertible {
        package var code: Int32
        package var description: String { String(code) }
    }

    /// The first 64 KiB of a file as text.
    static func head(of path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.read(upToCount: 65_536)) ?? Data(), as: UTF8.self)
    }

    /// The last `bytes` of a file as text (`ValidatorRun.tailBytes`, what a run keeps), from a line start when it
    /// was cut.
    static func tail(of path: String, bytes: Int = ValidatorRun.tailBytes) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        let start = size > UInt64(bytes) ? size - UInt64(bytes) : 0
        try? handle.seek(toOffset: start)
        var text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        if start > 0, let newline = text.firstIndex(of: "\n") { text = String(text[text.index(after: newline)...]) }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
