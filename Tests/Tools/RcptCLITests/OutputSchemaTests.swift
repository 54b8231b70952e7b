import Foundation
import ReceiptTestSupport
import Testing

/// Every `rcpt.*` JSON output validates against its schema in docs/schemas/ (the conformance and fuzz-validator
/// reports are checked where the tests that make them run: AppleVerifierCalibrationTests).
@Suite("Output schemas")
struct OutputSchemaTests {
    static let jwsRoot = "Corpus/fuzz/keys-jws/root.pem"

    @Test func theGoldenOutputsValidate() throws {
        let golden = Fixtures.url("Tests/Tools/RcptCLITests/Golden")
        let files = try FileManager.default.contentsOfDirectory(atPath: golden.path).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 5)
        #expect(try OutputSchemas.violations(files: files.map { golden.appendingPathComponent($0).path }) == [])
    }

    /// dump and verify, as JSON lines over every real receipt and JWS, and as one document of each kind and of
    /// inputs that cannot be read.
    @Test func dumpAndVerifyValidateForEveryKindAndEveryFailure() throws {
        var outputs: [Data] = []
        for command in ["dump", "verify"] {
            for directory in ["Corpus/receipts", "Corpus/jws", "Corpus/status"] {
                let run = try CLI.run([command, "--format", "jsonl", "--recursive", directory])
                #expect(run.stdoutBytes.count > 1000, "\(command) \(directory): \(run)")
                outputs.append(run.stdoutBytes)
            }
            for file in [
                "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt",
                "Corpus/jws/gopay-notif-DID_RENEW-sandbox.jws", "Corpus/jws/imdhemy-notif-TEST-sandbox.json",
                "Corpus/status/06-history.json",
            ] {
                outputs.append(try CLI.run([command, "--format", "json", file]).stdoutBytes)
            }
            for unreadable in [Data(), Data("not a receipt".utf8), Data([0x30, 0x82, 0x10, 0x00, 0x06])] {
                let run = try CLI.run([command, "--format", "json", "-"], stdin: unreadable)
                #expect(run.status == 2)
                outputs.append(run.stdoutBytes)
            }
        }
        #expect(try OutputSchemas.violations(outputs) == [])
    }

    @Test func statusDiffListAndReportValidate() throws {
        var outputs: [Data] = []
        let status = try CLI.run([
            "status", "--format", "json", "--root", Self.jwsRoot, "--at", "2024-03-01", "Corpus/status/",
        ])
        #expect(status.status == 0, "\(status)")
        outputs.append(status.stdoutBytes)
        outputs.append(
            try CLI.run([
                "diff", "--format", "json", "Corpus/receipts/kvitto-receipt.receipt",
                "Corpus/receipts/kvitto-sandboxReceipt.receipt",
            ]).stdoutBytes)
        outputs.append(try CLI.run(["mutate", "--list", "--format", "json"]).stdoutBytes)
        for input in ["Corpus/receipts/kvitto-receipt.receipt", "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws"] {
            let page = try CLI.run(["report", input]).stdout
            let start = try #require(page.range(of: #"<script type="application/json" id="rcpt-data">"#))
            let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
            outputs.append(Data(page[start.upperBound..<end.lowerBound].utf8))
        }
        #expect(try OutputSchemas.violations(outputs) == [])
    }

    /// A suite's manifest.json, of a receipt and of a JWS.
    @Test func suiteManifestsValidate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-schema-suites-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let receiptCA = directory.appendingPathComponent("ca").path
        let jwsCA = directory.appendingPathComponent("jws-ca").path
        #expect(try CLI.run(["ca", "init", receiptCA]).status == 0)
        #expect(try CLI.run(["ca", "init", "--shape", "jws", jwsCA]).status == 0)
        var manifests: [String] = []
        for (input, ca) in [
            ("Corpus/receipts/kvitto-receipt.receipt", receiptCA),
            ("Corpus/jws/gopay-txn-2000000184445477-sandbox.jws", jwsCA),
        ] {
            let suite = directory.appendingPathComponent("suite-\(manifests.count)").path
            let made = try CLI.run(["mutate", input, "--all", "--ca", ca, "--out-dir", suite])
            #expect(made.status == 0, "\(made)")
            manifests.append(suite + "/manifest.json")
        }
        #expect(try OutputSchemas.violations(files: manifests) == [])
    }

    /// The checker is not vacuous: a document that lost a member its schema requires, or names no schema, fails.
    @Test func aDocumentThatBreaksItsSchemaFails() throws {
        let run = try CLI.run(["verify", "--format", "json", "Corpus/receipts/kvitto-receipt.receipt"])
        var document = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        #expect(try OutputSchemas.violations([run.stdoutBytes]) == [])
        document["valid"] = "yes"
        #expect(try !OutputSchemas.violations([try JSONSerialization.data(withJSONObject: document)]).isEmpty)
        document.removeValue(forKey: "schema")
        #expect(try !OutputSchemas.violations([try JSONSerialization.data(withJSONObject: document)]).isEmpty)
    }
}
