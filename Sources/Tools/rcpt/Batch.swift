import ArgumentParser
import Foundation
import ReceiptBatch
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptRendering
import ReceiptValidation
import ReceiptVerifyReceipt

/// Running one inspection per file over many files and directories.
enum Batch {
    /// Expands `files` (descending when `recursive`), runs `batch` with a progress bar on a terminal, then writes to
    /// standard error what was skipped as not a receipt and a summary that names every file that failed and why.
    /// Returns the exit code: 2 if any input was unreadable, else 1 if `failsOnInvalid` and any was invalid, else 0.
    /// Arguments that hold no document at all are a usage error (`InputFiles.documents`), never a pass.
    static func run(
        _ files: [String], recursive: Bool, jobs: Int?, options: InspectionOptions,
        failsOnInvalid: Bool, kinds: Set<DocumentKind> = Set(DocumentKind.allCases),
        line: @escaping @Sendable (Inspection?, String) -> [UInt8]
    ) throws -> Int32 {
        run(
            try InputFiles.documents(in: files, recursive: recursive), jobs: jobs, options: options,
            failsOnInvalid: failsOnInvalid, kinds: kinds, line: line)
    }

    /// `run` over arguments already expanded (by `InputFiles.documents`), for a caller that needs the expansion too.
    static func run(
        _ expanded: (paths: [String], skipped: [BatchInspection.Skipped]), jobs: Int?,
        options: InspectionOptions, failsOnInvalid: Bool, kinds: Set<DocumentKind> = Set(DocumentKind.allCases),
        line: @escaping @Sendable (Inspection?, String) -> [UInt8]
    ) -> Int32 {
        let batch = BatchInspection(
            paths: expanded.paths, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            options: options, kinds: kinds, line: line)
        let showProgress = isatty(STDERR_FILENO) != 0
        let started = Date()
        let summary = batch.run(
            emit: { Console.write($0) },
            progress: { done, total in
                guard showProgress, done == total || done % 100 == 0 else { return }
                let width = 30
                let filled = total == 0 ? width : done * width / total
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                Console.standardError("\r[\(bar)] \(done)/\(total)")
                if done == total { Console.standardError("\n") }
            })
        let seconds = Date().timeIntervalSince(started)
        for failure in summary.failures {
            Console.error("failed \(TerminalText.safe(failure.path)): \(TerminalText.safe(failure.reason))")
        }
        Console.error(
            "\(summary.inputsPhrase): \(summary.read) read (\(summary.valid) valid, "
                + "\(summary.read - summary.valid) invalid), \(summary.unreadable) unreadable"
                + (expanded.skipped.isEmpty ? "" : ", \(expanded.skipped.count) skipped (said above)")
                + ", in \(String(format: "%.2f", seconds)) s")
        if summary.unreadable > 0 { return 2 }
        return failsOnInvalid && summary.valid < summary.read ? 1 : 0
    }
}
