import Foundation

/// Every validator process group rcpt started and has not reaped, and the scratch files and folders of the run:
/// what an interrupted `conformance` or `fuzz-validator` (SIGINT at a terminal, SIGTERM from a cancelled CI job)
/// kills and removes before it exits, so no validator is left running and no file is left behind. Thread safe.
package enum ValidatorProcesses {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var groups: Set<pid_t> = []
    nonisolated(unsafe) private static var scratch: Set<String> = []

    nonisolated(unsafe) private static var stopping = false

    /// Starts a process group with `spawn` (which returns its leader's pid, its id) and keeps it, in one step under
    /// the lock, so an interruption never falls between the start and the keeping; after `stopAll` the group is
    /// killed at once.
    static func start(_ spawn: () -> Result<pid_t, ConformanceRunner.SpawnError>)
        -> Result<pid_t, ConformanceRunner.SpawnError>
    {
        lock.withLock {
            let spawned = spawn()
            if case .success(let group) = spawned {
                groups.insert(group)
                if stopping { kill(-group, SIGKILL) }
            }
            return spawned
        }
    }

    /// Its leader reaped: the group is no longer the run's to kill.
    static func ended(_ group: pid_t) { _ = lock.withLock { groups.remove(group) } }

    /// A file or folder the run removes when it ends, and an interruption removes too.
    package static func keep(scratch path: String) { _ = lock.withLock { scratch.insert(path) } }

    /// Removed by the run itself.
    package static func forget(scratch path: String) { _ = lock.withLock { scratch.remove(path) } }

    /// Kills every group not yet reaped and removes every scratch path: what an interruption does before rcpt exits.
    /// Each killed leader is waited for first, so no validator still starting writes a file after its removal.
    package static func stopAll() {
        let (killed, paths) = lock.withLock {
            stopping = true
            for group in groups { kill(-group, SIGKILL) }
            return (groups, scratch)
        }
        for leader in killed {
            var status: Int32 = 0
            while waitpid(leader, &status, 0) == -1 && errno == EINTR {}
        }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }
}
