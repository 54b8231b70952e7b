/// A validator that died of an uncaught exception exits with an ordinary status (Python and Java 1, Go 2, Node 1,
/// .NET 134 or 0xE0434352), which would pass for "rejected": its runtime's report on standard error tells a crash
/// from a verdict. A status `--reject-codes` lists is a rejection all the same (the validator logged an exception
/// it handled).
package enum UncaughtException {
    /// The runtime whose uncaught-exception report `stderr` holds (`Python traceback`, `Go panic` …), or nil.
    package static func runtime(in stderr: String) -> String? {
        let lines = stderr.split(omittingEmptySubsequences: true, whereSeparator: { $0.isNewline })
        func anyLine(_ test: (Substring) -> Bool) -> Bool { lines.contains(where: test) }
        if stderr.contains("Traceback (most recent call last):") { return "Python traceback" }
        if stderr.contains("Exception in thread \"") { return "JVM uncaught exception" }
        if anyLine({ $0.hasPrefix("panic: ") || $0.hasPrefix("fatal error: ") }),
            anyLine({ $0.hasPrefix("goroutine ") && $0.contains("[") })
        {
            return "Go panic"
        }
        if anyLine({ line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            return trimmed.hasPrefix("at ") && trimmed.count < line.count
                && [".js:", ".mjs:", ".cjs:", ".ts:", "node:"].contains { trimmed.contains($0) }
        }) {
            return "Node.js uncaught exception"
        }
        if anyLine({ $0.contains("Fatal error: ") && !$0.hasPrefix("PHP ") })
            || stderr.contains("Swift runtime failure")
        {
            return "Swift fatal error"
        }
        if anyLine({ $0.hasPrefix("thread '") && $0.contains("' panicked at") }) { return "Rust panic" }
        if stderr.contains("Unhandled exception. ") || stderr.contains("Unhandled Exception: ") {
            return ".NET unhandled exception"
        }
        if anyLine({
            ($0.contains(":in `") || $0.contains(":in '")) && ($0.hasSuffix("Error)") || $0.hasSuffix("Exception)"))
        }) {
            return "Ruby uncaught exception"
        }
        if stderr.contains("PHP Fatal error:  Uncaught") { return "PHP uncaught exception" }
        return nil
    }
}
