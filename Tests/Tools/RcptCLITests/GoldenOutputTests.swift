import Foundation
import ReceiptTestSupport
import Testing

/// The CLI's output for a few receipts, byte for byte. Regenerate with RCPT_UPDATE_GOLDEN=1 after a deliberate
/// change, and review the diff.
@Suite("Golden CLI output")
struct GoldenOutputTests {
    static let storeKitRoot = "Corpus/certs/StoreKitTestCertificate.cer"

    static let cases: [(golden: String, arguments: [String])] = [
        ("dump-sandbox.txt", ["dump", "Corpus/receipts/kvitto-sandboxReceipt.receipt"]),
        ("dump-sandbox.json", ["dump", "--format", "json", "Corpus/receipts/kvitto-sandboxReceipt.receipt"]),
        (
            "dump-xcode.txt",
            ["dump", "--root", storeKitRoot, "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt"]
        ),
        (
            "dump-xcode.json",
            [
                "dump", "--root", storeKitRoot, "--format", "json",
                "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt",
            ]
        ),
        ("verify-sandbox.txt", ["verify", "--verbose", "Corpus/receipts/kvitto-sandboxReceipt.receipt"]),
        ("dump-brief-legacy.txt", ["dump", "--brief", "Corpus/receipts/tpinappreceipt-sandbox-legacy.receipt"]),
        (
            "dump-brief-xcode-untrusted.txt",
            [
                "dump", "--brief",
                "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt",
            ]
        ),
        (
            "verify-xcode-untrusted.json",
            [
                "verify", "--format", "json",
                "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt",
            ]
        ),
        ("dump-brief-jws.txt", ["dump", "--brief", "Corpus/jws/"]),
        ("dump-brief-receipts.txt", ["dump", "--brief", "Corpus/receipts/"]),
        (
            "dump-brief-response.txt",
            [
                "dump", "--brief",
                "Tests/Judging/ReceiptVerifyReceiptTests/Pairs/griddiary-production-2017/response.json",
            ]
        ),
        (
            "status-lifecycle.txt",
            [
                "status", "--root", "Corpus/fuzz/keys-jws/root.pem", "--at", "2024-03-01",
                "Corpus/status/",
            ]
        ),
        (
            "status-lifecycle.json",
            [
                "status", "--root", "Corpus/fuzz/keys-jws/root.pem", "--at", "2024-03-01",
                "--format", "json", "Corpus/status/",
            ]
        ),
        (
            "status-real-sandbox.txt",
            [
                "status", "--at", "2022-11-05", "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws",
                "Corpus/jws/gopay-txn-2000000191896422-sandbox.jws",
                "Corpus/jws/gopay-renewal-2000000184445477-sandbox.jws",
            ]
        ),
        ("help.txt", ["--help"]),
        ("help-dump.txt", ["dump", "--help"]),
        ("help-verify.txt", ["verify", "--help"]),
        ("help-status.txt", ["status", "--help"]),
    ]

    @Test(arguments: cases)
    func matchesGoldenOutput(_ golden: String, _ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        // A directory's files that are clearly no document (PROVENANCE.md) and its subdirectories (not read without
        // --recursive) are said on standard error, nothing else.
        #expect(
            result.stderr.split(separator: "\n").allSatisfy {
                $0.hasPrefix("rcpt: skipped ")
                    && ($0.hasSuffix("PROVENANCE.md: its content is clearly not a receipt or a JWS")
                        || $0.hasSuffix(": a subdirectory, not read (--recursive reads it)"))
            },
            "\(result.stderr)")
        CLI.expectGolden(result.stdout, golden)
    }
}

/// Every JWS sample's summary in JSON — each token's `summary` (kind, headline, fields), nested tokens after their
/// carrier — is what the text summary says, byte for byte against a golden.
@Suite("JWS summaries in JSON")
struct JWSSummaryJSONTests {
    @Test func everySampleHasItsSummaryInJSON() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Corpus/jws").path)
            .filter { $0.hasSuffix(".jws") || $0.hasSuffix(".json") }.sorted()
        var out = ""
        for name in names {
            let result = try CLI.run(["dump", "--format", "json", "Corpus/jws/" + name])
            let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
            #expect(document["kind"] as? String == "jws", "\(name)")
            var pending = ((document["tokens"] as? [[String: Any]]) ?? []).reversed().map { $0 }
            while let token = pending.popLast() {
                let summary = try #require(token["summary"] as? [String: Any], "\(name)")
                let fields = (summary["fields"] as? [String: String]) ?? [:]
                out += "\(name) \(token["path"] as? String ?? "?"): \(summary["kind"] as? String ?? "?")\n"
                out += "  \(summary["headline"] as? String ?? "?")\n"
                out += fields.keys.sorted().map { "  \($0) = \(fields[$0] ?? "")\n" }.joined()
                // The claims as an object: a claim is reached by name, no fromjson.
                #expect((token["payload"] as? [String: Any])?["object"] is [String: Any], "\(name)")
                pending += ((token["nested"] as? [[String: Any]]) ?? []).reversed()
            }
        }
        CLI.expectGolden(out, "jws-summaries.txt")
    }
}

@Suite("The receipt object reads like Apple's JSON")
struct ReceiptObjectTests {
    /// Apple's verifyReceipt JSON leaves out a date with no value, so `select(.cancellation_date)` selects refunds
    /// only: the `receipt` object does the same and lists such fields under `empty`, which `rcpt build` reads back.
    @Test(arguments: Fixtures.realReceiptNames)
    func leavesOutEmptyDatesAndListsThem(_ name: String) throws {
        let result = try CLI.run(["dump", "--format", "json", "Corpus/receipts/\(name)"])
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        let receipt = try #require(document["receipt"] as? [String: Any])
        let objects = [receipt] + ((receipt["in_app"] as? [[String: Any]]) ?? [])
        for object in objects {
            for (key, value) in object where key.hasSuffix("_date") || key.hasPrefix("date_") {
                #expect((value as? String) != "", "\(name): \(key) is an empty string")
            }
            for field in (object["empty"] as? [String]) ?? [] {
                #expect(object[field] == nil, "\(name): \(field) is both listed as empty and present")
            }
        }
    }

    @Test func cancellationDateAppearsOnlyOnRefunds() throws {
        let result = try CLI.run(["dump", "--format", "json", "Corpus/receipts/kvitto-sandboxReceipt.receipt"])
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        let records = try #require((document["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])
        #expect(records.count == 6)
        #expect(records.allSatisfy { $0["cancellation_date"] == nil })
        #expect(records.allSatisfy { ($0["empty"] as? [String])?.contains("cancellation_date") == true })
    }
}

@Suite("Subscription findings carry structured fields")
struct FindingFieldTests {
    @Test func subscriptionFindingsNameProductExpiryAndTransaction() throws {
        let result = try CLI.run(["verify", "--format", "json", "Corpus/receipts/kvitto-sandboxReceipt.receipt"])
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let subscription = try #require(findings.first { $0["code"] as? String == "subscription-active" })
        let fields = try #require(subscription["fields"] as? [String: String])
        #expect(fields["product_id"] == "com.cocoanetics.EmmiView.OneMonth")
        #expect(fields["expires_date"] == "2015-05-26T03:06:02Z")
        #expect(fields["transaction_id"] == "1000000156578120")
    }
}
