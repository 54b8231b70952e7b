import Foundation
import ReceiptTestSupport
import Testing

/// `rcpt ca init` → `rcpt mutate --all` → `rcpt conformance`, with rcpt's own validator and deliberately naive ones.
@Suite("Mutation suites and conformance runs", .serialized)
struct ConformanceCLITests {
    /// A CA and a suite made from the sandbox receipt, once for the whole suite of tests.
    static let workspace: (directory: URL, bundleID: String)? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-suite-\(UUID().uuidString)")
        guard (try? CLI.run(["ca", "init", directory.appendingPathComponent("ca").path]))?.status == 0,
            (try? CLI.run([
                "mutate", "Corpus/receipts/kvitto-sandboxReceipt.receipt", "--all",
                "--ca", directory.appendingPathComponent("ca").path,
                "--out-dir", directory.appendingPathComponent("suite").path,
            ]))?.status == 0
        else { return nil }
        return (directory, "com.cocoanetics.EmmiView")
    }()

    static func conformance(_ validator: String, _ extra: [String] = [], timeout: String = "30") throws
        -> (status: Int32, report: [String: Any], stderr: String)
    {
        let workspace = try #require(Self.workspace)
        let result = try CLI.run(
            ["conformance", "--format", "json", "--timeout", timeout, "--validator", validator]
                + extra + [workspace.directory.appendingPathComponent("suite").path])
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        return (result.status, report, result.stderr)
    }

    /// A suite named with a trailing slash (as a shell completes it) gives its files' paths once-slashed: the SARIF
    /// URIs code scanning matches against the repository read `suite/x`, never `suite//x`.
    @Test func aTrailingSlashOnTheSuiteIsNoDoubleSlash() throws {
        let workspace = try #require(Self.workspace)
        let suite = workspace.directory.appendingPathComponent("suite").path + "/"
        let result = try CLI.run([
            "conformance", "--only", "security", "--format", "sarif", "--timeout", "600", "--validator", "true {}",
            suite,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("suite/"), "\(result.stdout.prefix(400))")
        #expect(!result.stdout.contains("suite//"), "\(result.stdout.prefix(400))")
    }

    /// The names in one result class of a `rcpt.conformance/2` report.
    static func names(_ report: [String: Any], _ resultClass: String) -> Set<String> {
        Set(((report["classes"] as? [String: Any])?[resultClass] as? [String]) ?? [])
    }

    static var rcptVerify: String {
        "\(CLI.executable.path) verify --root \(Self.root) --bundle-id com.cocoanetics.EmmiView "
            + "--app-version 246 --device-id 0EE7C0DE-0000-4000-8000-00000000BEEF {}"
    }

    static var root: String { (workspace?.directory.appendingPathComponent("ca/root.pem").path) ?? "" }

    @Test func rcptVerifyRejectsEveryBadReceiptAndAcceptsEveryGoodOne() throws {
        let (status, report, _) = try Self.conformance(Self.rcptVerify)
        #expect(status == 0)
        #expect(report["failed"] as? Bool == false)
        #expect(report["passed"] as? Int == report["total"] as? Int)
        #expect((report["total"] as? Int ?? 0) >= 140)
        let scores = try #require(report["scores"] as? [String: [String: Int]])
        #expect(scores["security"]?["passed"] == scores["security"]?["total"])
        #expect((scores["security"]?["total"] ?? 0) >= 50)
        #expect((scores["policy"]?["total"] ?? 0) >= 5)
        #expect((scores["robustness"]?["total"] ?? 0) > 50)
        #expect(report["gate"] as? [String] == ["security", "policy"])
    }

    @Test func verifyAndDumpAgreeOnWhatIsUnreadableForEveryMutation() throws {
        let workspace = try #require(Self.workspace)
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: workspace.directory.appendingPathComponent("suite/manifest.json")))
                as? [String: Any])
        for entry in try #require(manifest["mutations"] as? [[String: Any]]) {
            let name = try #require(entry["name"] as? String)
            let path = workspace.directory.appendingPathComponent("suite/\(try #require(entry["file"] as? String))")
                .path
            let verify = try CLI.run([
                "verify", "--root", Self.root, "--bundle-id", workspace.bundleID,
                "--app-version", "246", "--device-id", "0EE7C0DE-0000-4000-8000-00000000BEEF",
                "--format", "json", path,
            ])
            let dump = try CLI.run(["dump", "--root", Self.root, "--format", "json", path])
            // 2 exactly when the receipt could not be read to its end, whichever layer stopped: dump says the same.
            #expect((verify.status == 2) == (dump.status == 2), "\(name): verify \(verify.status), dump \(dump.status)")
            let report = try #require(try JSONSerialization.jsonObject(with: verify.stdoutBytes) as? [String: Any])
            #expect((verify.status == 2) == !(report["error"] is NSNull || report["error"] == nil), "\(name)")
            if entry["expected"] as? String == "accept" {
                #expect(verify.status == 0, "\(name): \(verify.status)")
            } else {
                #expect([1, 2].contains(verify.status), "\(name): \(verify.status)")
            }
        }
    }

    @Test func countsACrashingValidatorsCrashesAsFailures() throws {
        let script = Fixtures.url("Tests/Tools/RcptCLITests/Validators/crash_on_mutations.sh").path
        let (status, report, _) = try Self.conformance("\(script) {}")
        #expect(status == 1)
        let total = report["total"] as? Int ?? 0
        #expect(Self.names(report, "crashed").count == total - 1)
        #expect(Self.names(report, "passed") == ["baseline"])
        let results = try #require(report["results"] as? [[String: Any]])
        let crashed = try #require(results.first { $0["class"] as? String == "crashed" })
        #expect(crashed["detail"] as? String == "crashed (SIGSEGV)")
        #expect((crashed["stderr"] as? String)?.contains("segmentation fault") == true)
        // The text report says so, and its summary adds up.
        let workspace = try #require(Self.workspace)
        let text = try CLI.run([
            "conformance", "--validator", "\(script) {}",
            workspace.directory.appendingPathComponent("suite").path,
        ])
        #expect(text.status == 1)
        #expect(text.stdout.contains("CRASHED"))
        #expect(text.stdout.contains("| validator: segmentation fault"))
        #expect(
            text.stdout.contains(
                "\(total) runs: 1 passed, \(total - 1) failed (\(total - 1) crashed), 0 over-strict; security 0/"))
    }

    @Test func stopsAtTheBaselineWhenTheValidatorCannotRun() throws {
        let workspace = try #require(Self.workspace)
        let result = try CLI.run([
            "conformance", "--validator", "/nonexistent/validator {}",
            workspace.directory.appendingPathComponent("suite").path,
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("does not accept the valid baseline: could not run (exit 127)"))
        #expect(result.stdout.contains("not found"))
        let rejecting = try CLI.run([
            "conformance", "--validator", "false {}",
            workspace.directory.appendingPathComponent("suite").path,
        ])
        #expect(rejecting.status == 1)
        #expect(rejecting.stdout.contains("does not accept the valid baseline: rejected (exit 1)"))
    }

    @Test func countsAHangAsATimeout() throws {
        let script = Fixtures.url("Tests/Tools/RcptCLITests/Validators/hang_on_nesting.sh").path
        let (status, report, _) = try Self.conformance(
            "\(script) \(CLI.executable.path) \(Self.root) com.cocoanetics.EmmiView {}", timeout: "2")
        #expect(status == 1)
        #expect(Self.names(report, "timed-out") == ["nesting-bomb"])
    }

    @Test func separatesErrorsFromRejectionsWithRejectCodes() throws {
        let (status, report, _) = try Self.conformance(Self.rcptVerify, ["--reject-codes", "1"])
        // rcpt verify exits 2 on unreadable input: with only 1 meaning "rejected", those runs are errors.
        #expect(status == 1)
        #expect(Self.names(report, "errored").contains("length-huge"))
        #expect(Self.names(report, "accepted-bad").isEmpty)
    }

    @Test func runsOnlyOneConcernWhenAsked() throws {
        let (status, report, _) = try Self.conformance(Self.rcptVerify, ["--only", "policy"])
        #expect(status == 0)
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.allSatisfy { $0["concern"] as? String == "policy" || $0["name"] as? String == "baseline" })
        #expect(results.contains { $0["name"] as? String == "receipt-expired" })
        #expect(!results.contains { $0["name"] as? String == "foreign-ca" })
    }

    @Test func verifyTextCannotBeRewrittenByReceiptText() throws {
        let workspace = try #require(Self.workspace)
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: workspace.directory.appendingPathComponent("suite/manifest.json")))
                as? [String: Any])
        let entries = try #require(manifest["mutations"] as? [[String: Any]])
        let file = try #require(
            entries.first { $0["name"] as? String == "bundle-id-terminal-escape" }?["file"] as? String)
        let result = try CLI.run([
            "verify", "--root", Self.root, "--bundle-id", workspace.bundleID,
            workspace.directory.appendingPathComponent("suite/\(file)").path,
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("bundle-id-mismatch"))
        #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{202E}" })
        #expect(result.stdout.contains("\\u{1b}[2K"))
        let dump = try CLI.run([
            "dump", "--root", Self.root, workspace.directory.appendingPathComponent("suite/\(file)").path,
        ])
        #expect(!dump.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{202E}" })
    }

    @Test func manifestDescribesEveryReceiptAndSuggestsTheValidator() throws {
        let workspace = try #require(Self.workspace)
        let data = try Data(contentsOf: workspace.directory.appendingPathComponent("suite/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let mutations = try #require(manifest["mutations"] as? [[String: Any]])
        #expect(mutations.first?["name"] as? String == "baseline")
        for entry in mutations {
            let file = try #require(entry["file"] as? String)
            #expect(
                FileManager.default.fileExists(atPath: workspace.directory.appendingPathComponent("suite/\(file)").path)
            )
            #expect(["accept", "reject"].contains(entry["expected"] as? String))
            #expect(entry["description"] as? String != nil && entry["group"] as? String != nil)
        }
        let expectations = try #require(manifest["expectations"] as? [String: Any])
        #expect(expectations["bundleID"] as? String == "com.cocoanetics.EmmiView")
        let validator = try #require(expectations["validator"] as? String)
        #expect(validator.contains("{}"))
        // Absolute paths: the line works from any directory, with the rcpt that wrote the suite.
        #expect(validator.hasPrefix("/") && validator.contains("verify --root /"), "\(validator)")
        #expect(mutations.allSatisfy { ["security", "policy", "robustness"].contains($0["concern"] as? String) })
        #expect(mutations.allSatisfy { ["anyone", "replay", "signer"].contains($0["attacker"] as? String) })
        #expect(mutations.allSatisfy { !($0["threat"] as? String ?? "").isEmpty })
        // A signer-only shape is robustness; anything else is robustness only with the readers it sets apart.
        #expect(
            mutations.allSatisfy {
                $0["attacker"] as? String != "signer" || $0["concern"] as? String == "robustness"
            })
        #expect(
            mutations.allSatisfy {
                $0["concern"] as? String != "robustness" || $0["attacker"] as? String == "signer"
                    || !($0["readers"] as? String ?? "").isEmpty
            })
    }

    /// A validator that refuses everything an attacker without the key can make, but accepts a shape only the signer
    /// can make (two bundle ids), passes the default gate with the acceptance reported; `--fail-on robustness` fails it.
    @Test func aRobustnessDivergenceIsReportedAndGatedOnlyWhenAsked() throws {
        let lenient = "case {} in *duplicate-bundle-id-last*) exit 0;; esac; " + Self.rcptVerify
        let (status, report, _) = try Self.conformance(lenient, timeout: "600")
        #expect(status == 0)
        #expect(report["failed"] as? Bool == false)
        #expect(Self.names(report, "accepted-bad") == ["duplicate-bundle-id-last"])
        let results = try #require(report["results"] as? [[String: Any]])
        let entry = try #require(results.first { $0["name"] as? String == "duplicate-bundle-id-last" })
        #expect(entry["attacker"] as? String == "signer")
        #expect(entry["concern"] as? String == "robustness")
        #expect(entry["fails"] as? Bool == false)
        #expect((entry["readers"] as? String)?.contains("keeps the first") == true)
        let gated = try Self.conformance(lenient, ["--fail-on", "robustness"], timeout: "600")
        #expect(gated.status == 1)
        #expect(gated.report["gate"] as? [String] == ["security", "policy", "robustness"])
        // The text says what was accepted and that it is not gated; JUnit passes it, SARIF keeps it as a note.
        let workspace = try #require(Self.workspace)
        let suite = workspace.directory.appendingPathComponent("suite").path
        let text = try CLI.run(["conformance", "--timeout", "60", "--validator", lenient, suite])
        #expect(text.status == 0)
        #expect(text.stdout.contains("accepted (robustness)"))
        #expect(text.stdout.contains("1 reported (accepted, not gated)"), "\(text.stdout.suffix(400))")
        #expect(text.stdout.contains("readers:"))
        let junit = try CLI.run(["conformance", "--format", "junit", "--timeout", "60", "--validator", lenient, suite])
        #expect(junit.status == 0)
        #expect(junit.stdout.contains("failures=\"0\""))
        let sarif = try CLI.run(["conformance", "--format", "sarif", "--timeout", "60", "--validator", lenient, suite])
        #expect(sarif.stdout.contains("accepted-bad/structure/robustness"))
        #expect(sarif.stdout.contains("\"note\""))
    }

    /// A security entry accepted fails the gate whatever --fail-on adds.
    @Test func aSecurityDivergenceAlwaysFails() throws {
        let lenient = "case {} in *foreign-ca*) exit 0;; esac; " + Self.rcptVerify
        let (status, report, _) = try Self.conformance(lenient, timeout: "600")
        #expect(status == 1)
        let results = try #require(report["results"] as? [[String: Any]])
        let entry = try #require(results.first { $0["name"] as? String == "foreign-ca" })
        #expect(entry["attacker"] as? String == "anyone")
        #expect(entry["fails"] as? Bool == true)
        #expect(try Self.conformance(lenient, ["--only", "robustness"], timeout: "600").status == 0)
    }

    /// A careful server validator — rcpt verify told only the root and the bundle id, since a server knows neither
    /// the device nor (unless told) the app version — meets no false alarm in the server context: a device suite run
    /// so skips what rests on them, and a server suite never makes them.
    @Test func aCarefulServerValidatorMeetsNoFalseAlarm() throws {
        let workspace = try #require(Self.workspace)
        let server = "\(CLI.executable.path) verify --root \(Self.root) --bundle-id com.cocoanetics.EmmiView {}"
        let asDevice = try Self.conformance(server, timeout: "600")
        #expect(asDevice.status == 1)
        #expect(Self.names(asDevice.report, "accepted-bad").contains("hash-for-other-device"))
        let asServer = try Self.conformance(server, ["--context", "server"], timeout: "600")
        #expect(asServer.status == 0, "\(Self.names(asServer.report, "accepted-bad"))")
        #expect(Self.names(asServer.report, "accepted-bad").isEmpty)
        let run = Set(((asServer.report["results"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
        #expect(
            !run.contains("hash-for-other-device") && !run.contains("wrong-app-version") && run.contains("foreign-ca"))
        // What was not run is named, not dropped silently (a CI user's trial, session 29).
        #expect(asServer.stderr.contains("entries not run") && asServer.stderr.contains("wrong-app-version"))

        let suite = workspace.directory.appendingPathComponent("server-suite").path
        let made = try CLI.run([
            "mutate", "Corpus/receipts/kvitto-sandboxReceipt.receipt", "--all", "--context", "server",
            "--ca", workspace.directory.appendingPathComponent("ca").path, "--out-dir", suite,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: suite + "/manifest.json"))) as? [String: Any])
        let expectations = try #require(manifest["expectations"] as? [String: Any])
        #expect(expectations["context"] as? String == "server")
        let suggested = try #require(expectations["validator"] as? String)
        #expect(!suggested.contains("--device-id") && !suggested.contains("--app-version"), "\(suggested)")
        let skipped = try #require(manifest["skipped"] as? [String: String])
        for name in ["hash-for-other-device", "hash-zero", "wrong-app-version", "app-version-as-integer"] {
            #expect(skipped[name]?.contains("a server validator is not asked") == true, "\(name)")
        }
        for validator in [server, suggested] {
            let result = try CLI.run(["conformance", "--timeout", "600", "--validator", validator, suite])
            #expect(result.status == 0, "\(validator): \(result.stdout.suffix(300))")
        }
    }

    @Test func catchesAValidatorThatOnlyChecksTheBundleID() throws {
        let script = Fixtures.url("Tests/Tools/RcptCLITests/Validators/bundle_only.py").path
        let (status, report, _) = try Self.conformance(
            "python3 \(script) \(CLI.executable.path) com.cocoanetics.EmmiView {}")
        #expect(status == 1)
        let accepted = Self.names(report, "accepted-bad")
        for name in [
            "signature-truncated", "signature-bit-flip", "foreign-ca", "receipt-expired",
            "duplicate-bundle-id-last", "hash-zero",
        ] {
            #expect(accepted.contains(name), "\(name) not flagged")
        }
        #expect(!accepted.contains("other-bundle-id"))
    }

    @Test func catchesAValidatorThatTrustsAnySigner() throws {
        let (status, report, _) = try Self.conformance(
            "openssl cms -verify -noverify -binary -inform DER -in {} -out /dev/null")
        #expect(status == 1)
        let accepted = Self.names(report, "accepted-bad")
        for name in ["foreign-ca", "self-signed-leaf", "leaf-expired-at-creation", "other-bundle-id"] {
            #expect(accepted.contains(name), "\(name) not flagged")
        }
        #expect(!accepted.contains("signature-bit-flip"))
    }

    @Test func catchesAValidatorThatTakesTheFirstDuplicate() throws {
        let script = Fixtures.url("Tests/Tools/RcptCLITests/Validators/duplicate_bundle_id.py").path
        let validator = "python3 \(script) first \(CLI.executable.path) \(Self.root) com.cocoanetics.EmmiView {}"
        let (status, report, _) = try Self.conformance(validator)
        #expect(status == 1)
        let accepted = Self.names(report, "accepted-bad")
        #expect(accepted.contains("duplicate-bundle-id-last"))
        #expect(!accepted.contains("duplicate-bundle-id-first"))
        #expect(!accepted.contains("foreign-ca"))
        // Two bundle ids in one payload: only the signer can make it, so it is reported, not gated.
        let results = try #require(report["results"] as? [[String: Any]])
        let last = try #require(results.first { $0["name"] as? String == "duplicate-bundle-id-last" })
        #expect(last["concern"] as? String == "robustness" && last["fails"] as? Bool == false)
    }

    @Test func mutateNeverOverwritesItsInputAndRefusesToReplaceASuite() throws {
        let workspace = try #require(Self.workspace)
        let ca = workspace.directory.appendingPathComponent("ca").path
        let copy = workspace.directory.appendingPathComponent("input.receipt")
        try Data(Fixtures.realReceipt(Fixtures.sandboxReceipt)).write(to: copy)
        let overwrite = try CLI.run(["mutate", copy.path, "--mutation", "foreign-ca", "--ca", ca, "-o", copy.path])
        #expect(overwrite.status == 2)
        #expect(try Data(contentsOf: copy) == Data(Fixtures.realReceipt(Fixtures.sandboxReceipt)))
        let again = try CLI.run([
            "mutate", copy.path, "--all", "--ca", ca,
            "--out-dir", workspace.directory.appendingPathComponent("suite").path,
        ])
        #expect(again.status == 2)
        #expect(again.stderr.contains("--force"))
    }

    @Test func listsTheCatalogueAsTextAndJSON() throws {
        let text = try CLI.run(["mutate", "--list"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("foreign-ca"))
        let json = try CLI.run(["mutate", "--list", "--format", "json"])
        let listing = try #require(try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        let mutations = try #require(listing["mutations"] as? [[String: Any]])
        #expect(mutations.count >= 40)
        #expect(mutations.allSatisfy { $0["layer"] as? String != nil && $0["expected"] as? String != nil })
        #expect(
            mutations.allSatisfy {
                $0["attacker"] as? String != nil && $0["concern"] as? String != nil && $0["threat"] as? String != nil
            })
        #expect(text.stdout.contains("foreign-ca") && text.stdout.contains("[anyone, security]"))
        // Every name in full, as `--mutation` takes it: a long name was once cut to 38 characters.
        let listed = Set(
            text.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        for case let name? in mutations.map({ $0["name"] as? String }) {
            #expect(listed.contains(name), "\(name) is listed in full")
        }
    }

    /// docs/catalogue.md is the catalogue as `mutate --list --format markdown` writes it: it cannot drift.
    @Test func theCatalogueDocumentIsTheCatalogue() throws {
        let markdown = try CLI.run(["mutate", "--list", "--format", "markdown"])
        #expect(markdown.status == 0)
        let committed = try String(contentsOf: Fixtures.url("docs/catalogue.md"), encoding: .utf8)
        #expect(
            markdown.stdout == committed,
            "docs/catalogue.md is stale: rcpt mutate --list --format markdown > docs/catalogue.md")
        #expect(markdown.stdout.contains("| `foreign-ca` | chain | reject | `chain-invalid` | anyone | security |"))
    }

    @Test func mutateExplainsWhatIsMissing() throws {
        #expect(try CLI.run(["mutate", "Corpus/receipts/kvitto-sandboxReceipt.receipt", "--all"]).status == 2)
        let unknown = try CLI.run([
            "mutate", "Corpus/receipts/kvitto-sandboxReceipt.receipt", "--mutation", "nope",
            "--ca", "x", "-o", "/tmp/x",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--list"))
    }

    /// A mutation of the other kind of document is refused with what it mutates, and nothing is written.
    @Test func aMutationOfTheOtherKindIsRefused() throws {
        let workspace = try #require(Self.workspace)
        let ca = workspace.directory.appendingPathComponent("ca").path
        let output = workspace.directory.appendingPathComponent("other-kind.out").path
        let jwsOnReceipt = try CLI.run([
            "mutate", "Corpus/receipts/kvitto-sandboxReceipt.receipt", "--mutation", "high-s-twin", "--ca", ca,
            "-o", output,
        ])
        #expect(jwsOnReceipt.status == 2)
        #expect(jwsOnReceipt.stderr.contains("not-a-receipt-mutation") || jwsOnReceipt.stderr.contains("mutates JWS"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let receiptOnJWS = try CLI.run([
            "mutate", "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws", "--mutation", "bundle-id-ia5string",
            "--ca", ca, "-o", output,
        ])
        #expect(receiptOnJWS.status == 2)
        #expect(receiptOnJWS.stderr.contains("mutates receipts"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

@Suite("rcpt build from a spec")
struct BuildCLITests {
    @Test func buildsFromADumpWithAnEditAndADeviceHash() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-build-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ca = directory.appendingPathComponent("ca").path
        #expect(try CLI.run(["ca", "init", ca]).status == 0)
        let dump = try CLI.run(["dump", "--format", "json", "Corpus/receipts/kvitto-sandboxReceipt.receipt"])
        var document = try #require(try JSONSerialization.jsonObject(with: dump.stdoutBytes) as? [String: Any])
        var receipt = try #require(document["receipt"] as? [String: Any])
        receipt["bundle_id"] = "com.example.edited"
        document["receipt"] = receipt
        let spec = try JSONSerialization.data(withJSONObject: document)
        let output = directory.appendingPathComponent("built.receipt").path
        let device = "0EE7C0DE-0000-4000-8000-00000000BEEF"
        let build = try CLI.run(
            ["build", "-", "--ca", ca, "-o", output, "--device-id", device, "--layout", "ber"],
            stdin: spec)
        #expect(build.status == 0, "\(build)")
        let verify = try CLI.run([
            "verify", "--root", ca + "/root.pem", "--bundle-id", "com.example.edited",
            "--device-id", device, output,
        ])
        #expect(verify.status == 0, "\(verify.stdout)")
        let other = try CLI.run([
            "verify", "--root", ca + "/root.pem", "--device-id",
            "00000000-0000-0000-0000-000000000000", output,
        ])
        #expect(other.status == 1)
    }

    @Test func rejectsBadSpecsAndMissingCAs() throws {
        let bad = try CLI.run(["build", "-", "--ca", "/nonexistent", "-o", "/tmp/x"], stdin: Data("{}".utf8))
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("ca init"))
        let both = try CLI.run(["build", "spec.json", "--synthetic", "3", "--ca", "x", "-o", "y"])
        #expect(both.status == 2)
    }
}

/// Every CA shape gives a suite that agrees with `rcpt verify`: a StoreKit-shaped CA on an Xcode receipt skips what
/// needs an intermediate (with why), and a validator that trusts StoreKit-signed receipts in any environment fails.
@Suite("Suites of every CA shape")
struct CAShapeSuiteTests {
    @Test func aStoreKitSuiteAgreesWithRcptVerifyAndCatchesTrustInStoreKitEverywhere() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-storekit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ca = directory.appendingPathComponent("ca").path
        let initialised = try CLI.run(["ca", "init", "--shape", "storekit", ca])
        #expect(initialised.status == 0)
        #expect(
            initialised.stderr.contains("a TEST-ONLY storekit CA"), "the shape as --shape spells it: \(initialised)")
        let suite = directory.appendingPathComponent("suite").path
        let made = try CLI.run([
            "mutate", "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt", "--all",
            "--ca", ca, "--out-dir", suite,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: suite + "/manifest.json"))) as? [String: Any])
        let skipped = try #require(manifest["skipped"] as? [String: String])
        #expect(skipped["certificates-missing-intermediate"]?.contains("no intermediate") == true, "\(skipped)")
        #expect(skipped["signer-is-root"] != nil)
        let entries = try #require(manifest["mutations"] as? [[String: Any]])
        let production = try #require(entries.first { $0["name"] as? String == "storekit-signed-production" })
        #expect(production["expected"] as? String == "reject")
        #expect(production["attacker"] as? String == "anyone")
        #expect(entries.contains { $0["name"] as? String == "certificates-over-limit" })
        // The suite's own line passes it whole.
        let validator = try #require((manifest["expectations"] as? [String: Any])?["validator"] as? String)
        let own = try CLI.run(["conformance", "--timeout", "600", "--validator", validator, suite])
        #expect(own.status == 0, "\(own.stdout.suffix(500))")
        // Trusting the StoreKit signer whatever the environment is a security failure.
        let root = ca + "/root.pem"
        let trusting = "openssl cms -verify -binary -inform DER -CAfile \(root) -purpose any -in {} -out /dev/null"
        let run = try CLI.run(["conformance", "--format", "json", "--timeout", "600", "--validator", trusting, suite])
        #expect(run.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        let accepted = ((report["classes"] as? [String: Any])?["accepted-bad"] as? [String]) ?? []
        #expect(accepted.contains("storekit-signed-production"), "\(accepted)")
    }

    /// An Apple-shaped CA on an App Store receipt needs no entry skipped for its shape.
    @Test func anAppleShapedSuiteSkipsNothingForItsShape() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-shape-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ca = directory.appendingPathComponent("ca").path
        #expect(try CLI.run(["ca", "init", ca]).status == 0)
        let suite = directory.appendingPathComponent("suite").path
        #expect(
            try CLI.run([
                "mutate", "Corpus/receipts/kvitto-sandboxReceipt.receipt", "--all", "--ca", ca,
                "--out-dir", suite,
            ]).status == 0)
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: suite + "/manifest.json"))) as? [String: Any])
        let skipped = try #require(manifest["skipped"] as? [String: String])
        #expect(!skipped.values.contains { $0.contains("needs another shape") }, "\(skipped)")
        #expect(skipped["storekit-signed-production"]?.contains("StoreKit-shaped") == true)
    }
}
