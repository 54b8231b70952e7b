import Foundation
import ReceiptTestSupport
import Testing

/// Each position in Apple's documents holds one kind, and a fuzz campaign names a wrong rejection by what made the
/// input, never by a warning that happens to be on it.
@Suite("Token kinds and the causes of wrong rejections")
struct KindConfusionTests {
    static let token = "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws"

    static let ca: String? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-kind-\(UUID().uuidString)")
        guard
            (try? CLI.run(["ca", "init", "--shape", "jws", directory.appendingPathComponent("jws").path]))?.status == 0,
            (try? CLI.run(["ca", "init", directory.appendingPathComponent("receipts").path]))?.status == 0
        else { return nil }
        return directory.path
    }()

    /// A genuine notification put in an API response's signedTransactions (anyone holding one can) is refused there,
    /// as Apple's verifier refuses it, though the same notification as a body is valid.
    @Test func aNotificationWhereATransactionBelongsIsRefused() throws {
        let ca = try #require(Self.ca)
        let file = ca + "/confused.json"
        let made = try CLI.run([
            "mutate", Self.token, "--mutation", "document-notification-as-transaction",
            "--ca", ca + "/jws", "-o", file,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let run = try CLI.run(["verify", "--root", ca + "/jws/root.pem", file])
        #expect(run.status == 1)
        #expect(run.stdout.contains("jws-kind-mismatch"), "\(run.stdout)")
        let body = ca + "/body.json"
        #expect(
            try CLI.run([
                "mutate", Self.token, "--mutation", "notification-nested-valid", "--ca", ca + "/jws",
                "-o", body,
            ]).status == 0)
        #expect(try CLI.run(["verify", "--root", ca + "/jws/root.pem", body]).status == 0)
    }

    /// A validator that refuses tokens missing claims rcpt does not require of every transaction: every group of
    /// such wrong rejections is named by the edit that made it, never by a finding code such as the high-S warning
    /// a re-signed token may carry.
    @Test func aWrongRejectionIsNamedByTheEditThatMadeIt() throws {
        let ca = try #require(Self.ca)
        let script = """
            import base64, json, sys
            text = open(sys.argv[1]).read().strip()
            parts = text.split(".")
            try:
                claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
            except Exception:
                sys.exit(1)
            needed = ["quantity", "type", "expiresDate", "productId"]
            sys.exit(0 if isinstance(claims, dict) and all(name in claims for name in needed) else 1)
            """
        let path = ca + "/needs_environment.py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try CLI.run([
            "fuzz-validator", "--format", "json", "--ca", ca + "/receipts", "--jws-ca", ca + "/jws",
            "--validator", "python3 \(path) {}", "--runs", "120", "--jobs", "2", "--timeout", "600",
            Self.token,
        ])
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        let groups = ((report["groups"] as? [[String: Any]]) ?? []).filter {
            $0["kind"] as? String == "rejected-what-rcpt-accepts"
        }
        #expect(!groups.isEmpty, "\(report["groups"] ?? [])")
        for group in groups {
            let code = group["code"] as? String ?? ""
            #expect(code.hasPrefix("jws-payload:") || code.hasPrefix("jws-catalogue:"), "\(code)")
        }
        #expect(
            groups.contains { ($0["code"] as? String)?.hasPrefix("jws-payload:remove ") == true },
            "\(groups.map { $0["code"] ?? "" })")
    }
}
