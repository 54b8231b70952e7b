import Foundation
import ReceiptTestSupport
import Testing

/// Runs the built `rcpt` binary the way a user would, capturing its output and exit status.
enum CLI {
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutBytes: Data
        var description: String { "exit \(status), stderr: \(stderr.prefix(300))" }
    }

    /// The `rcpt` under test: the release binary scripts/test.sh builds from the same sources just before the tests
    /// (`RCPT_RELEASE_BINARY`: the one shipped, and the tests that run it as a process go about three times faster),
    /// else the executable built next to the test bundle.
    static var executable: URL {
        if let release = ProcessInfo.processInfo.environment["RCPT_RELEASE_BINARY"], !release.isEmpty,
            FileManager.default.isExecutableFile(atPath: release)
        {
            return URL(fileURLWithPath: release)
        }
        let directory =
            Bundle.main.bundleURL.pathExtension == "xctest"
            ? Bundle.main.bundleURL.deletingLastPathComponent() : Bundle.main.bundleURL
        let beside = directory.appendingPathComponent("rcpt")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return Fixtures.url(".build/debug/rcpt")
    }

    /// Runs rcpt with `arguments` from the repository root, optionally feeding `stdin`.
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.repositoryRoot
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = "100"
        env.removeValue(forKey: "NO_COLOR")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let input = Pipe()
        // Standard error goes to a file, so both streams drain without a second reader thread.
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        #expect(process.terminationReason == .exit, "rcpt died of a signal")
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: outData)
    }

    /// Runs `executable` with `arguments` in `directory` (the environment `environment`, or this one's with
    /// `adding` merged in), both outputs captured together: its exit status and what it wrote.
    static func process(
        _ executable: String, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String]? = nil, adding: [String: String] = [:]
    ) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = (environment ?? ProcessInfo.processInfo.environment).merging(adding) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Compares `actual` with the golden file, or rewrites it when RCPT_UPDATE_GOLDEN=1.
    static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = Fixtures.url("Tests/Tools/RcptCLITests/Golden/\(name)")
        if ProcessInfo.processInfo.environment["RCPT_UPDATE_GOLDEN"] == "1" {
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = (try? String(contentsOf: url, encoding: .utf8)) ?? "(missing golden file \(name))"
        if actual != expected {
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }
            let place =
                first.map { "line \($0.offset + 1):\n  got:  \($0.element.0)\n  want: \($0.element.1)" }
                ?? "lengths differ (\(actualLines.count) vs \(expectedLines.count) lines)"
            Issue.record(
                "output differs from Golden/\(name) at \(place); RCPT_UPDATE_GOLDEN=1 rewrites it",
                sourceLocation: sourceLocation)
        }
    }
}
