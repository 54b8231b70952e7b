import Foundation
import ReceiptTestSupport
import Testing

/// `--format junit` and `--format sarif` of `conformance`, `fuzz-validator` and a batch `verify` validate against
/// the published schemas vendored in Tests/Schemas (Windy Road's JUnit.xsd, OASIS's SARIF 2.1.0), with Python's
/// xmlschema and jsonschema; and they say what a CI system needs: a case per input, failures with their rule, file
/// and reproduction.
@Suite("JUnit and SARIF reports")
struct ReportSchemaTests {
    /// Validates `document` against a vendored schema; the validator's complaint, or nil when it is valid.
    static func complaint(_ document: Data, junit: Bool) throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-report-\(UUID().uuidString)")
        try document.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script =
            junit
            ? "import sys, xmlschema; xmlschema.XMLSchema(sys.argv[1]).validate(sys.argv[2])"
            : "import sys, json, jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))"
        let schema = Fixtures.url(junit ? "Tests/Schemas/JUnit.xsd" : "Tests/Schemas/sarif-schema-2.1.0.json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schema, file.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : String(decoding: said.suffix(2000), as: UTF8.self)
    }

    static let workspace: (ca: String, suite: String)? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-reports-\(UUID().uuidString)")
        let ca = directory.appendingPathComponent("ca").path
        let suite = directory.appendingPathComponent("suite").path
        guard (try? CLI.run(["ca", "init", ca]))?.status == 0,
            (try? CLI.run([
                "mutate", "Corpus/receipts/\(Fixtures.sandboxReceipt)", "--all", "--ca", ca,
                "--out-dir", suite,
            ]))?.status == 0
        else { return nil }
        return (ca, suite)
    }()

    /// The commands whose reports are checked: a failing conformance run (a validator that ignores the device),
    /// one stopped at its baseline, a fuzz-validator campaign with findings, and a batch verify with valid, invalid
    /// and unreadable files.
    static func runs(_ format: String) throws -> [(String, CLI.Result)] {
        let workspace = try #require(Self.workspace)
        let flawed =
            "\(CLI.executable.path) verify --root \(workspace.ca)/root.pem --bundle-id com.cocoanetics.EmmiView --app-version 246 {} >/dev/null"
        return [
            ("conformance", try CLI.run(["conformance", "--format", format, "--validator", flawed, workspace.suite])),
            (
                "conformance baseline",
                try CLI.run(["conformance", "--format", format, "--validator", "false {}", workspace.suite])
            ),
            (
                "fuzz-validator",
                try CLI.run([
                    "fuzz-validator", "--format", format, "--ca", workspace.ca, "--validator", flawed,
                    "--runs", "40", "--jobs", "2", "Corpus/receipts/\(Fixtures.sandboxReceipt)",
                ])
            ),
            (
                "verify",
                try CLI.run([
                    "verify", "--format", format, "Corpus/receipts/",
                    "Corpus/jws/gopay-txn-510001261072921-production.jws",
                    "Corpus/jws/apple-swift-mock-transactionInfo.jws",
                ])
            ),
        ]
    }

    @Test(arguments: ["junit", "sarif"])
    func reportsValidateAgainstTheirPublishedSchemas(_ format: String) throws {
        for (name, run) in try Self.runs(format) {
            #expect(run.status == 1, "\(name) \(format): \(run)")
            #expect(try Self.complaint(run.stdoutBytes, junit: format == "junit") == nil, "\(name) \(format)")
        }
    }

    @Test func junitHasACasePerEntryAndTheFailuresSayHowToReproduceThem() throws {
        let runs = try Self.runs("junit")
        let conformance = try #require(runs.first { $0.0 == "conformance" }?.1.stdout)
        let cases = conformance.components(separatedBy: "<testcase ").count - 1
        #expect(cases >= 140)
        #expect(
            conformance.contains("<failure message=\"")
                && conformance.contains("type=\"accepted-bad/semantics/security\""))
        #expect(conformance.contains("reproduce: "))
        let verify = try #require(runs.first { $0.0 == "verify" }?.1.stdout)
        #expect(verify.contains("classname=\"rcpt.verify.receipt\""))
        #expect(
            verify.contains("<error message=\"not-a-receipt")
                || verify.contains("<failure message=\"invalid: chain-invalid"))
    }

    @Test func sarifLocatesEachFailureAtItsFile() throws {
        let runs = try Self.runs("sarif")
        let conformance = try #require(runs.first { $0.0 == "conformance" }?.1.stdoutBytes)
        let log = try #require(try JSONSerialization.jsonObject(with: conformance) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        for result in results {
            let uri =
                ((((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?[
                    "artifactLocation"] as? [String: Any])?["uri"] as? String)
            #expect(uri?.hasPrefix("file:///") == true, "\(result)")
            #expect(result["ruleId"] is String)
        }
        let rules = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]]
        #expect(rules?.contains { $0["id"] as? String == "accepted-bad/semantics/security" } == true)
    }
}
