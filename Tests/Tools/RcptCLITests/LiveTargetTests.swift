import Foundation
import ReceiptTestSupport
import Testing

/// `conformance --target URL` and `fuzz-validator --target URL` against real HTTP servers the tests start
/// (Validators/backend_server.py, Python's standard library): a notification webhook that decodes without verifying
/// is caught, one that verifies with Apple's library passes; a purchase API that checks only the bundle id is
/// caught, one that runs `rcpt verify` passes; a server that answers 500 is a crash; a port nobody listens on is no
/// verdict.
@Suite("Live targets over HTTP", .serialized)
struct LiveTargetTests {
    /// A backend_server.py process, listening until `stop()`.
    final class Backend {
        let process = Process()
        let input = Pipe()
        /// Its standard output: "PORT n", then whatever its mode prints.
        let output = Pipe()
        let port: Int

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments =
                ["python3", Fixtures.url("Tests/Tools/RcptCLITests/Validators/backend_server.py").path] + arguments
            process.currentDirectoryURL = Fixtures.repositoryRoot
            // It exits when its standard input closes, so a test that dies leaves no server behind.
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Its first line says where it listens ("PORT n"), once it does.
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
                line.append(first)
            }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
                process.terminate()
                throw BackendFailure(message: "backend_server.py did not start: \(text)")
            }
            self.port = port
        }

        var url: String { "http://127.0.0.1:\(port)/" }

        /// Kills it (SIGKILL: a test process may hand its children a mask that blocks SIGTERM) and waits.
        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        deinit { if process.isRunning { stop() } }
    }

    struct BackendFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static let notification = "gopay-notif-DID_RENEW-sandbox.jws"
    static let notificationBundleID = "com.audaos.audarecorder"

    /// A TEST-ONLY JWS CA, a receipt CA, and the suites `mutate --all` makes from a genuine notification and a real
    /// receipt, once.
    static let workspace: URL? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-live-\(UUID().uuidString)")
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        guard (try? CLI.run(["ca", "init", "--shape", "jws", path("jws-ca")]))?.status == 0,
            (try? CLI.run(["ca", "init", path("ca")]))?.status == 0,
            (try? CLI.run([
                "mutate", "Corpus/jws/\(notification)", "--all", "--ca", path("jws-ca"), "--out-dir",
                path("notifications"),
            ]))?.status == 0,
            (try? CLI.run([
                "mutate", "Corpus/receipts/kvitto-sandboxReceipt.receipt", "--all", "--ca", path("ca"), "--out-dir",
                path("receipts"),
            ]))?.status == 0
        else { return nil }
        return directory
    }()

    static func conformance(_ arguments: [String], suite: String) throws -> (status: Int32, report: [String: Any]) {
        let workspace = try #require(Self.workspace)
        let result = try CLI.run(
            ["conformance", "--format", "json", "--timeout", "60", "--jobs", "4"] + arguments
                + [workspace.appendingPathComponent(suite).path])
        let report = try #require(
            try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any], "\(result)")
        #expect(try OutputSchemas.violations([result.stdoutBytes]) == [], "rcpt.conformance/2")
        return (result.status, report)
    }

    static func classes(_ report: [String: Any]) -> [String: [String]] {
        (report["classes"] as? [String: [String]]) ?? [:]
    }

    static func security(_ report: [String: Any]) -> (passed: Int, total: Int) {
        let scores = (report["scores"] as? [String: [String: Int]])?["security"] ?? [:]
        return (scores["passed"] ?? -1, scores["total"] ?? -1)
    }

    @Test func aWebhookThatDecodesWithoutVerifyingIsCaughtInOneCommand() throws {
        let backend = try Backend(["webhook-decode-only", Self.notificationBundleID])
        defer { backend.stop() }
        let (status, report) = try Self.conformance(
            ["--target", backend.url, "--body", "signed-payload"], suite: "notifications")
        #expect(status == 1)
        let accepted = Self.classes(report)["accepted-bad"] ?? []
        // The forgeries anyone can make: a signature that does not verify, a chain to another root, alg none.
        #expect(accepted.contains { $0.contains("signature") }, "\(accepted)")
        #expect(accepted.contains { $0.contains("alg-none") }, "\(accepted)")
        #expect(Self.security(report).passed < Self.security(report).total)
        let results = try #require(report["results"] as? [[String: Any]])
        let forged = try #require(results.first { $0["class"] as? String == "accepted-bad" })
        // Its reproduction posts the same body with curl, built from the entry's file.
        let command = try #require(forged["command"] as? String)
        let file = try #require(forged["file"] as? String)
        #expect(
            command == #"printf '{"signedPayload":"%s"}' "$(cat \#(file))" | "#
                + "curl -sS -X POST -H 'Content-Type: application/json' -H 'User-Agent: rcpt/0.1.0' "
                + "--data-binary @- \(backend.url)", "\(command)")
    }

    @Test func aWebhookThatVerifiesWithApplesLibraryPasses() throws {
        let workspace = try #require(Self.workspace)
        let backend = try Backend([
            "webhook-apple", workspace.appendingPathComponent("jws-ca/root.pem").path, Self.notificationBundleID,
            "Sandbox", "-",
        ])
        defer { backend.stop() }
        let (status, report) = try Self.conformance(
            ["--target", backend.url, "--body", "signed-payload"], suite: "notifications")
        #expect(status == 0, "\(Self.classes(report))")
        #expect(Self.security(report).passed == Self.security(report).total)
        #expect(Self.security(report).total > 30)
        for failing in ["crashed", "timed-out", "errored", "could-not-run", "baseline-rejected", "over-strict"] {
            #expect(Self.classes(report)[failing] == [], "\(failing): \(Self.classes(report)[failing] ?? [])")
        }
    }

    @Test func aServerThatAnswers500IsACrashAndANoListenerIsNoVerdict() throws {
        let backend = try Backend(["webhook-fragile", Self.notificationBundleID])
        defer { backend.stop() }
        let (status, report) = try Self.conformance(
            ["--target", backend.url, "--body", "signed-payload"], suite: "notifications")
        #expect(status == 1)
        let results = try #require(report["results"] as? [[String: Any]])
        let crash = try #require(results.first { $0["class"] as? String == "crashed" }, "no 500 seen")
        #expect(crash["detail"] as? String == "crashed (HTTP 500)")
        backend.stop()
        // Nobody listens there now: the baseline gets no verdict and the run stops on it.
        let (stopped, unreachable) = try Self.conformance(
            ["--target", backend.url, "--body", "signed-payload"], suite: "notifications")
        #expect(stopped == 1)
        let baseline = try #require((unreachable["results"] as? [[String: Any]])?.first)
        #expect(baseline["detail"] as? String == "errored (connection refused)", "\(baseline)")
    }

    /// A redirect is the endpoint's answer, not a verdict: followed (as a GET, to a page that answers 200), it would
    /// turn every refusal into an acceptance.
    @Test func aRedirectIsNoVerdictAndIsNotFollowed() throws {
        let backend = try Backend(["redirect"])
        defer { backend.stop() }
        let (status, report) = try Self.conformance(
            ["--target", backend.url, "--body", "signed-payload"], suite: "notifications")
        #expect(status == 1)
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.count == 1, "the run stops at the baseline")
        #expect(results.first?["detail"] as? String == "errored (answered HTTP 302, neither a verdict nor an error)")
        #expect(Self.classes(report)["accepted-bad"] ?? [] == [])
        let notified = try CLI.run(["notify", backend.url, "Corpus/jws/\(Self.notification)"])
        #expect(notified.stdout.contains("HTTP 302"), "\(notified.stdout)")
    }

    /// A connection that ends in the middle of the headers was a trap in Foundation's networking (a trial: SIGILL,
    /// "Transfer completed, but there's no response"): it is an answer of words, exit 1, never a signal.
    @Test func aConnectionThatEndsInTheHeadersIsNoVerdictAndNoSignal() throws {
        let backend = try Backend(["close-in-headers"])
        defer { backend.stop() }
        let notified = try CLI.run(["notify", "--timeout", "600", backend.url, "Corpus/jws/\(Self.notification)"])
        #expect(notified.status == 1, "\(notified)")
        #expect(notified.stdout.contains("errored (not an HTTP answer)"), "\(notified.stdout)")
        let (status, report) = try Self.conformance(
            ["--target", backend.url, "--body", "signed-payload"], suite: "notifications")
        #expect(status == 1)
        let baseline = try #require((report["results"] as? [[String: Any]])?.first)
        #expect(baseline["detail"] as? String == "errored (not an HTTP answer)", "\(baseline)")
    }

    /// An answer whose body breaks off is no verdict, and says what it was: a trial was told "not an HTTP answer"
    /// of an HTTP 200 that sent 5 of its 100 bytes.
    @Test func anAnswerCutShortIsNoVerdictAndSaysSo() throws {
        let backend = try Backend(["close-in-body"])
        defer { backend.stop() }
        let notified = try CLI.run(["notify", "--timeout", "600", backend.url, "Corpus/jws/\(Self.notification)"])
        #expect(notified.status == 1, "\(notified)")
        #expect(notified.stdout.contains("an HTTP 200 answer cut short"), "\(notified.stdout)")
    }

    /// A compressed answer is not inflated (rcpt asks for none): 64 MiB of zeros in 64 KiB of gzip is read as the
    /// 64 KiB that came (a trial's gzip bomb took 4.6 GB and ran past the timeout).
    @Test func aCompressedAnswerIsTheBytesThatCame() throws {
        let backend = try Backend(["gzip"])
        defer { backend.stop() }
        let notified = try CLI.run([
            "notify", "--timeout", "600", "--format", "json", backend.url, "Corpus/jws/\(Self.notification)",
        ])
        #expect(notified.status == 0, "\(notified)")
        #expect(notified.stdout.contains("\"status\": 200"), "\(notified.stdout.prefix(400))")
        // Inflated, the body would be zeros.
        #expect(notified.stdout.contains("\"body\""), "\(notified.stdout.prefix(400))")
        #expect(!notified.stdout.contains("\\u0000\\u0000\\u0000\\u0000"), "\(notified.stdout.prefix(400))")
    }

    /// Credentials in the URL are sent as Basic authentication, as curl sends them, and never shown: a report or a
    /// CI log names the URL with `***` for the password.
    @Test func credentialsInTheURLAreSentAndNotShown() throws {
        let backend = try Backend(["echo-authorization"])
        defer { backend.stop() }
        let url = "http://user:s3cret@127.0.0.1:\(backend.port)/hook"
        let notified = try CLI.run(["notify", "--timeout", "600", url, "Corpus/jws/\(Self.notification)"])
        #expect(notified.status == 0, "\(notified)")
        #expect(notified.stdout.contains("Basic dXNlcjpzM2NyZXQ="), "\(notified.stdout)")
        #expect(notified.stdout.contains("http://user:***@127.0.0.1"), "\(notified.stdout)")
        #expect(!notified.stdout.contains("s3cret") && !notified.stderr.contains("s3cret"), "\(notified)")
    }

    @Test func aPurchaseAPIThatChecksOnlyTheBundleIdIsCaughtAndOneRunningRcptPasses() throws {
        let workspace = try #require(Self.workspace)
        let lax = try Backend(["purchase-bundle-only", "com.cocoanetics.EmmiView"])
        defer { lax.stop() }
        let arguments = ["--body", "receipt-data", "--body-member", "password=secret", "--accept-when", "status=0"]
        let (laxStatus, laxReport) = try Self.conformance(
            ["--target", lax.url, "--context", "server"] + arguments, suite: "receipts")
        #expect(laxStatus == 1)
        #expect(Self.security(laxReport).passed < Self.security(laxReport).total)
        let rcptVerify =
            "\(CLI.executable.path) verify --root \(workspace.appendingPathComponent("ca/root.pem").path) "
            + "--bundle-id com.cocoanetics.EmmiView --app-version 246 {}"
        let careful = try Backend(["purchase-rcpt", rcptVerify])
        defer { careful.stop() }
        let (status, report) = try Self.conformance(
            ["--target", careful.url, "--context", "server"] + arguments, suite: "receipts")
        #expect(status == 0, "\(Self.classes(report))")
        #expect(Self.security(report).passed == Self.security(report).total)
        #expect(Self.security(report).total > 30)
    }

    @Test func fuzzValidatorFindsTheWebhookThatDoesNotVerify() throws {
        let workspace = try #require(Self.workspace)
        let backend = try Backend(["webhook-decode-only", Self.notificationBundleID])
        defer { backend.stop() }
        let result = try CLI.run([
            "fuzz-validator", "--format", "json", "--ca", workspace.appendingPathComponent("ca").path, "--jws-ca",
            workspace.appendingPathComponent("jws-ca").path, "--runs", "120", "--target", backend.url, "--body",
            "signed-payload", "Corpus/jws/\(Self.notification)",
        ])
        #expect(result.status == 1, "\(result)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        #expect(try OutputSchemas.violations([result.stdoutBytes]) == [], "rcpt.fuzz-validator/1")
        let groups = try #require(report["groups"] as? [[String: Any]])
        #expect(
            groups.contains {
                $0["kind"] as? String == "accepted-what-rcpt-rejects" && $0["concern"] as? String == "security"
            },
            "\(groups.prefix(3))")
    }

    /// `rcpt notify` posts each notification as Apple does and shows each answer; a 5xx fails the run; an unreadable
    /// document stops it before anything is posted.
    @Test func notifyPostsEachNotificationAndShowsEachAnswer() throws {
        let workspace = try #require(Self.workspace)
        let backend = try Backend(["webhook-fragile", Self.notificationBundleID])
        defer { backend.stop() }
        let garbage = workspace.appendingPathComponent("garbage.jws").path
        try Data("not a token".utf8).write(to: URL(fileURLWithPath: garbage))
        let forged = workspace.appendingPathComponent("notifications/alg-none.jws").path
        let genuine = "Corpus/jws/\(Self.notification)"
        let text = try CLI.run(["notify", backend.url, genuine, forged])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("\(genuine)  HTTP 200"), "\(text.stdout)")
        // The flaw shows as it is: the forgery answered 200 like the genuine notification.
        #expect(text.stdout.contains("\(forged)  HTTP 200"), "\(text.stdout)")
        let json = try CLI.run(["notify", "--format", "json", backend.url, forged, garbage])
        #expect(json.status == 1, "a 500 fails the run")
        #expect(try OutputSchemas.violations([json.stdoutBytes]) == [], "rcpt.notify/1")
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        let answers = try #require(report["answers"] as? [[String: Any]])
        #expect(answers.map { $0["status"] as? Int } == [200, 500])
        #expect(answers.map { $0["observed"] as? String } == ["accepted", "crashed"])
        #expect((answers.last?["body"] as? String)?.contains("IndexError") == true)
        // What is not a token or a JSON body is posted all the same, never without a note; a notification, without.
        #expect(json.stderr.contains("garbage.jws is text, not a token or a JSON body"), "\(json.stderr)")
        #expect(!json.stderr.contains("alg-none.jws"), "\(json.stderr)")
        let missing = try CLI.run(["notify", backend.url, genuine, "/nonexistent/notification.jws"])
        #expect(missing.status == 2)
        #expect(missing.stdout.isEmpty && missing.stderr.contains("nothing was posted"), "\(missing)")
    }

    @Test func targetOptionsAreCheckedBeforeAnythingRuns() throws {
        let suite = try #require(Self.workspace).appendingPathComponent("notifications").path
        for (arguments, message) in [
            (["--target", "http://127.0.0.1:1/"], "--target needs how to post each document"),
            (["--target", "ftp://example/", "--body", "raw"], "--target needs an http:// or https:// URL"),
            (["--target", "http://127.0.0.1:1/", "--validator", "true {}", "--body", "raw"], "not both"),
            (["--body", "raw", "--validator", "true {}"], "go with --target"),
            (["--target", "http://127.0.0.1:1/", "--body", "raw", "--batch"], "not a --target"),
            (["--target", "http://127.0.0.1:1/", "--body", "raw", "--accept-when", "status"], "PATH=VALUE"),
            (["--target", "http://127.0.0.1:1/", "--body", "raw", "-H", "no colon"], "'Name: value'"),
            (["--target", "http://127.0.0.1:1/", "--body", "raw", "-H", "X-A: b\r\nX-B: c"], "line break"),
            (["--target", "http://127.0.0.1:1/", "--body", "raw", "--method", "GE T"], "--method takes"),
            (["--target", "http://", "--body", "raw"], "with a host"),
            (["--target", "http://127.0.0.1:99999/", "--body", "raw"], "port from 1 to 65535"),
            (["--target", "http://127.0.0.1:1/", "--body", "raw", "--body-template", "/dev/null"], "not both"),
        ] {
            let result = try CLI.run(["conformance"] + arguments + [suite])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
