import Foundation
import ReceiptMutation

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

    /// The exit status of `/bin/sh -c <line>` (128 + the signal if one ended it), or nil when it ran longer
    /// than `timeout` seconds: then the shell's whole process group is killed, validator children included.
    static func runShell(_ line: String, timeout: Double) throws(MutationError) -> Int32? {
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)  // a new group led by the shell
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", line]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
        guard spawned == 0 else {
            throw MutationError("validator-failed", "cannot start /bin/sh (error \(spawned))")
        }
        // Poll for the exit every 5 ms (no waiting thread); past the deadline, kill the whole group.
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1_000_000_000)
        var raw: Int32 = 0
        while true {
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid { break }
            if reaped == -1 && errno != EINTR {
                throw MutationError("validator-failed", "lost track of the validator process (errno \(errno))")
            }
            if DispatchTime.now().uptimeNanoseconds >= deadline {
                kill(-pid, SIGKILL)
                while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
                return nil
            }
            usleep(5_000)
        }
        let signal = raw & 0x7F
        return signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    }
}
