import Foundation
import ReceiptConformance
import Synchronization

/// What a command does when interrupted (SIGINT at a terminal, SIGTERM from a cancelled CI job, SIGHUP): never end
/// by the signal. The signals are blocked before any other thread starts, so every thread inherits the block
/// whatever mask rcpt was started with, and one thread takes them with `sigwait`; validators are started with
/// nothing blocked (`ConformanceRunner.spawnShell`).
enum Interruption {
    /// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread and the threads it starts; returns them, for `wait`.
    static func blockStopSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, number) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        return signals
    }

    /// Waits until one of `signals` (blocked) arrives; returns its number.
    static func wait(_ signals: sigset_t) -> Int32 {
        var signals = signals
        var received: Int32 = 0
        sigwait(&signals, &received)
        return received
    }

    /// On a stop signal, from a thread of its own: `stop`, then `message(signal)` on standard error and exit 2 (the
    /// run was not judged).
    static func exitOnSignal(
        _ message: @escaping @Sendable (Int32) -> String, after stop: @escaping @Sendable () -> Void = {}
    ) {
        let signals = blockStopSignals()
        Thread.detachNewThread {
            let received = wait(signals)
            stopping.store(true, ordering: .sequentiallyConsistent)
            stop()
            Console.error(message(received))
            Foundation.exit(2)
        }
    }

    /// Set once a stop signal has been taken: the command's own end then waits for the exit with 2 (stopping the
    /// validators makes the run end too, and its exit 1 raced the interruption's exit 2).
    static let stopping = Atomic<Bool>(false)

    /// Called where a command ends: when a stop signal was taken, waits for the interruption's exit (2) instead of
    /// ending with the run's own status.
    static func yieldToInterruption() {
        guard stopping.load(ordering: .sequentiallyConsistent) else { return }
        while true { DispatchSemaphore(value: 0).wait() }
    }

    /// `conformance` and `fuzz-validator`: kill every validator process group the run started and remove its
    /// scratch files before exiting 2.
    static func stopValidatorsOnSignal(_ what: String) {
        exitOnSignal(
            { "interrupted (signal \($0)): the validator's processes were stopped; \(what) was not judged" },
            after: ValidatorProcesses.stopAll)
    }
}
