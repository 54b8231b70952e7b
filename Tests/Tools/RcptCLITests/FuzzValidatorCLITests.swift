import Foundation
import ReceiptTestSupport
import Testing

/// `rcpt fuzz-validator` against deliberately flawed validators: each flaw is found within a bounded number of
/// inputs, deterministically for a seed, under the right class and finding code.
@Suite("Fuzzing a user's validator")
struct FuzzValidatorCLITests {
    static let device = "0EE7C0DE-0000-4000-8000-00000000BEEF"
    static let seed = "Corpus/receipts/\(Fixtures.sandboxReceipt)"

    /// A TEST-ONLY CA, made once.
    static let ca: String? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-fuzzval-\(UUID().uuidString)")
        let ca = directory.appendingPathComponent("ca").path
        return (try? CLI.run(["ca", "init", ca]))?.status == 0 ? ca : nil
    }()

    static var validators: String { Fixtures.url("Tests/Tools/RcptCLITests/Validators").path }

    /// The report of a campaign of `runs` inputs against `validator`, and the exit status.
    static func campaign(_ validator: String, runs: Int = 240, seed: Int = 1, extra: [String] = [])
        throws -> (status: Int32, report: [String: Any])
    {
        let ca = try #require(Self.ca)
        // A patient timeout unless the test sets one: a loaded machine never turns a verdict into a hang.
        let patience = extra.contains("--timeout") ? [] : ["--timeout", "600"]
        let result = try CLI.run(
            [
                "fuzz-validator", "--ca", ca, "--validator", validator, "--runs", String(runs),
                "--seed", String(seed), "--jobs", "2", "--format", "json",
            ] + patience + extra
                + [Self.seed])
        let report = try #require(
            try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any],
            "\(result)")
        return (result.status, report)
    }

    static func groups(_ report: [String: Any]) -> Set<String> {
        Set(
            ((report["groups"] as? [[String: Any]]) ?? []).compactMap { group in
                guard let kind = group["kind"] as? String, let code = group["code"] as? String else { return nil }
                return kind + "/" + code
            })
    }

    static func rcptVerify(deviceID: Bool = true) throws -> String {
        let ca = try #require(Self.ca)
        return "\(CLI.executable.path) verify --root \(ca)/root.pem --bundle-id com.cocoanetics.EmmiView "
            + "--app-version 246" + (deviceID ? " --device-id \(Self.device)" : "") + " {} >/dev/null"
    }

    @Test func rcptVerifyAgreesWithItself() throws {
        let (status, report) = try Self.campaign(try Self.rcptVerify(), runs: 120)
        #expect(status == 0)
        #expect(report["agreed"] as? Int == 120)
        #expect(Self.groups(report).isEmpty)
    }

    @Test func findsAValidatorThatIgnoresTheDeviceHash() throws {
        let (status, report) = try Self.campaign(try Self.rcptVerify(deviceID: false))
        #expect(status == 1)
        #expect(Self.groups(report) == ["accepted-what-rcpt-rejects/hash-mismatch"])
    }

    @Test func findsAValidatorThatIgnoresTheChain() throws {
        let (status, report) = try Self.campaign(
            "openssl cms -verify -noverify -binary -inform DER -in {} -out /dev/null 2>/dev/null")
        #expect(status == 1)
        let groups = Self.groups(report)
        #expect(groups.contains("accepted-what-rcpt-rejects/chain-invalid"), "\(groups.sorted())")
        // Minimised: every representative is a single edit of the seed (compositions gave way to one edit alone); a
        // payload edit that kept the seed's device hash says so beside it.
        let edits = ((report["groups"] as? [[String: Any]]) ?? []).map {
            (($0["edits"] as? [String]) ?? []).filter { $0 != "hash:seed-device" }.count
        }
        #expect(edits.allSatisfy { $0 == 1 }, "\(edits)")
    }

    @Test func findsAValidatorThatTakesTheLastDuplicateBundleID() throws {
        let ca = try #require(Self.ca)
        let (status, report) = try Self.campaign(
            "python3 \(Self.validators)/duplicate_bundle_id.py last \(CLI.executable.path) \(ca)/root.pem com.cocoanetics.EmmiView {}"
        )
        #expect(status == 1)
        #expect(Self.groups(report).contains("accepted-what-rcpt-rejects/duplicate-attribute"))
    }

    /// A careful server validator, told the root and the bundle id only, fuzzed in the server context: rcpt judges
    /// as a server must (no device, no app version), and no disagreement is a false alarm.
    @Test func aServerCampaignRaisesNoFalseAlarmForACarefulServerValidator() throws {
        let ca = try #require(Self.ca)
        let server = "\(CLI.executable.path) verify --root \(ca)/root.pem --bundle-id com.cocoanetics.EmmiView {}"
        let (status, report) = try Self.campaign(server, runs: 120, extra: ["--context", "server"])
        #expect(status == 0, "\(Self.groups(report))")
        #expect(Self.groups(report).isEmpty)
    }

    @Test func findsAValidatorThatCrashesOnALongLength() throws {
        let ca = try #require(Self.ca)
        let (status, report) = try Self.campaign(
            "sh \(Self.validators)/crash_on_long_length.sh \(CLI.executable.path) \(ca)/root.pem com.cocoanetics.EmmiView 246 \(Self.device) {}"
        )
        #expect(status == 1)
        let kinds = Set(Self.groups(report).map { $0.split(separator: "/")[0] })
        #expect(kinds == ["crashed"])
        let counts = try #require(report["counts"] as? [String: Int])
        #expect((counts["crashed"] ?? 0) > 0)
        // report.json names the signal, and the concern from the catalogue.
        let group = try #require((report["groups"] as? [[String: Any]])?.first)
        #expect((group["validator"] as? [String: Any])?["signal"] as? Int == 11)
        #expect(["security", "policy", "robustness"].contains(group["concern"] as? String ?? ""))
        #expect(["anyone", "replay", "signer"].contains(group["attacker"] as? String ?? ""))
        // The verdict in the report itself, as conformance's: failed, the gate, and which group fails it.
        #expect(report["failed"] as? Bool == true)
        #expect(report["gate"] as? [String] == ["security", "policy"])
        #expect(group["fails"] as? Bool == true && group["note"] is NSNull)
    }

    /// The hang never ends by itself (the fixture sleeps ten minutes), so only the timeout ends it; every other input
    /// is one `rcpt verify`, done in well under a second, so the 20-second timeout is a generous bound around work
    /// that ends by itself, not a measurement: no load makes a verdict on an ordinary input look like a hang.
    @Test func findsAValidatorThatHangsOnDeepNesting() throws {
        let ca = try #require(Self.ca)
        let (status, report) = try Self.campaign(
            "sh \(Self.validators)/hang_on_deep_nesting.sh \(CLI.executable.path) \(ca)/root.pem com.cocoanetics.EmmiView 246 \(Self.device) {}",
            runs: 120, extra: ["--timeout", "20"])
        #expect(status == 1)
        let groups = ((report["groups"] as? [[String: Any]]) ?? [])
        #expect(!groups.isEmpty && groups.allSatisfy { $0["kind"] as? String == "timed-out" })
        #expect(groups.allSatisfy { ($0["edits"] as? [String])?.first?.hasPrefix("payload:nesting") == true })
    }

    /// `--time` holds while the validator hangs: no input is started after it. A validator that hangs on every
    /// campaign input (and takes the baselines, with 15 s to do so on a loaded machine) is killed at each one's
    /// timeout, so at most three start in 30 seconds with one job; a round of four once ran to its end.
    @Test func timeIsHonouredWhileTheValidatorHangs() throws {
        let (status, report) = try Self.campaign(
            "case {} in *input-*) sleep 600;; esac; exit 0", runs: 1000,
            extra: ["--timeout", "15", "--time", "30", "--jobs", "1"])
        #expect(status == 1)
        let runs = try #require(report["runs"] as? Int, "\(report)")
        #expect(runs >= 1 && runs <= 3, "\(runs) inputs started in 30 seconds of 15-second hangs")
        let groups = (report["groups"] as? [[String: Any]]) ?? []
        #expect(!groups.isEmpty && groups.allSatisfy { $0["kind"] as? String == "timed-out" }, "\(groups)")
    }

    @Test func theSameSeedGivesTheSameFindingsAndAllowSilencesAClass() throws {
        let validator = try Self.rcptVerify(deviceID: false)
        let first = try Self.campaign(validator, runs: 100, seed: 7)
        let second = try Self.campaign(validator, runs: 100, seed: 7)
        #expect(first.report["counts"] as? [String: Int] == second.report["counts"] as? [String: Int])
        let files = { (report: [String: Any]) in
            ((report["groups"] as? [[String: Any]]) ?? []).map { $0["edits"] as? [String] }
        }
        #expect(files(first.report) == files(second.report))
        let allowed = try Self.campaign(
            validator, runs: 100, seed: 7, extra: ["--allow", "accepted-what-rcpt-rejects"])
        #expect(allowed.status == 0)
        #expect(allowed.report["failed"] as? Bool == false)
        let groups = (allowed.report["groups"] as? [[String: Any]]) ?? []
        #expect(
            !groups.isEmpty && groups.allSatisfy { $0["fails"] as? Bool == false && $0["note"] as? String == "allowed" }
        )
    }

    /// Findings are written as a suite: conformance replays them, failing the flawed validator and passing rcpt.
    @Test func findingsReplayAsAConformanceSuite() throws {
        let ca = try #require(Self.ca)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-findings-\(UUID().uuidString)")
            .path
        let flawed = try Self.rcptVerify(deviceID: false)
        let run = try CLI.run([
            "fuzz-validator", "--ca", ca, "--validator", flawed, "--runs", "80", "--out-dir", out, Self.seed,
        ])
        #expect(run.status == 1)
        #expect(FileManager.default.fileExists(atPath: out + "/manifest.json"))
        #expect(FileManager.default.fileExists(atPath: out + "/report.json"))
        let replayFlawed = try CLI.run(["conformance", "--validator", flawed, out])
        #expect(replayFlawed.status == 1)
        let replayFixed = try CLI.run(["conformance", "--validator", try Self.rcptVerify(), out])
        #expect(replayFixed.status == 0, "\(replayFixed.stdout)")
    }

    /// A batch validator reads paths on its standard input and answers a verdict per line.
    @Test func batchValidatorsRunOnce() throws {
        let (status, report) = try Self.campaign("while read path; do echo 0; done", runs: 200, extra: ["--batch"])
        #expect(status == 1)  // it accepts everything
        #expect(Self.groups(report).contains("accepted-what-rcpt-rejects/chain-invalid"))
        #expect((report["runs"] as? Int) == 200)
    }

    /// A campaign whose every input rcpt would reject agrees with a validator that rejects everything: a CA of the
    /// wrong shape, or a seed that is no receipt or JWS, is refused before the campaign (exit 2), as `mutate` does.
    @Test func aCampaignWithNoValidBaselineIsRefused() throws {
        let ca = try #require(Self.ca)
        let jwsCA = (ca as NSString).deletingLastPathComponent + "/jws-shaped"
        #expect(try CLI.run(["ca", "init", "--shape", "jws", jwsCA]).status == 0)
        let empty = (ca as NSString).deletingLastPathComponent + "/empty"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for (kit, seed, says) in [
            (jwsCA, Self.seed, "baseline"), (ca, "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws", "EC chain"),
            (ca, "README.md", "not a receipt"), (ca, empty, "empty"),
        ] {
            let extra = seed.hasSuffix(".jws") ? ["--jws-ca", ca] : []
            let result = try CLI.run(
                ["fuzz-validator", "--ca", kit, "--validator", "false {}", "--runs", "5", seed] + extra)
            #expect(result.status == 2, "\(seed): \(result)")
            #expect(result.stderr.contains(says), "\(seed): \(result.stderr)")
        }
    }

    /// JWS seeds need only the JWS CA; a receipt seed asks for --ca (a CI user's trial, session 29: --ca was
    /// required for a campaign of tokens alone).
    @Test func jwsSeedsNeedOnlyTheJWSCA() throws {
        let ca = try #require(Self.ca)
        let jwsCA = (ca as NSString).deletingLastPathComponent + "/jws-only"
        #expect(try CLI.run(["ca", "init", "--shape", "jws", jwsCA]).status == 0)
        let tokens = try CLI.run([
            "fuzz-validator", "--jws-ca", jwsCA, "--validator", "true {}", "--runs", "3", "--timeout", "600",
            "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws",
        ])
        #expect(tokens.status != 2, "\(tokens)")
        #expect(tokens.stderr.contains("--root \(jwsCA)/root.pem"), "\(tokens.stderr)")
        let receipt = try CLI.run([
            "fuzz-validator", "--jws-ca", jwsCA, "--validator", "true {}", "--runs", "3", Self.seed,
        ])
        #expect(receipt.status == 2 && receipt.stderr.contains("--ca DIR"), "\(receipt)")
        let neither = try CLI.run(["fuzz-validator", "--validator", "true {}", "--runs", "3", Self.seed])
        #expect(neither.status == 2 && neither.stderr.contains("--jws-ca DIR"), "\(neither)")
    }

    /// `--out-dir` does not replace a suite already there (a trial's conformance suite was overwritten) unless
    /// `--force`, as `mutate` does; a file there is a usage error, not a raw Foundation error.
    @Test func findingsReplaceASuiteOnlyWithForce() throws {
        let ca = try #require(Self.ca)
        let base = (ca as NSString).deletingLastPathComponent
        let suite = base + "/existing-suite"
        try FileManager.default.createDirectory(atPath: suite, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: suite + "/manifest.json", contents: Data("{}".utf8)))
        let file = base + "/a-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        for (directory, says) in [(suite, "--force"), (file, "is a file")] {
            let result = try CLI.run([
                "fuzz-validator", "--ca", ca, "--validator", "true {}", "--runs", "2", "--out-dir", directory,
                Self.seed,
            ])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains(says), "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: suite + "/manifest.json", encoding: .utf8) == "{}")
        let forced = try CLI.run([
            "fuzz-validator", "--ca", ca, "--validator", "true {}", "--runs", "2", "--timeout", "600", "--out-dir",
            suite, "--force", Self.seed,
        ])
        #expect(forced.status != 2, "\(forced)")
        #expect(try String(contentsOfFile: suite + "/manifest.json", encoding: .utf8) != "{}")
    }
}
