import Foundation
import ReceiptTestSupport
import Testing

/// `--format verifyreceipt` and `rcpt diff` against a response, as a user runs them.
@Suite("verifyReceipt format on the command line")
struct VerifyReceiptCLITests {
    static let requestDate = ["--request-date", "2026-01-01T00:00:00Z"]

    static func arguments(_ name: String) -> [String] {
        let root = Fixtures.isXcodeReceipt(name) ? ["--root", "Corpus/certs/StoreKitTestCertificate.cer"] : []
        return ["verify", "--format", "verifyreceipt"] + requestDate + root + ["Corpus/receipts/\(name)"]
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every real receipt's response, byte for byte (status 0: each verifies at its creation date).
    @Test(arguments: Fixtures.realReceiptNames)
    func everyRealReceiptMatchesItsGolden(_ name: String) throws {
        let result = try CLI.run(Self.arguments(name))
        #expect(result.status == 0, "\(result)")
        #expect(try Self.object(result.stdoutBytes)["status"] as? Int == 0)
        CLI.expectGolden(result.stdout, "verifyreceipt/\(name).json")
    }

    @Test func dumpPrintsTheSameBodyAsVerifyAndCompactIsTheSameDocument() throws {
        let name = Fixtures.sandboxReceipt
        let verify = try CLI.run(Self.arguments(name))
        let dump = try CLI.run(["dump", "--format", "verifyreceipt"] + Self.requestDate + ["Corpus/receipts/\(name)"])
        #expect(dump.status == 0)
        #expect(dump.stdout == verify.stdout)
        let compact = try CLI.run(Self.arguments(name) + ["--compact"])
        // Apple's bytes: a line break only before a member or element that is an object or array.
        #expect(compact.stdout.hasPrefix("{\n\"receipt\":{\"receipt_type\":\"ProductionSandbox\", \"adam_id\":0, "))
        #expect(
            NSDictionary(dictionary: try Self.object(compact.stdoutBytes))
                .isEqual(to: try Self.object(verify.stdoutBytes)))
    }

    @Test func unreadableInputIsStatus21002AndExit2() throws {
        let result = try CLI.run(["verify", "--format", "verifyreceipt", "-"], stdin: Data("hello".utf8))
        #expect(result.status == 2)
        #expect(result.stdout == "{\n  \"status\": 21002\n}\n")
    }

    @Test func sandboxReceiptUnderProductionIs21007() throws {
        let result = try CLI.run([
            "verify", "--format", "verifyreceipt", "--compact", "--environment", "production",
            "Corpus/receipts/\(Fixtures.sandboxReceipt)",
        ])
        #expect(result.status == 1)
        // Apple's production endpoint, recorded (Pairs/PROVENANCE.md): only the status.
        #expect(result.stdout == "{\"status\":21007}\n")
    }

    @Test func manyReceiptsGiveOneCompactBodyPerLineInInputOrder() throws {
        let names = [Fixtures.sandboxReceipt, "tpinappreceipt-production.receipt"]
        let result = try CLI.run(
            ["verify", "--format", "verifyreceipt"] + Self.requestDate
                + names.map { "Corpus/receipts/\($0)" })
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let environments = try lines.map { try Self.object(Data($0.utf8))["environment"] as? String }
        #expect(environments == ["Sandbox", "Production"])
    }

    /// With --compact, many receipts give Apple's own spacing (`", "`), one body per line without its inner line
    /// breaks, as the README says.
    @Test func manyReceiptsWithCompactKeepApplesSeparators() throws {
        let names = [Fixtures.sandboxReceipt, "tpinappreceipt-production.receipt"]
        let result = try CLI.run(
            ["verify", "--format", "verifyreceipt", "--compact"] + Self.requestDate
                + names.map { "Corpus/receipts/\($0)" })
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stdout.prefix(300))")
        for line in lines {
            #expect(line.hasPrefix(#"{"receipt":{"receipt_type":"#), "\(line.prefix(80))")
            #expect(line.contains(#"", "status":0, "environment":""#) || line.contains(#"}, "status":0, "#))
            _ = try Self.object(Data(line.utf8))
        }
    }

    /// The README's jq example reads the same paths from Apple's shape and ours.
    @Test func readmePathsReadTheResponse() throws {
        let result = try CLI.run(Self.arguments("tpinappreceipt-production.receipt"))
        let document = try Self.object(result.stdoutBytes)
        let receipt = try #require(document["receipt"] as? [String: Any])
        let inApp = try #require(receipt["in_app"] as? [[String: Any]])
        #expect(document["status"] as? Int == 0)
        #expect(receipt["bundle_id"] as? String == "org.getpure.pure-iphone")
        #expect(inApp.compactMap { $0["expires_date_ms"] as? String }.count == 4)
    }

    @Test func diffOfAResponseWithItsOwnReceiptIsEqual() throws {
        let name = "revenuecat-receiptsample1.receipt"
        let response = try CLI.run(Self.arguments(name))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-response-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try response.stdoutBytes.write(to: file)
        let equal = try CLI.run(["diff", file.path, "Corpus/receipts/\(name)"])
        #expect(equal.status == 0, "\(equal.stdout)")
        #expect(equal.stdout.contains("equal"))
    }

    @Test func diffNamesWhatAppleSaidThatTheReceiptDoesNotHold() throws {
        let name = "revenuecat-receiptsample1.receipt"
        var document = try Self.object(try CLI.run(Self.arguments(name)).stdoutBytes)
        var receipt = try #require(document["receipt"] as? [String: Any])
        receipt["bundle_id"] = "com.example.other"
        receipt["request_date_ms"] = "1"  // not compared: the time of the request
        document["receipt"] = receipt
        document["latest_receipt_info"] = [[String: Any]]()  // not compared: server state
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-response-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: document).write(to: file)
        let result = try CLI.run(["diff", "--format", "json", file.path, "Corpus/receipts/\(name)"])
        #expect(result.status == 1)
        let diff = try Self.object(result.stdoutBytes)
        let changes = try #require(diff["changes"] as? [[String: Any]])
        #expect(changes.compactMap { $0["path"] as? String } == ["response.receipt.bundle_id"])
    }
}
