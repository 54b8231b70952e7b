import Foundation

/// What a validator did with one receipt of a suite.
public enum ObservedVerdict: String, Sendable, Hashable {
    case accept
    case reject
    /// The validator did not finish within the timeout (it was killed).
    case timeout
}

/// One row of a conformance run.
public struct ConformanceResult: Sendable, Hashable {
    public var name: String
    public var group: String
    public var expected: ExpectedVerdict
    public var observed: ObservedVerdict
    public var exitStatus: Int32?
    public var seconds: Double

    /// Whether the validator did what a correct one must.
    public var passed: Bool { observed.rawValue == expected.rawValue }
    /// A must-reject receipt the validator accepted: a vulnerability.
    public var acceptedBadReceipt: Bool { expected == .reject && observed == .accept }
}

/// Runs a validator command on every receipt of a mutation suite.
public enum ConformanceRunner {
    /// Runs `command` (a shell command in which `{}` is replaced by each receipt's quoted path; exit status 0 means
    /// "accepted") on the baseline and every mutation in `directory`'s manifest, `timeout` seconds at most each.
    /// `progress` is called after each run with the number done and the total.
    public static func run(command: String, directory: String, timeout: Double,
                           progress: (Int, Int) -> Void = { _, _ in }) throws(MutationError) -> [ConformanceResult] {
        let manifest = try MutationSuite.readManifest(in: directory)
        var results: [ConformanceResult] = []
        for (index, entry) in manifest.mutations.enumerated() {
            let path = directory + "/" + entry.file
            let line = command.replacingOccurrences(of: "{}", with: MutationSuite.shellQuoted(path))
            let started = Date()
            let status = try runShell(line, timeout: timeout)
            let observed: ObservedVerdict = status.map { $0 == 0 ? .accept : .reject } ?? .timeout
            results.append(ConformanceResult(name: entry.name, group: entry.group,
                                             expected: ExpectedVerdict(rawValue: entry.expected) ?? .reject,
                                             observed: observed, exitStatus: status,
                                             seconds: Date().timeIntervalSince(started)))
            progress(index + 1, manifest.mutations.count)
        }
        return results
    }

    /// The exit status of `/bin/sh -c "exec <line>"`, or nil when it ran longer than `timeout` and was killed.
    static func runShell(_ line: String, timeout: Double) throws(MutationError) -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec " + line]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw MutationError("validator-failed", "cannot run /bin/sh: \(error.localizedDescription)")
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            return nil
        }
        return process.terminationStatus
    }
}
