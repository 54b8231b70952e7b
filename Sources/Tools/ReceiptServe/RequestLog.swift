import Foundation

/// Where `rcpt serve` writes its JSON lines (standard output or `--log FILE`), without ever making a server thread
/// wait: lines are queued and written by a thread of their own; while more than `maximumQueued` wait (a reader that
/// stopped reading, a disk that is full), new ones are dropped and counted. A write that fails is counted too, never
/// fatal.
package final class RequestLog: @unchecked Sendable {
    private let handle: FileHandle
    private let queue = DispatchQueue(label: "rcpt.serve.log")
    private let lock = NSLock()
    private var queued = 0
    private var lost = 0
    /// The most lines waiting to be written.
    package static let maximumQueued = 10_000

    package init(_ handle: FileHandle) { self.handle = handle }

    /// Queues `line` (a whole line, newline included).
    package func write(_ line: [UInt8]) {
        let admitted = lock.withLock {
            guard queued < Self.maximumQueued else {
                lost += 1
                return false
            }
            queued += 1
            return true
        }
        guard admitted else { return }
        queue.async { [self] in
            let written = (try? handle.write(contentsOf: Data(line))) != nil
            lock.withLock {
                queued -= 1
                if !written { lost += 1 }
            }
        }
    }

    /// Waits for the queued lines to be written; the number of lines lost so far.
    package func drain() -> Int {
        queue.sync {}
        return lock.withLock { lost }
    }
}
