import Foundation
import ReceiptTestSupport
import Testing

/// JWS on the command line: dump, verify, diff, build and mutate as a user runs them, and a JWS conformance run that
/// catches a naive validator.
@Suite("JWS on the command line")
struct JWSCLITests {
    static let transaction = "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws"
    static let notification = "Corpus/jws/gopay-notif-CONSUMPTION_REQUEST-production.jws"

    /// A TEST-ONLY jws CA and a suite of every JWS mutation of a real transaction, made once.
    static let workspace: URL? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-jws-\(UUID().uuidString)")
        let ca = directory.appendingPathComponent("ca").path
        guard (try? CLI.run(["ca", "init", "--shape", "jws", ca]))?.status == 0,
            (try? CLI.run([
                "mutate", transaction, "--all", "--ca", ca,
                "--out-dir", directory.appendingPathComponent("suite").path,
            ]))?.status == 0
        else { return nil }
        return directory
    }()

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// `dump` and `verify` give every JWS mutation one judgement: the dump's `valid`, the verdict's `valid` and
    /// verify's exit code agree, and the verdict is the one the catalogue expects.
    @Test func dumpAndVerifyAgreeOnEveryMutation() throws {
        let workspace = try #require(Self.workspace)
        let suite = workspace.appendingPathComponent("suite")
        let root = workspace.appendingPathComponent("ca/root.pem").path
        let manifest = try Self.object(try Data(contentsOf: suite.appendingPathComponent("manifest.json")))
        let mutations = try #require(manifest["mutations"] as? [[String: Any]])
        let bundle = try #require((manifest["expectations"] as? [String: Any])?["bundleID"] as? String)
        let environment = try #require((manifest["expectations"] as? [String: Any])?["environment"] as? String)
        #expect(mutations.count >= 80)
        // The document's own "valid": the dump's last member, the verdict's first (read as text: claims may hold
        // numbers Foundation cannot read, as 1e400).
        func valid(_ output: String, last: Bool = false) -> Bool? {
            let pieces = output.components(separatedBy: "\"valid\"").dropFirst()
            guard let piece = last ? pieces.last : pieces.first else { return nil }
            let value = piece.drop { $0 == " " || $0 == ":" }
            return value.hasPrefix("true") ? true : value.hasPrefix("false") ? false : nil
        }
        for mutation in mutations {
            let file = suite.appendingPathComponent(try #require(mutation["file"] as? String)).path
            // dump takes no expectations: it and verify without them give one judgement.
            let plain = try CLI.run(["verify", "--root", root, "--format", "json", file])
            let dump = try CLI.run(["dump", "--root", root, "--format", "json", file])
            #expect(
                valid(plain.stdout) == valid(dump.stdout, last: true) && valid(plain.stdout) != nil,
                "\(file): verify \(String(describing: valid(plain.stdout))), dump \(String(describing: valid(dump.stdout, last: true)))"
            )
            // With the suite's expectations, verify's verdict is the catalogue's, and its exit code says it.
            let verify = try CLI.run([
                "verify", "--root", root, "--bundle-id", bundle, "--environment", environment, "--format", "json", file,
            ])
            let verdict = valid(verify.stdout)
            #expect((verify.status == 0) == (verdict == true), "\(file): exit \(verify.status)")
            let expected = mutation["expected"] as? String
            if expected == "accept" { #expect(verdict == true, "\(file) should be valid") }
            if expected == "reject" { #expect(verdict != true, "\(file) should not be valid") }
        }
    }

    /// A suite made from an Xcode document says that Apple's libraries skip the signature of Xcode documents, so a
    /// validator built on them accepts its signature entries (a CI user's trial, session 29: 17 "security failures").
    @Test func anXcodeSeedsSuiteSaysItsSignatureIsNotChecked() throws {
        let directory = try #require(Self.workspace)
        let suite = directory.appendingPathComponent("xcode-suite").path
        let made = try CLI.run([
            "mutate", "Corpus/jws/apple-swift-xcode-xcode-signed-transaction.jws", "--all", "--ca",
            directory.appendingPathComponent("ca").path, "--out-dir", suite,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("do not verify the signature of Xcode documents"), "\(made.stderr)")
    }

    @Test func verifyExitCodesFollowTheVerdict() throws {
        #expect(try CLI.run(["verify", Self.transaction]).status == 0)
        #expect(try CLI.run(["verify", "--at", "now", Self.transaction]).status == 1)
        #expect(try CLI.run(["verify", "--bundle-id", "com.example.other", Self.transaction]).status == 1)
        #expect(
            try CLI.run([
                "verify", "--bundle-id", "Com.VoiceRecording.Telephone", "--environment", "Sandbox",
                Self.transaction,
            ]).status == 0)
        let unreadable = try CLI.run(
            ["verify", "--input-format", "jws", "-"], stdin: Data("eyJhbGciOiJub25lIn0.e30".utf8))
        #expect(unreadable.status == 2)
        #expect(try CLI.run(["verify", "--input-format", "jws", "-"], stdin: Data()).status == 2)
    }

    /// A directory of JWS (and receipts beside them) is verified and dumped a line per file, as receipts are.
    @Test func directoriesAndJSONLinesTakeJWS() throws {
        let verify = try CLI.run([
            "verify", "--format", "jsonl", "Corpus/jws", "Corpus/receipts/\(Fixtures.sandboxReceipt)",
        ])
        #expect(verify.status == 1)  // the test-vector and Xcode samples need their own roots
        let lines = verify.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.count == 19)
        #expect(lines.filter { $0["kind"] as? String == "jws" }.count == 18)
        #expect(lines.filter { $0["kind"] as? String == "jws" && $0["valid"] as? Bool == true }.count == 11)
        #expect(verify.stderr.contains("failed Corpus/jws/apple-swift-mock-transactionInfo.jws: chain-invalid"))
        let dump = try CLI.run(["dump", "--format", "jsonl", "Corpus/jws"])
        #expect(dump.status == 0)
        #expect(dump.stdout.split(separator: "\n").count == 18)
    }

    /// A token cut before its dots (a truncated paste) is named as a JWS with too few parts, not "not a receipt".
    @Test func aTruncatedTokenIsNamedAsAJWS() throws {
        let token = try String(contentsOf: Fixtures.url(Self.transaction), encoding: .utf8)
        let result = try CLI.run(["verify", "-"], stdin: Data(token.prefix(2000).utf8))
        #expect(result.status == 2)
        #expect(result.stdout.contains("jws-part-count") || result.stdout.contains("three parts"), "\(result.stdout)")
    }

    @Test func aTokenPastedWithQuotesAndWhiteSpaceIsRead() throws {
        let token = try String(contentsOf: Fixtures.url(Self.transaction), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try CLI.run(["verify", "-"], stdin: Data("  \"\(token)\"\n".utf8))
        #expect(result.status == 0, "\(result)")
    }

    @Test func dumpJSONIsTheJWSVariantOfTheDumpSchema() throws {
        let result = try CLI.run(["dump", "--format", "json", Self.notification])
        #expect(result.status == 0)
        let document = try Self.object(result.stdoutBytes)
        #expect(document["schema"] as? String == "rcpt.dump/1")
        #expect(document["kind"] as? String == "jws")
        #expect(document["valid"] as? Bool == true)
        let token = try #require((document["tokens"] as? [[String: Any]])?.first)
        let header = try #require(token["header"] as? [String: Any])
        #expect(header["alg"] as? String == "ES256")
        #expect((header["x5c"] as? [[String: Any]])?.count == 3)
        let claims = try #require((token["payload"] as? [String: Any])?["claims"] as? [[String: Any]])
        let signedDate = try #require(claims.first { $0["path"] as? String == "signedDate" })
        #expect(signedDate["type"] as? String == "number")
        #expect(signedDate["utc"] as? String == "2023-06-28T08:38:32.560Z")
        let nested = try #require(token["nested"] as? [[String: Any]])
        #expect(nested.map { $0["path"] as? String } == ["data.signedTransactionInfo"])
        #expect(nested.first?["valid"] as? Bool == true)
    }

    /// Every public sample dumps (text and JSON, exit 0), whatever its verdict.
    @Test func everySampleDumps() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Corpus/jws").path)
            .filter { $0.hasSuffix(".jws") || $0.hasSuffix(".json") }
        #expect(names.count == 18)
        for name in names {
            let text = try CLI.run(["dump", "Corpus/jws/\(name)"])
            #expect(text.status == 0 && text.stdout.contains("Token"), "\(name)")
            let json = try CLI.run(["dump", "--format", "json", "Corpus/jws/\(name)"])
            #expect(json.status == 0, "\(name)")
            #expect(try Self.object(json.stdoutBytes)["kind"] as? String == "jws", "\(name)")
        }
    }

    @Test func dumpTextShowsClaimsCertificatesAndNestedTokens() throws {
        let result = try CLI.run(["dump", Self.notification])
        #expect(result.status == 0)
        for expected in [
            "Token  valid", "Apple markers leaf 1.2.840.113635.100.6.11.1", "data.bundleId",
            "\"com.jrjj.keysns\"", "= 2023-06-28T08:38:32.560Z", "Nested JWS at data.signedTransactionInfo",
            "the payload's signedDate",
        ] {
            #expect(result.stdout.contains(expected), "\(expected)")
        }
    }

    @Test func diffOfTwoTransactionsNamesTheirClaims() throws {
        let result = try CLI.run([
            "diff", "--format", "json", "--only", "jws", Self.transaction,
            "Corpus/jws/gopay-txn-2000000191896422-sandbox.jws",
        ])
        #expect(result.status == 1)
        let changes = try #require(try Self.object(result.stdoutBytes)["changes"] as? [[String: Any]])
        let paths = Set(changes.compactMap { $0["path"] as? String })
        #expect(paths.contains("jws.payload.transactionId"))
        #expect(try CLI.run(["diff", Self.transaction, Self.transaction]).status == 0)
        #expect(try CLI.run(["diff", Self.transaction, "Corpus/receipts/\(Fixtures.sandboxReceipt)"]).status == 2)
    }

    /// A date claim's change is shown with its UTC time, as `dump` shows it; the JSON keeps the number as written.
    @Test func diffShowsDateClaimsInUTC() throws {
        let other = "Corpus/jws/gopay-txn-2000000004047119-sandbox.jws"
        let text = try CLI.run(["diff", "--only", "jws", other, Self.transaction])
        #expect(text.stdout.contains("-     1646387008254 = 2022-03-04T09:43:28.254Z"), "\(text.stdout)")
        #expect(text.stdout.contains("+     1667559685499 = 2022-11-04T11:01:25.499Z"), "\(text.stdout)")
        let json = try CLI.run(["diff", "--format", "json", "--only", "jws", other, Self.transaction])
        let changes = try #require(try Self.object(json.stdoutBytes)["changes"] as? [[String: Any]])
        let signed = try #require(changes.first { ($0["path"] as? String) == "jws.payload.signedDate" })
        #expect(signed["old"] as? String == "1646387008254")
    }

    /// A batch of JWS is counted as JWS, not as receipts.
    @Test func aBatchOfJWSIsCountedByKind() throws {
        let result = try CLI.run(["verify", Self.transaction, "Corpus/jws/gopay-txn-2000000004047119-sandbox.jws"])
        #expect(result.stderr.contains("2 JWS: 2 read ("), "\(result.stderr)")
        let mixed = try CLI.run(["verify", Self.transaction, "Corpus/receipts/\(Fixtures.sandboxReceipt)"])
        #expect(mixed.stderr.contains("1 receipt and 1 JWS: 2 read ("), "\(mixed.stderr)")
    }

    /// `--ignore` works on JWS diffs as on receipts: a claim's path hides its change, and a pattern that hides
    /// nothing is named on standard error.
    @Test func diffOfTwoTransactionsHonoursAndChecksIgnorePatterns() throws {
        let other = "Corpus/jws/gopay-txn-2000000191896422-sandbox.jws"
        let ignored = try CLI.run([
            "diff", "--format", "json", "--only", "jws", "--ignore", "jws.payload.transactionId",
            "--ignore", "no.such.claim", Self.transaction, other,
        ])
        let changes = try #require(try Self.object(ignored.stdoutBytes)["changes"] as? [[String: Any]])
        #expect(!changes.contains { ($0["path"] as? String) == "jws.payload.transactionId" })
        #expect(ignored.stderr.contains("--ignore 'no.such.claim' matched no change"), "\(ignored)")
        #expect(!ignored.stderr.contains("jws.payload.transactionId' matched no change"), "\(ignored)")
    }

    @Test func buildSignsAPayloadThatVerifiesWithTheTestRoot() throws {
        let workspace = try #require(Self.workspace)
        let ca = workspace.appendingPathComponent("ca").path
        let payload =
            #"{"transactionId":"1","bundleId":"com.example.app","signedDate":1717243200000,"environment":"Sandbox"}"#
        let output = workspace.appendingPathComponent("built.jws").path
        let built = try CLI.run(["build", "--jws", "-", "--ca", ca, "-o", output], stdin: Data(payload.utf8))
        #expect(built.status == 0, "\(built)")
        #expect(
            try CLI.run(["verify", "--root", ca + "/root.pem", "--bundle-id", "com.example.app", output]).status == 0)
        #expect(try CLI.run(["verify", output]).status == 1)  // not Apple's G3
    }

    @Test func rcptPassesItsOwnJWSConformanceRun() throws {
        let workspace = try #require(Self.workspace)
        let validator =
            "\(CLI.executable.path) verify --root \(workspace.appendingPathComponent("ca/root.pem").path) "
            + "--bundle-id Com.VoiceRecording.Telephone --environment Sandbox {}"
        let result = try CLI.run([
            "conformance", "--format", "json", "--validator", validator,
            workspace.appendingPathComponent("suite").path,
        ])
        #expect(result.status == 0, "\(result.stdout.suffix(600))")
    }

    @Test func catchesANaiveJWSValidator() throws {
        let workspace = try #require(Self.workspace)
        let script = Fixtures.url("Tests/Tools/RcptCLITests/Validators/naive_jws.py").path
        // A patient timeout: Python's start-up on a loaded machine is never taken for a timeout.
        let result = try CLI.run([
            "conformance", "--format", "json", "--timeout", "600", "--validator",
            "python3 \(script) Com.VoiceRecording.Telephone {}",
            workspace.appendingPathComponent("suite").path,
        ])
        #expect(result.status == 1)
        let report = try Self.object(result.stdoutBytes)
        let acceptedBad = Set(((report["classes"] as? [String: Any])?["accepted-bad"] as? [String]) ?? [])
        for name in ["alg-none", "x5c-foreign-chain", "leaf-marker-missing", "signed-date-in-future"] {
            #expect(acceptedBad.contains(name), "\(name) not flagged: \(acceptedBad.sorted())")
        }
        #expect(!acceptedBad.contains("signature-bit-flip"))
        #expect(!acceptedBad.contains("payload-changed-after-signing"))
    }
}

/// `dump --brief` over many inputs: a block each, receipts and JWS alike; a file that cannot be read is said once on
/// standard error and makes the exit code 2, and the others are still summarised.
@Suite("Brief dump of many inputs")
struct BriefManyCLITests {
    @Test func everyInputGetsItsBlockAndAMissingOneIsSaidOnce() throws {
        let run = try CLI.run([
            "dump", "--brief", "Corpus/receipts/kvitto-receipt.receipt", "missing.jws",
            "Corpus/jws/gopay-txn-510001261072921-production.jws",
        ])
        #expect(run.status == 2)
        #expect(run.stderr == "rcpt: cannot read missing.jws: no such file\n", "\(run.stderr)")
        #expect(run.stdout.contains("Receipt Corpus/receipts/kvitto-receipt.receipt"))
        #expect(
            run.stdout.contains("Consumable com.keysns.JR1200, purchased 2023-06-20T05:30:36Z (PURCHASE) [Production]"))
    }

    @Test func severalInputsWithoutBriefOrJSONLinesAreAUsageError() throws {
        let run = try CLI.run([
            "dump", "Corpus/receipts/kvitto-receipt.receipt", "Corpus/jws/gopay-txn-510001261072921-production.jws",
        ])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--brief"))
    }
}
