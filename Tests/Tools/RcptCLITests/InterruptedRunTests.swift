import Foundation
import ReceiptTestSupport
import Testing

/// A cancelled CI job sends SIGTERM; a person presses Ctrl-C. `conformance` then stops the validator it started (its
/// whole process group), removes its scratch files, and exits 2 — a CI trial found the validator left running under
/// PID 1 and the files in /tmp.
@Suite("Interrupted conformance runs")
struct InterruptedRunTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func anInterruptedRunStopsItsValidator(_ signal: Int32) throws {
        let workspace = try #require(ConformanceCLITests.workspace)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-interrupt-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fifo = scratch.appendingPathComponent("started").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // The validator says its pid (exec keeps it) and hangs.
        let validator = scratch.appendingPathComponent("hang.sh")
        try "#!/bin/sh\necho $$ > \(fifo)\nexec sleep 1000\n".write(to: validator, atomically: true, encoding: .utf8)
        chmod(validator.path, 0o755)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = [
            "conformance", "--jobs", "1", "--timeout", "600", "--validator", validator.path + " {}",
            workspace.directory.appendingPathComponent("suite").path,
        ]
        process.currentDirectoryURL = Fixtures.repositoryRoot
        // Its scratch files go here, to be counted after.
        let temporary = scratch.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Blocks until the validator has started.
        let reader = open(fifo, O_RDONLY)
        #expect(reader >= 0)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while case let count = read(reader, &buffer, buffer.count), count > 0 { bytes += buffer[..<count] }
        close(reader)
        let said = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let validatorPID = try #require(pid_t(said))
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 2)
        // The run's files (the validator's captured output, written while it hung) are gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        // Sent SIGKILL before rcpt exited: it ends as soon as a busy machine schedules it — gone, or a zombie its
        // new parent has yet to reap. Waited for (a state, not a time, is asserted); one that ignored the kill
        // would still be sleeping after a minute.
        func state() -> String? {
            (try? String(contentsOfFile: "/proc/\(validatorPID)/stat", encoding: .utf8))
                .map { $0.split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? "" }
        }
        let deadline = Date().addingTimeInterval(60)
        while let now = state(), now != "Z", now != "X", Date() < deadline { usleep(10_000) }
        let ended = state()
        #expect(ended == nil || ended == "Z" || ended == "X", "validator \(validatorPID) is \(ended ?? "gone")")
    }
}
