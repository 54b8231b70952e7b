import Foundation
import ReceiptTestSupport
import Testing

/// `rcpt serve` as a backend meets it: a purchase API that asks verifyReceipt carefully passes every scenario, one
/// written as such APIs often are is caught on each flaw; the stand-in started on port 0 says where it listens,
/// answers the App Store Server API from a folder, logs JSON lines, stays small under oversized uploads and stops
/// on SIGTERM with exit 0.
@Suite("rcpt serve", .serialized)
struct ServeCLITests {
    static let receipt = "Corpus/receipts/tpinappreceipt-sandbox-g5.receipt"
    static let bundleID = "dev.bonzer.weeka.app"

    /// What a tool (python3, curl) writes, both streams.
    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        try CLI.process("/usr/bin/env", [name] + arguments).1
    }

    /// A port nobody listens on now, for a stand-in the backend must know before it starts.
    static func freePort() throws -> Int {
        let result = try tool(
            "python3", ["-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])"])
        return try #require(Int(result.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    static func judge(_ mode: [String], port: Int, extra: [String] = []) throws -> CLI.Result {
        let backend = try LiveTargetTests.Backend(mode)
        defer { backend.stop() }
        return try CLI.run(
            [
                "serve", "--port", String(port), "--judge", receipt, "--target", backend.url + "purchase",
                "--body", "receipt-data",
            ] + extra)
    }

    @Test("a backend that asks verifyReceipt carefully passes every scenario")
    func carefulBackendPasses() throws {
        let port = try Self.freePort()
        let result = try Self.judge(["purchase-via-apple", "http://127.0.0.1:\(port)", Self.bundleID], port: port)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("17 scenarios: 17 pass"), "\(result)")
    }

    @Test("a backend that trusts the status alone is caught on each flaw, with who could exploit it")
    func statusOnlyBackendIsCaught() throws {
        let port = try Self.freePort()
        let result = try Self.judge(
            ["purchase-via-apple-status-only", "http://127.0.0.1:\(port)"], port: port, extra: ["--format", "json"])
        #expect(result.status == 1, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["schema"] as? String == "rcpt.serve-judgement/1")
        let results = try #require(json["results"] as? [[String: Any]])
        let verdicts = Dictionary(
            uniqueKeysWithValues: results.map { ($0["scenario"] as? String ?? "", $0["verdict"] as? String ?? "") })
        // It grants the sandbox receipt's 21007 without retrying (genuine, sandbox-retry), and grants status 0
        // whatever the bundle, purchases and expiry (the edited answers are the same at both endpoints).
        for name in ["genuine", "sandbox-retry", "other-bundle-id", "no-purchases", "subscription-lapsed"] {
            #expect(verdicts[name] == "false-valid", "\(name): \(verdicts[name] ?? "")")
        }
        let explanations = Dictionary(
            uniqueKeysWithValues: results.map { ($0["scenario"] as? String ?? "", $0["explanation"] as? String ?? "") })
        #expect(explanations["genuine"]?.contains("21007") == true)
        #expect(explanations["other-bundle-id"]?.contains("com.example.other-app") == true)
        #expect(verdicts["status-21006"] == "pass")
        #expect(verdicts["http-503"] == "crashed")
        #expect(verdicts["not-json"] == "crashed")
        #expect(verdicts["status-21003"] == "pass")
        #expect(results.allSatisfy { ($0["attacker"] as? String).map { !$0.isEmpty } ?? false })
        #expect(try OutputSchemas.violations([Data(result.stdout.utf8)]) == [])
    }

    @Test("a backend that caches verified receipts is not judged on what it never asked, never called false valid")
    func cachingBackendIsNotJudged() throws {
        let port = try Self.freePort()
        let backend = try LiveTargetTests.Backend([
            "purchase-via-apple-cached", "http://127.0.0.1:\(port)", Self.bundleID,
        ])
        defer { backend.stop() }
        let arguments = [
            "serve", "--port", String(port), "--judge", Self.receipt, "--target", backend.url + "purchase",
            "--body", "receipt-data",
        ]
        let first = try CLI.run(arguments)
        #expect(first.status == 2, "\(first)")
        #expect(first.stdout.contains("17 scenarios: 1 pass, 16 not-judged"), "\(first)")
        #expect(!first.stdout.contains("FALSE-VALID"), "\(first)")
        #expect(first.stderr.contains("16 scenarios not judged"), "\(first)")
        // Run again, the backend remembers the receipt from the first run: it grants the genuine answer without
        // asking, but refuses a forged copy (which it does not remember and asks about): not judged, not a false valid.
        let second = try CLI.run(arguments)
        #expect(second.status == 2, "\(second)")
        #expect(second.stdout.contains("1 not-judged, 16 skipped"), "\(second)")
        #expect(second.stderr.contains("refused a forged copy"), "\(second)")
        #expect(second.stdout.contains("forged copy asked:"), "\(second)")
    }

    @Test("a backend that caches its refusals is not passed on answers it never asked for, and locks customers out")
    func refusalCachingBackendIsNotPassed() throws {
        let port = try Self.freePort()
        let result = try Self.judge(
            ["purchase-via-apple-cached-refusals", "http://127.0.0.1:\(port)", Self.bundleID], port: port,
            extra: ["--format", "json"])
        #expect(result.status == 1, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["passed"] as? Bool == false)
        #expect(json["outcome"] as? String == "failed")
        let results = try #require(json["results"] as? [[String: Any]])
        // Posted again at the end, the genuine receipt is refused from the cache: a paying customer locked out.
        let again = try #require(results.last)
        #expect(again["scenario"] as? String == "genuine-again")
        #expect(again["verdict"] as? String == "false-invalid", "\(again)")
        // Every other scenario after its first refusal is refused from its cache: none of them is a pass.
        let unasked = results.dropLast().filter {
            ($0["calls"] as? [Any])?.isEmpty == true && $0["verdict"] as? String != "skipped"
        }
        #expect(!unasked.isEmpty)
        #expect(unasked.allSatisfy { $0["verdict"] as? String == "not-judged" }, "\(unasked)")
        #expect(try OutputSchemas.violations([Data(result.stdout.utf8)]) == [])
    }

    @Test("a backend that grants without verifying is told from one that verifies elsewhere by a forged receipt")
    func nonVerifyingBackendIsCaught() throws {
        let port = try Self.freePort()
        let result = try Self.judge(["purchase-bundle-only", Self.bundleID], port: port)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("FALSE-VALID"), "\(result)")
        #expect(result.stdout.contains("does not verify receipts"), "\(result)")
        #expect(result.stdout.contains("who: anyone"), "\(result)")
    }

    @Test("a backend that refuses the genuine answer stops the run: nothing else can be judged")
    func refusingBackendStops() throws {
        let port = try Self.freePort()
        let result = try Self.judge(
            ["purchase-via-apple", "http://127.0.0.1:\(port)", "com.example.wrong"], port: port)
        #expect(result.status == 1)
        #expect(result.stdout.contains("FALSE-INVALID genuine"), "\(result)")
        #expect(result.stdout.contains("16 skipped"), "\(result)")
    }

    @Test("a backend not pointed at the stand-in, or not listening, is no judgement: exit 2, saying why")
    func setupProblems() throws {
        let port = try Self.freePort()
        let elsewhere = try Self.freePort()
        let wrong = try Self.judge(
            ["purchase-via-apple", "http://127.0.0.1:\(elsewhere)", Self.bundleID], port: port)
        #expect(wrong.status == 2, "\(wrong)")
        #expect(wrong.stderr.contains("without asking the stand-in"), "\(wrong)")
        #expect(!wrong.stdout.contains("CRASHED"), "\(wrong)")
        let nobody = try CLI.run([
            "serve", "--port", String(port), "--judge", Self.receipt, "--target",
            "http://127.0.0.1:\(elsewhere)/purchase", "--body", "receipt-data",
        ])
        #expect(nobody.status == 2, "\(nobody)")
        #expect(nobody.stderr.contains("could not be reached"), "\(nobody)")
    }

    @Test("SIGINT during a judgement stops it at once with exit 2, not by the signal")
    func interruptedJudgement() throws {
        let backend = try LiveTargetTests.Backend(["hang"])
        defer { backend.stop() }
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = [
            "serve", "--port", String(try Self.freePort()), "--judge", Self.receipt, "--target",
            backend.url + "purchase", "--body", "receipt-data", "--timeout", "600",
        ]
        process.currentDirectoryURL = Fixtures.repositoryRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The backend has the first request: rcpt is judging, its signals taken.
        var line = Data()
        while let byte = try backend.output.fileHandleForReading.read(upToCount: 1), let first = byte.first,
            first != 0x0A
        {
            line.append(first)
        }
        #expect(String(decoding: line, as: UTF8.self) == "REQUEST")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 2)
    }

    @Test("usage errors and a receipt that does not verify exit 2")
    func usage() throws {
        let target = ["--target", "http://127.0.0.1:9/purchase", "--body", "receipt-data"]
        #expect(try CLI.run(["serve", "--judge", Self.receipt] + target).status == 2)  // no --port
        #expect(try CLI.run(["serve", "--port", "9", "--judge", Self.receipt]).status == 2)  // no --target
        #expect(try CLI.run(["serve", "--scenario", "nope"]).status == 2)
        #expect(try CLI.run(["serve", "--port", "70000"]).status == 2)
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-serve-garbage")
        try Data([0x30, 0x80, 0x01, 0x02]).write(to: garbage)
        defer { try? FileManager.default.removeItem(at: garbage) }
        let refused = try CLI.run(["serve", "--port", "9", "--judge", garbage.path] + target)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("does not verify"), "\(refused)")
    }

    @Test("--list-scenarios names every scenario with its expectation")
    func listScenarios() throws {
        let result = try CLI.run(["serve", "--list-scenarios", "--format", "json"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let names = (json["scenarios"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.contains("status-21007") == false)
        #expect(
            names.contains("sandbox-retry") && names.contains("status-21010") && names.last == "genuine-again"
                && names.count == 17)
        #expect(try OutputSchemas.violations([Data(result.stdout.utf8)]) == [])
    }

    /// A `rcpt serve` process on port 0, with its first line read.
    final class Server {
        let process = Process()
        let output = Pipe()
        let port: Int
        /// The `listening` line.
        let firstLine: String

        init(_ arguments: [String]) throws {
            process.executableURL = CLI.executable
            process.arguments = ["serve", "--port", "0"] + arguments
            process.currentDirectoryURL = Fixtures.repositoryRoot
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first,
                first != 0x0A
            {
                line.append(first)
            }
            let json = try JSONSerialization.jsonObject(with: line) as? [String: Any]
            guard json?["event"] as? String == "listening", let port = json?["port"] as? Int else {
                process.terminate()
                throw LiveTargetTests.BackendFailure(message: "rcpt serve did not start: \(line)")
            }
            self.port = port
            firstLine = String(decoding: line, as: UTF8.self)
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        /// The peak resident memory, in kilobytes.
        var peakKilobytes: Int? {
            let status =
                (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            return line.flatMap {
                Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            }
        }
    }

    @Test("port 0 is printed; the API answers from --documents; every request is a JSON line; SIGTERM exits 0")
    func serving() throws {
        let server = try Server(["--documents", "Corpus/jws"])
        let url = "http://127.0.0.1:\(server.port)"
        let transaction = "2000000191896422"  // a renewal: its history holds the first purchase too
        let answer = try Self.tool(
            "curl", ["-sS", "-H", "Authorization: Bearer test-only", "\(url)/inApps/v1/history/\(transaction)"])
        #expect(answer.contains("\"signedTransactions\""), "\(answer)")
        #expect(answer.components(separatedBy: "eyJ").count - 1 == 2 * 2, "two tokens, each a header and a payload")
        let unauthenticated = try Self.tool(
            "curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "\(url)/inApps/v1/transactions/\(transaction)"])
        #expect(unauthenticated == "401")
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        let log = String(decoding: server.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = log.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.count == 2)
        #expect(try OutputSchemas.violations([Data(("\(server.firstLine)\n" + log).utf8)]) == [])
        #expect(lines.map { $0["http_status"] as? Int } == [200, 401])
    }

    @Test("--scenario FILE serves the file's JSON object as it is; a file that is not one exits 2")
    func scenarioFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-serve-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let answer = directory.appendingPathComponent("answer.json")
        try Data(#"{"status":21199,"is-retryable":false}"#.utf8).write(to: answer)
        let server = try Server(["--scenario", answer.path])
        #expect(server.firstLine.contains(#""scenario":"answer.json""#))
        let body = try Self.tool(
            "curl", ["-sS", "-X", "POST", "-d", "{}", "http://127.0.0.1:\(server.port)/sandbox/verifyReceipt"])
        #expect(body == #"{"status":21199,"is-retryable":false}"#)
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
        let notJSON = directory.appendingPathComponent("not.json")
        try Data("[1, 2]".utf8).write(to: notJSON)
        let refused = try CLI.run(["serve", "--scenario", notJSON.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("not a JSON object"), "\(refused)")
    }

    @Test("32 clients streaming 16 MB each past --max-body leave the server small and serving")
    func boundedMemory() throws {
        let server = try Server(["--max-body", "100000"])
        let script = """
            import socket, sys, threading
            answers = []
            def upload():
                s = socket.create_connection(("127.0.0.1", \(server.port)))
                s.sendall(b"POST /verifyReceipt HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n")
                chunk = b"100000\\r\\n" + b"A" * 0x100000 + b"\\r\\n"
                try:
                    for _ in range(16):
                        s.sendall(chunk)
                except OSError:
                    pass
                try:
                    answer = s.recv(64)[:12].decode(errors="replace") or "closed"
                except OSError:
                    answer = "reset"
                answers.append(answer)
            threads = [threading.Thread(target=upload) for _ in range(32)]
            [t.start() for t in threads]
            [t.join() for t in threads]
            print("\\n".join(answers))
            """
        let clients = try Self.tool("python3", ["-c", script])
        let answers = clients.split(separator: "\n")
        #expect(answers.count == 32, "\(clients)")
        // 413, or the connection closed before the client read it (a reset, when its upload was still in flight).
        #expect(answers.allSatisfy { ["HTTP/1.1 413", "closed", "reset"].contains($0) }, "\(answers)")
        #expect(answers.contains("HTTP/1.1 413"), "\(answers)")
        let peak = try #require(server.peakKilobytes)
        #expect(peak < 150_000, "peak \(peak) kB")
        let after = try Self.tool(
            "curl", ["-sS", "-X", "POST", "-d", "{}", "http://127.0.0.1:\(server.port)/verifyReceipt"])
        #expect(after.contains("21002"))
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
    }
}
