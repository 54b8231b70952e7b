import Foundation
import ReceiptTestSupport
import Testing

/// The CI gate cannot turn green on a validator that does not work: one that rejects everything, exits 3, dies of
/// an uncaught exception in Python, Node.js or Go, hangs, or is missing. Each is classified right by `conformance`
/// over a mutation suite and over a findings folder, and by `fuzz-validator`, and each fails every gate.
@Suite("A gate that a broken validator cannot pass")
struct GateTests {
    static let device = "0EE7C0DE-0000-4000-8000-00000000BEEF"
    /// Seconds each validator run may take in tests that are not about timeouts: far above what any takes (tens of
    /// milliseconds), so a loaded machine never turns a verdict or a crash into a timeout.
    static let patience = "600"

    /// A CA, a mutation suite and a findings folder (written by fuzz-validator against a validator that ignores the
    /// device), once.
    static let workspace: (ca: String, suite: String, findings: String)? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-gate-\(UUID().uuidString)")
        let ca = directory.appendingPathComponent("ca").path
        let suite = directory.appendingPathComponent("suite").path
        let findings = directory.appendingPathComponent("findings").path
        let seed = "Corpus/receipts/\(Fixtures.sandboxReceipt)"
        guard (try? CLI.run(["ca", "init", ca]))?.status == 0,
            (try? CLI.run(["mutate", seed, "--all", "--ca", ca, "--out-dir", suite]))?.status == 0
        else { return nil }
        let flawed =
            "\(CLI.executable.path) verify --root \(ca)/root.pem --bundle-id com.cocoanetics.EmmiView --app-version 246 {} >/dev/null"
        guard
            (try? CLI.run([
                "fuzz-validator", "--ca", ca, "--validator", flawed, "--runs", "60", "--jobs", "2",
                "--out-dir", findings, seed,
            ]))?.status == 1
        else { return nil }
        return (ca, suite, findings)
    }()

    static var validators: String { Fixtures.url("Tests/Tools/RcptCLITests/Validators").path }

    /// (name, command, the class of the first result, the outcome label).
    static let broken: [(String, String, String, String)] = [
        ("false", "false {}", "baseline-rejected", "rejected"),
        ("exit 3", "sh -c 'exit 3' {}", "baseline-rejected", "rejected"),
        ("Python traceback", "python3 -c 'import sys; raise RuntimeError(sys.argv[1])' {}", "crashed", "crashed"),
        ("Node.js exception", "sh \(validators)/crash_like.sh node {}", "crashed", "crashed"),
        ("Go panic", "sh \(validators)/crash_like.sh go {}", "crashed", "crashed"),
        ("hanging", "sleep 600; true {}", "timed-out", "timed out"),
        ("missing", "/nonexistent/validator {}", "could-not-run", "could not run"),
    ]

    @Test(arguments: broken.map(\.0))
    func aBrokenValidatorFailsEveryGate(_ name: String) throws {
        let workspace = try #require(Self.workspace)
        let (_, command, resultClass, outcome) = try #require(Self.broken.first { $0.0 == name })
        // The hang ends only by the timeout: 3 s is all it gets (it would sleep ten minutes).
        let timeout = name == "hanging" ? "3" : "30"
        for folder in [workspace.suite, workspace.findings] {
            let run = try CLI.run([
                "conformance", "--format", "json", "--timeout", timeout, "--validator", command, folder,
            ])
            #expect(run.status == 1, "\(name) on \(folder): \(run)")
            let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
            #expect(report["failed"] as? Bool == true)
            let first = try #require((report["results"] as? [[String: Any]])?.first)
            #expect(first["class"] as? String == resultClass, "\(name): \(first)")
            #expect(first["group"] as? String == "baseline")
            #expect((first["command"] as? String)?.contains(folder) == true)
        }
        let fuzz = try CLI.run([
            "fuzz-validator", "--ca", workspace.ca, "--validator", command, "--timeout", timeout,
            "--runs", "20", "--format", "json", "Corpus/receipts/\(Fixtures.sandboxReceipt)",
        ])
        #expect(fuzz.status == 1, "\(name): \(fuzz)")
        let report = try #require(try JSONSerialization.jsonObject(with: fuzz.stdoutBytes) as? [String: Any])
        #expect(report["refused"] as? Bool == true)
        #expect(report["runs"] as? Int == 0)
        let baseline = try #require((report["baselines"] as? [[String: Any]])?.first)
        #expect((baseline["validator"] as? [String: Any])?["outcome"] as? String == outcome, "\(name): \(baseline)")
        // Nothing was written: no file is named.
        #expect(baseline["file"] is NSNull)
        let text = try CLI.run([
            "fuzz-validator", "--ca", workspace.ca, "--validator", command, "--timeout", timeout,
            "--runs", "20", "Corpus/receipts/\(Fixtures.sandboxReceipt)",
        ])
        #expect(text.stdout.hasPrefix("the validator does not accept the seed"), "\(name): \(text.stdout)")
    }

    @Test func aValidatorThatCrashesOnBadInputIsNotRejectingIt() throws {
        let workspace = try #require(Self.workspace)
        // rcpt verify, but a Python traceback instead of a clean rejection.
        let command =
            "\(CLI.executable.path) verify --root \(workspace.ca)/root.pem --bundle-id com.cocoanetics.EmmiView "
            + "--app-version 246 --device-id \(Self.device) {} >/dev/null || python3 -c 'raise ValueError(\"bad receipt\")'"
        let run = try CLI.run([
            "conformance", "--format", "json", "--timeout", GateTests.patience, "--validator", command,
            workspace.suite,
        ])
        #expect(run.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        let crashed = ((report["classes"] as? [String: Any])?["crashed"] as? [String]) ?? []
        #expect(crashed.count > 50)
        #expect(((report["classes"] as? [String: Any])?["passed"] as? [String])?.contains("baseline") == true)
        // Saying that 3 means "rejected" leaves a traceback with exit 1 a crash (`rejectCodesDecideALoggedException`:
        // a status the codes list is a rejection).
        let declared = try CLI.run([
            "conformance", "--format", "json", "--timeout", GateTests.patience, "--reject-codes", "3",
            "--validator", command, workspace.suite,
        ])
        #expect(declared.status == 1, "\(declared.stdout.suffix(400))")
        let declaredReport = try #require(
            try JSONSerialization.jsonObject(with: declared.stdoutBytes) as? [String: Any])
        #expect((((declaredReport["classes"] as? [String: Any])?["crashed"] as? [String]) ?? []).count == crashed.count)
    }

    @Test func aFolderWithoutABaselineIsRefused() throws {
        let workspace = try #require(Self.workspace)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-gate-copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(atPath: workspace.findings, toPath: copy.path)
        let manifestURL = copy.appendingPathComponent("manifest.json")
        var manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        let entries = try #require(manifest["mutations"] as? [[String: Any]])
        #expect(entries.first?["group"] as? String == "baseline")
        manifest["mutations"] = entries.filter { $0["group"] as? String != "baseline" }
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        let run = try CLI.run(["conformance", "--validator", "false {}", copy.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("no must-accept baseline"))
    }

    @Test func jobsAndBatchGiveTheSameResultsInTheSameOrder() throws {
        let workspace = try #require(Self.workspace)
        let verify =
            "\(CLI.executable.path) verify --root \(workspace.ca)/root.pem --bundle-id com.cocoanetics.EmmiView --app-version 246 --device-id \(Self.device)"
        func results(_ extra: [String], _ command: String) throws -> [String] {
            let run = try CLI.run(
                ["conformance", "--format", "json", "--timeout", GateTests.patience, "--validator", command]
                    + extra + [workspace.suite])
            #expect(run.status == 0, "\(extra): \(run.stdout.suffix(300))")
            let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
            return ((report["results"] as? [[String: Any]]) ?? []).map { "\($0["name"] ?? "") \($0["class"] ?? "")" }
        }
        let serial = try results(["--jobs", "1"], verify + " {} >/dev/null")
        #expect(serial.count >= 140)
        #expect(try results(["--jobs", "3"], verify + " {} >/dev/null") == serial)
        let batch = "while read -r path; do if \(verify) \"$path\" >/dev/null 2>&1; then echo 0; else echo 1; fi; done"
        #expect(try results(["--batch"], batch) == serial)
    }
}

/// What a CI engineer trying the gate ran into: crashes in --batch, regression files gone missing, reproduction of a
/// batch verify, corrupted receipts in a directory, SARIF that code scanning accepts.
@Suite("The gate, tried by a CI engineer")
struct GateTrialTests {
    static var workspace: (ca: String, suite: String, findings: String)? { GateTests.workspace }

    @Test func aBatchValidatorThatDiesIsACrashNotAnError() throws {
        let workspace = try #require(Self.workspace)
        let verify =
            "\(CLI.executable.path) verify --root \(workspace.ca)/root.pem --bundle-id com.cocoanetics.EmmiView --app-version 246 --device-id \(GateTests.device)"
        for (death, expected) in [
            ("kill -SEGV $$", "crashed (SIGSEGV)"),
            ("python3 -c 'raise KeyError(\"tag\")'; exit 1", "crashed (Python traceback, exit 1)"),
        ] {
            // Verdicts by rcpt verify, but the quantity type changes kill it.
            let batch =
                "while read -r path; do case \"$path\" in *quantity-as-*) \(death);; esac; "
                + "if \(verify) \"$path\" >/dev/null 2>&1; then echo 0; else echo 1; fi; done"
            let run = try CLI.run([
                "conformance", "--format", "json", "--batch", "--timeout", GateTests.patience,
                "--validator", batch, workspace.suite,
            ])
            #expect(run.status == 1)
            let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
            let results = (report["results"] as? [[String: Any]]) ?? []
            let quantity = results.filter { ($0["name"] as? String)?.hasPrefix("quantity-as-") == true }
            #expect(quantity.count == 3)
            #expect(
                quantity.allSatisfy { $0["class"] as? String == "crashed" && $0["detail"] as? String == expected },
                "\(quantity.map { $0["detail"] ?? "" })")
            #expect(results.filter { $0["class"] as? String == "crashed" }.count == 3)
        }
    }

    /// An uncaught exception's report makes a non-zero exit a crash, unless `--reject-codes` lists the status: a
    /// validator that logs the exception it handled and exits 1 was called crashed on 35 correct rejections of Apple's
    /// library (a CI user's trial, session 29). A validator whose rejections have a status of their own keeps its
    /// crashes apart.
    @Test(arguments: [("1", "rejected", "rejected (exit 1)"), ("3", "crashed", "crashed (Python traceback, exit 1")])
    func rejectCodesDecideALoggedException(_ codes: String, _ expectedClass: String, _ detail: String) throws {
        let workspace = try #require(Self.workspace)
        let verify =
            "\(CLI.executable.path) verify --root \(workspace.ca)/root.pem --bundle-id com.cocoanetics.EmmiView --app-version 246 --device-id \(GateTests.device)"
        // Its own rejections exit with the status --reject-codes names; the signature entries exit 1 after a traceback.
        let validator =
            "case {} in *signature-*) python3 -c 'raise KeyError(\"tag\")'; exit 1;; esac; \(verify) {} >/dev/null 2>&1 || exit \(codes)"
        let run = try CLI.run([
            "conformance", "--format", "json", "--reject-codes", codes, "--timeout", GateTests.patience,
            "--validator", validator, workspace.suite,
        ])
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        let results = (report["results"] as? [[String: Any]]) ?? []
        let raised = results.filter { ($0["name"] as? String)?.contains("signature-") == true }
        #expect(raised.count >= 5)
        // A rejection of a must-reject entry passes (and of a must-accept one is over-strict); a crash is a crash.
        #expect(
            raised.allSatisfy {
                ($0["class"] as? String == "crashed") == (expectedClass == "crashed")
                    && ($0["detail"] as? String)?.hasPrefix(detail) == true
            },
            "\(raised.map { $0["detail"] ?? "" })")
        // A crash fails the run; the same exits as rejections of what must be rejected pass it.
        #expect(run.status == (expectedClass == "crashed" ? 1 : 0), "\(run.stderr)")
    }

    /// A batch validator that writes a banner before its verdicts gives no verdict: its baseline run errored, and the
    /// report quotes the line, instead of calling the banner a rejection.
    @Test func aBatchLineThatIsNoVerdictIsQuoted() throws {
        let workspace = try #require(Self.workspace)
        let run = try CLI.run([
            "conformance", "--batch", "--timeout", GateTests.patience,
            "--validator", "echo 'validator v2 ready'; while read -r p; do echo 0; done", workspace.suite,
        ])
        #expect(run.status == 1)
        #expect(run.stdout.contains("errored (answered \"validator v2 ready\", not a verdict)"), "\(run.stdout)")
        #expect(!run.stdout.contains("rejected (exit 1)"))
    }

    @Test func aFolderWhoseFilesAreMissingOrElsewhereIsRefused() throws {
        let workspace = try #require(Self.workspace)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-gate-missing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(atPath: workspace.findings, toPath: copy.path)
        let manifestURL = copy.appendingPathComponent("manifest.json")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        let entries = try #require(manifest["mutations"] as? [[String: Any]])
        let regression = try #require(entries.first { $0["group"] as? String != "baseline" }?["file"] as? String)
        try FileManager.default.removeItem(at: copy.appendingPathComponent(regression))
        let missing = try CLI.run(["conformance", "--validator", "true {}", copy.path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains(regression))
        var outside = manifest
        outside["mutations"] = entries.map { entry -> [String: Any] in
            var entry = entry
            if entry["group"] as? String != "baseline" { entry["file"] = "../../../etc/hostname" }
            return entry
        }
        try JSONSerialization.data(withJSONObject: outside).write(to: manifestURL)
        let escaped = try CLI.run(["conformance", "--validator", "true {}", copy.path])
        #expect(escaped.status == 2)
        #expect(escaped.stderr.contains("not a file in the folder"))
    }

    @Test func aBatchVerifyReportSaysHowToReproduceEachFileWithTheSameOptions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-gate-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            at: Fixtures.url("Corpus/receipts/\(Fixtures.sandboxReceipt)"),
            to: directory.appendingPathComponent("odd name.receipt"))
        // Random bytes named as a receipt are judged (unreadable), never skipped as not a receipt.
        try Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }).write(
            to: directory.appendingPathComponent("corrupt.receipt"))
        let run = try CLI.run(["verify", "--format", "junit", "--bundle-id", "com.wrong.app", directory.path])
        #expect(run.status == 2)
        #expect(run.stdout.contains("tests=\"2\""))
        #expect(
            run.stdout.contains(
                "reproduce: rcpt verify --bundle-id com.wrong.app '\(directory.path)/odd name.receipt'"),
            "\(run.stdout)")
        #expect(run.stdout.contains("<error message=\""))
    }

    @Test func sarifOfACampaignWithoutItsFindingsStillLocatesEachResult() throws {
        let workspace = try #require(Self.workspace)
        let flawed =
            "\(CLI.executable.path) verify --root \(workspace.ca)/root.pem --bundle-id com.cocoanetics.EmmiView --app-version 246 {} >/dev/null"
        let run = try CLI.run([
            "fuzz-validator", "--format", "sarif", "--ca", workspace.ca, "--validator", flawed,
            "--runs", "40", "--jobs", "2", "Corpus/receipts/\(Fixtures.sandboxReceipt)",
        ])
        #expect(run.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        #expect(results.allSatisfy { ($0["locations"] as? [Any])?.isEmpty == false })
    }

    @Test func batchRefusesAPlaceholderItNeverFills() throws {
        let workspace = try #require(Self.workspace)
        let run = try CLI.run(["conformance", "--batch", "--validator", "my-validator {}", workspace.suite])
        #expect(run.status == 2)
        #expect(run.stderr.contains("leave {} out"))
    }

    /// Statuses rcpt reads otherwise cannot mean "rejected", and batch verdicts are lines (a red team's trial,
    /// session 39: `--reject-codes 130` was taken and its status reported as SIGINT; with `--batch` it was ignored).
    @Test(arguments: [["--reject-codes", "130"], ["--reject-codes", "1,127"], ["--batch", "--reject-codes", "1"]])
    func rejectCodesRcptCannotHonourAreUsageErrors(_ options: [String]) throws {
        let workspace = try #require(Self.workspace)
        let validator = options.contains("--batch") ? "my-validator" : "my-validator {}"
        let run = try CLI.run(["conformance"] + options + ["--validator", validator, workspace.suite])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--reject-codes"), "\(run.stderr)")
    }
}
