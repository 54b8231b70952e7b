import Foundation
import ReceiptDiagnostics
import ReceiptTestSupport
import Testing

/// What a CI gate or a support engineer must never get: a pass for arguments that held nothing to judge, a document
/// skipped in a directory that `verify` refuses when named, an unreadable file without saying why, or a suite whose
/// baseline its own CA cannot make valid.
@Suite("Nothing passes unjudged")
struct NothingPassesUnjudgedTests {
    static let sandbox = "Corpus/receipts/kvitto-sandboxReceipt.receipt"

    static func directory(_ files: [String: [UInt8]]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    static let token = String(
        decoding: Fixtures.bytes("Corpus/jws/gopay-txn-2000000004047119-sandbox.jws"), as: UTF8.self
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)

    @Test(arguments: [
        ["verify"], ["verify", "--format", "junit"], ["verify", "--format", "sarif"],
        ["dump", "--format", "jsonl"], ["status"],
    ])
    func anEmptyDirectoryOrOneOfOtherFilesIsAUsageError(_ command: [String]) throws {
        for files in [[:], ["notes.txt": Array("just some notes\n".utf8), "image.bin": [0xFF, 0xD8, 0xFF, 0xE0]]] {
            let directory = try Self.directory(files)
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try CLI.run(command + [directory.path])
            #expect(result.status == 2, "\(command) on \(files.keys.sorted()): \(result)")
            #expect(result.stderr.contains("no document found"), "\(command): \(result)")
        }
    }

    /// Files a scan once skipped as "not a receipt" although `verify` refuses them when named: two documents in one
    /// form, a token damaged inside. In a directory each is judged as it is alone.
    @Test func aDirectoryJudgesEveryFileThatHoldsADocument() throws {
        let genuine = Data(Fixtures.realReceipt(Fixtures.sandboxReceipt)).base64EncodedString()
        var damaged = Array(Self.token.utf8)
        damaged[40] = UInt8(ascii: "!")
        let files = [
            "form.txt": Array("receipt-data=\(genuine)&receipt-data=AAAA".utf8),
            "token.txt": damaged,
            "random.bin": (0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) },
        ]
        let directory = try Self.directory(files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let batch = try CLI.run(["verify", "--format", "jsonl", directory.path])
        #expect(batch.status == 2, "\(batch)")
        var batchCodes: [String: String] = [:]
        for line in batch.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let file = try #require(object["file"] as? String)
            batchCodes[URL(fileURLWithPath: file).lastPathComponent] =
                (object["error"] as? [String: Any])?["code"] as? String
        }
        #expect(Set(batchCodes.keys) == ["form.txt", "token.txt"], "\(batch.stdout)")
        #expect(batch.stderr.contains("skipped") && batch.stderr.contains("random.bin"))
        for name in ["form.txt", "token.txt"] {
            let alone = try CLI.run(["verify", "--format", "json", directory.appendingPathComponent(name).path])
            #expect(alone.status == 2, "\(name): \(alone)")
            let object = try #require(try JSONSerialization.jsonObject(with: alone.stdoutBytes) as? [String: Any])
            let code = (object["error"] as? [String: Any])?["code"] as? String
            #expect(
                code != nil && code == batchCodes[name],
                "\(name): alone \(String(describing: code)), in the scan \(String(describing: batchCodes[name]))")
        }
        #expect(batchCodes["form.txt"] == ErrorCode.inputAmbiguous.rawValue)
        #expect(batchCodes["token.txt"] == ErrorCode.jwsInvalidBase64URL.rawValue)
    }

    /// A file that cannot be read says why, and a JSON reader still gets a document.
    @Test func aMissingFileSaysSoInEveryFormat() throws {
        let missing = "Corpus/no-such-receipt.receipt"
        for command in ["verify", "dump"] {
            let json = try CLI.run([command, "--format", "json", missing])
            #expect(json.status == 2, "\(command): \(json)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any], "\(command)")
            let error = try #require(object["error"] as? [String: Any])
            #expect(error["code"] as? String == ErrorCode.fileUnreadable.rawValue)
            #expect((error["message"] as? String)?.contains("no such file") == true, "\(error)")
            #expect(object["valid"] as? Bool == false)
            #expect(json.stderr.contains("no such file"))
        }
        let lines = try CLI.run(["verify", "--format", "jsonl", Self.sandbox, missing])
        #expect(lines.status == 2)
        #expect(lines.stdout.contains("no such file"), "\(lines.stdout)")
        let text = try CLI.run(["verify", Self.sandbox, missing])
        #expect(text.stdout.contains("no such file") && text.stderr.contains("no such file"), "\(text)")
        let junit = try CLI.run(["verify", "--format", "junit", Self.sandbox, missing])
        #expect(junit.stdout.contains("no such file"), "\(junit.stdout)")
    }

    /// A CI tab shows what the gate left out: a skipped test case in JUnit, a note in SARIF, with the reason.
    @Test func skippedFilesAreInTheCIReports() throws {
        let directory = try Self.directory([
            "a.receipt": Fixtures.realReceipt(Fixtures.sandboxReceipt),
            "notes.txt": Array("release notes\n".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = try CLI.run(["verify", "--format", "junit", directory.path])
        #expect(junit.status == 0, "\(junit)")
        #expect(junit.stdout.contains(#"tests="2" failures="0" errors="0" skipped="1""#), "\(junit.stdout)")
        #expect(junit.stdout.contains("notes.txt") && junit.stdout.contains("<skipped message=\"skipped: "))
        let sarif = try CLI.run(["verify", "--format", "sarif", directory.path])
        let log = try #require(try JSONSerialization.jsonObject(with: sarif.stdoutBytes) as? [String: Any])
        let runs = try #require(log["runs"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        #expect(results.count == 1)
        #expect(results.first?["level"] as? String == "note")
        #expect((results.first?["properties"] as? [String: Any])?["outcome"] as? String == "skipped")
    }

    @Test func statusReadsOneDocumentFromStandardInput() throws {
        let result = try CLI.run(
            ["status", "--at", "2015-05-25", "-"], stdin: Data(Fixtures.realReceipt(Fixtures.sandboxReceipt)))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("com.cocoanetics.EmmiView.OneMonth"))
        #expect(try CLI.run(["status", "-", "-"], stdin: Data()).status == 2)
        let piped = try CLI.run(
            ["status", "--at", "2015-05-25"], stdin: Data(Fixtures.realReceipt(Fixtures.sandboxReceipt)))
        #expect(piped.status == 0 && piped.stdout == result.stdout, "\(piped)")
    }

    @Test(arguments: [
        ["verify", "--app-apple-id", "abc", sandbox], ["verify", "--bundle-id", "", sandbox],
        ["verify", "--app-version", "", sandbox], ["dump", "--format", "junit", sandbox],
        [
            "ca", "init", "--not-before", "2030-01-01T00:00:00Z", "--not-after", "2020-01-01T00:00:00Z",
            "/tmp/rcpt-never-made",
        ],
    ])
    func optionsThatCannotMeanAnythingAreUsageErrors(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/rcpt-never-made"))
    }

    /// `mutate` and `build` refuse a CA that cannot make the input valid — its key is EC where receipts are RSA,
    /// its shape is StoreKit's on an App Store receipt, or its validity ended before the receipt was signed — and
    /// write nothing; a StoreKit CA on an Xcode receipt is the right one and works.
    @Test func aCAThatCannotMakeAValidBaselineIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-unfit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storekit = directory.appendingPathComponent("storekit").path
        let expired = directory.appendingPathComponent("expired").path
        #expect(try CLI.run(["ca", "init", "--shape", "storekit", storekit]).status == 0)
        #expect(try CLI.run(["ca", "init", "--not-after", "2010-01-01T00:00:00Z", expired]).status == 0)
        for (ca, hint) in [("Corpus/fuzz/keys-jws", "RSA"), (storekit, "Xcode"), (expired, "valid when")] {
            let suite = directory.appendingPathComponent("suite-\(UUID().uuidString)").path
            let all = try CLI.run(["mutate", Self.sandbox, "--all", "--ca", ca, "--out-dir", suite])
            #expect(all.status == 2, "\(ca): \(all)")
            #expect(
                all.stderr.contains("not valid under its own root") && all.stderr.contains(hint), "\(ca): \(all.stderr)"
            )
            #expect(!FileManager.default.fileExists(atPath: suite), "\(ca): a suite was written")
            let one = directory.appendingPathComponent("one.receipt").path
            let single = try CLI.run([
                "mutate", Self.sandbox, "--mutation", "payload-changed-after-signing", "--ca", ca, "-o", one,
            ])
            #expect(single.status == 2, "\(ca): \(single)")
            #expect(!FileManager.default.fileExists(atPath: one))
        }
        let built = try CLI.run([
            "build", "--synthetic", "2", "--ca", "Corpus/fuzz/keys-jws",
            "-o", directory.appendingPathComponent("synthetic.receipt").path,
        ])
        #expect(built.status == 2, "\(built)")
        let xcode = try CLI.run([
            "mutate", "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt", "--all",
            "--ca", storekit, "--out-dir", directory.appendingPathComponent("xcode-suite").path,
        ])
        #expect(xcode.status == 0, "\(xcode)")
        // The same for a JWS: a JWS CA whose validity ended before the token was signed.
        let expiredJWS = directory.appendingPathComponent("expired-jws").path
        #expect(
            try CLI.run(["ca", "init", "--shape", "jws", "--not-after", "2010-01-01T00:00:00Z", expiredJWS]).status == 0
        )
        let token = "Corpus/jws/gopay-txn-2000000004047119-sandbox.jws"
        let jwsSuite = directory.appendingPathComponent("jws-suite").path
        let refused = try CLI.run(["mutate", token, "--all", "--ca", expiredJWS, "--out-dir", jwsSuite])
        #expect(refused.status == 2, "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: jwsSuite))
        let made = try CLI.run(["mutate", token, "--all", "--ca", "Corpus/fuzz/keys-jws", "--out-dir", jwsSuite])
        #expect(made.status == 0, "\(made)")
    }
}
