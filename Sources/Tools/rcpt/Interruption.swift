import Foundation
import ReceiptConformance

/// What `conformance` and `fuzz-validator` do when interrupted (SIGINT at a terminal, SIGTERM from a cancelled CI
/// job, SIGHUP): kill every validator process group they started, remove the run's scratch files, say the run was
/// not judged, and exit 2 — never end by the signal with validators left running. The signals are blocked before any
/// other thread starts, so every thread inherits the block and one thread takes them with `sigwait`; validators are
/// started with nothing blocked (`ConformanceRunner.spawnShell`).
enum Interruption {
    static func stopValidatorsOnSignal(_ what: String) {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, number) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let blocked = signals
        Thread.detachNewThread {
            var signals = blocked
            var received: Int32 = 0
            sigwait(&signals, &received)
            ValidatorProcesses.stopAll()
            Console.error(
                "interrupted (signal \(received)): the validator's processes were stopped; \(what) was not judged")
            Foundation.exit(2)
        }
    }
}
