import Foundation
import ReceiptTestSupport
import Testing

/// rcpt's verdicts calibrated against Apple's own verifier: Apple's app-store-server-library (PyPI 3.1.2, installed
/// by scripts/bootstrap.sh), used as a server uses it (Validators/apple_verifier.py), run through `conformance` on
/// the suites `mutate --all` makes from genuine notifications, transactions and renewal info of both environments,
/// and through `fuzz-validator`. It passes every security entry, and it never refuses what rcpt accepts (where it
/// does, rcpt is the one that is wrong). What it accepts and rcpt refuses is robustness only: shapes only the
/// signing key's holder can make, or cross-reader ambiguities in what no server reads.
@Suite("Calibrated against Apple's verifier", .serialized)
struct AppleVerifierCalibrationTests {
    /// A genuine sample, what Apple's verifier is configured with for it, and the kind a bare token of it is.
    struct Sample: Sendable, CustomStringConvertible {
        var file: String
        var bundleID: String
        var environment: String
        var appAppleID: String
        var kind: String
        var description: String { file }
    }

    static let samples = [
        Sample(
            file: "gopay-txn-2000000184445477-sandbox.jws", bundleID: "Com.VoiceRecording.Telephone",
            environment: "Sandbox", appAppleID: "-", kind: "transaction"),
        Sample(
            file: "gopay-notif-DID_RENEW-sandbox.jws", bundleID: "com.audaos.audarecorder", environment: "Sandbox",
            appAppleID: "-", kind: "notification"),
        Sample(
            file: "gopay-renewal-2000000184445477-sandbox.jws", bundleID: "Com.VoiceRecording.Telephone",
            environment: "Sandbox", appAppleID: "-", kind: "renewal"),
        // A transaction carries no appAppleId: the notifications the catalogue makes around it carry the TEST-ONLY one.
        Sample(
            file: "gopay-txn-510001261072921-production.jws", bundleID: "com.jrjj.keysns", environment: "Production",
            appAppleID: "1234567890", kind: "transaction"),
        Sample(
            file: "gopay-notif-CONSUMPTION_REQUEST-production.jws", bundleID: "com.jrjj.keysns",
            environment: "Production", appAppleID: "1601830814", kind: "notification"),
    ]

    static let directory: URL? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-apple-\(UUID().uuidString)")
        guard
            (try? CLI.run(["ca", "init", "--shape", "jws", directory.appendingPathComponent("ca").path]))?.status == 0,
            (try? CLI.run(["ca", "init", directory.appendingPathComponent("receipt-ca").path]))?.status == 0
        else { return nil }
        return directory
    }()

    /// Apple's verifier for `sample`, configured once and given the paths on its standard input (`--batch`): one
    /// Python process for a whole suite.
    static func validator(_ sample: Sample, root: String, input: String = "--stdin") -> String {
        let script = Fixtures.url("Tests/Tools/RcptCLITests/Validators/apple_verifier.py").path
        return
            "python3 \(script) \(root) \(sample.bundleID) \(sample.environment) \(sample.appAppleID) \(sample.kind) \(input)"
    }

    @Test func applesLibraryIsInstalled() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import appstoreserverlibrary.signed_data_verifier"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "scripts/bootstrap.sh installs app-store-server-library")
    }

    /// The fixture's two modes agree with Apple's library on genuine tokens: a file given by path answers by exit
    /// status; paths on standard input (what `--batch` gives) answer a line each.
    @Test func theVerifierAnswersForOneFileAndForAPathPerLine() throws {
        let sample = Self.samples[0]
        let root = Fixtures.url("Corpus/certs/AppleRootCA-G3.cer").path
        func python(_ input: String, stdin: String = "") throws -> (status: Int32, stdout: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", Self.validator(sample, root: root, input: input)]
            process.currentDirectoryURL = Fixtures.url(".")
            let (toChild, fromChild) = (Pipe(), Pipe())
            process.standardInput = toChild
            process.standardOutput = fromChild
            try process.run()
            toChild.fileHandleForWriting.write(Data(stdin.utf8))
            try toChild.fileHandleForWriting.close()
            let output = fromChild.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self))
        }
        let genuine = "Corpus/jws/\(sample.file)"
        let renewal = "Corpus/jws/gopay-renewal-2000000184445477-sandbox.jws"  // not a transaction
        #expect(try python(genuine).status == 0)
        #expect(try python(renewal).status == 1)
        let lines = try python("--stdin", stdin: "\(genuine)\n\(renewal)\n").stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == "accepted")
        #expect(lines.last?.hasPrefix("rejected: ") == true, "\(lines)")
    }

    @Test(arguments: samples)
    func applesVerifierPassesEverySecurityEntryAndNeverRefusesWhatRcptAccepts(_ sample: Sample) throws {
        let directory = try #require(Self.directory)
        let suite = directory.appendingPathComponent("suite-\(sample.file)").path
        let made = try CLI.run([
            "mutate", "Corpus/jws/\(sample.file)", "--all", "--ca", directory.appendingPathComponent("ca").path,
            "--out-dir", suite,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        // Only an Xcode seed's suite says Apple's libraries skip its signature (a CI user's trial, session 29).
        #expect(
            made.stderr.contains("do not verify the signature of Xcode documents") == (sample.environment == "Xcode"))
        let root = directory.appendingPathComponent("ca/root.pem").path
        // The JWS CA's suite agrees with rcpt verify: its own suggested line passes it, and nothing was skipped for
        // the CA's shape.
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: suite + "/manifest.json"))) as? [String: Any])
        let suggested = try #require((manifest["expectations"] as? [String: Any])?["validator"] as? String)
        #expect(suggested.contains("--environment \(sample.environment)"), "\(suggested)")
        let own = try CLI.run(["conformance", "--jobs", "2", "--timeout", "600", "--validator", suggested, suite])
        #expect(own.status == 0, "\(sample.file): \(own.stdout.suffix(400))")
        #expect(
            !((manifest["skipped"] as? [String: String]) ?? [:]).values.contains { $0.contains("needs another shape") })
        let run = try CLI.run([
            "conformance", "--format", "json", "--batch", "--timeout", "600",
            "--validator", Self.validator(sample, root: root), suite,
        ])
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        #expect(run.status == 0, "\(sample.file): \(run.stdout.suffix(600))")
        #expect(try OutputSchemas.violations([run.stdoutBytes]) == [], "rcpt.conformance/2")
        let scores = try #require(report["scores"] as? [String: [String: Int]])
        #expect(scores["security"]?["passed"] == scores["security"]?["total"], "\(sample.file)")
        #expect((scores["security"]?["total"] ?? 0) > 30)
        let classes = try #require(report["classes"] as? [String: [String]])
        // Where Apple's verifier refuses what rcpt accepts, rcpt is wrong.
        #expect(classes["over-strict"] == [], "\(sample.file): \(classes["over-strict"] ?? [])")
        for failing in ["crashed", "timed-out", "errored", "could-not-run", "baseline-rejected"] {
            #expect(classes[failing] == [], "\(sample.file) \(failing): \(classes[failing] ?? [])")
        }
        // What it accepts and rcpt refuses is robustness: signer-only, or a cross-reader ambiguity with its readers.
        let results = try #require(report["results"] as? [[String: Any]])
        for result in results where result["class"] as? String == "accepted-bad" {
            #expect(result["concern"] as? String == "robustness", "\(sample.file): \(result["name"] ?? "")")
            #expect(
                result["attacker"] as? String == "signer" || result["readers"] as? String != nil,
                "\(sample.file): \(result["name"] ?? "")")
        }
        // The kind confusion Apple's verifier refuses, rcpt refuses too.
        if sample.kind == "transaction" {
            #expect(
                results.contains {
                    $0["name"] as? String == "document-notification-as-transaction"
                        && $0["class"] as? String == "passed"
                })
        }
    }

    /// A fuzz campaign against Apple's verifier finds nothing the gate fails on: every input it accepts and rcpt
    /// refuses is robustness, and none it refuses does rcpt accept.
    @Test func aFuzzCampaignAgainstApplesVerifierRaisesNoFalseAlarm() throws {
        let directory = try #require(Self.directory)
        let sample = Self.samples[0]
        let root = directory.appendingPathComponent("ca/root.pem").path
        let run = try CLI.run([
            "fuzz-validator", "--format", "json", "--ca", directory.appendingPathComponent("receipt-ca").path,
            "--jws-ca", directory.appendingPathComponent("ca").path, "--runs", "80", "--batch",
            "--timeout", "600", "--validator", Self.validator(sample, root: root),
            "Corpus/jws/\(sample.file)",
        ])
        #expect(run.status == 0, "\(run.stdout.suffix(800))")
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        #expect(try OutputSchemas.violations([run.stdoutBytes]) == [], "rcpt.fuzz-validator/1")
        let groups = (report["groups"] as? [[String: Any]]) ?? []
        #expect(!groups.contains { $0["kind"] as? String != "accepted-what-rcpt-rejects" }, "\(groups)")
        #expect(groups.allSatisfy { $0["concern"] as? String == "robustness" }, "\(groups)")
    }
}
