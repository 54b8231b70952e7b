import Foundation
import ReceiptTestSupport
import Testing

/// `rcpt diff` as a user runs it: golden outputs, exit codes, errors that name the side, options.
///
/// The receipts under `Golden/diff-*.receipt` are written by `GoldenFixtureWriter` in ReceiptDiffTests
/// (`RCPT_WRITE_DIFF_FIXTURES=1`); they are the same app a month apart: a renewal appeared, an earlier purchase was
/// refunded, the app was updated and the signing certificate renewed.
@Suite("rcpt diff")
struct DiffCLITests {
    static let golden = "Tests/Tools/RcptCLITests/Golden/"
    static let old = golden + "diff-old.receipt"
    static let new = golden + "diff-new.receipt"
    static let root = golden + "diff-root.pem"
    static let xcode = "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt"
    static let xcodeDER = golden + "diff-xcode-der.receipt"
    static let storeKit = "Corpus/certs/StoreKitTestCertificate.cer"
    static let sandbox = "Corpus/receipts/kvitto-sandboxReceipt.receipt"

    static let goldens: [(golden: String, arguments: [String], status: Int32)] = [
        ("diff-same-app.txt", ["diff", "--root", root, old, new], 1),
        ("diff-same-app.json", ["diff", "--root", root, "--format", "json", old, new], 1),
        ("diff-xcode-encoding.txt", ["diff", "--root", storeKit, "--encoding", xcode, xcodeDER], 1),
        ("diff-help.txt", ["diff", "--help"], 0),
    ]

    @Test(arguments: goldens)
    func matchesGoldenOutput(_ golden: String, _ arguments: [String], _ status: Int32) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == status, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        CLI.expectGolden(result.stdout, golden)
    }

    /// A side read only in part is diffed as far as it was read, and the exit code is 2, as `verify`'s for it (two
    /// copies of one truncated receipt were "equal", exit 0).
    @Test func truncatedInputIsDiffedAsFarAsItWasRead() throws {
        let bytes = Fixtures.bytes(Self.old)
        let result = try CLI.run(["diff", "--root", Self.root, Self.old, "-"], stdin: Data(bytes.prefix(900)))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("B: unreadable"), "\(result.stderr)")
        #expect(result.stderr.contains("the diff shows what was read"), "\(result.stderr)")
        CLI.expectGolden(result.stdout, "diff-truncated.txt")
        let json = try CLI.run(
            ["diff", "--root", Self.root, "--format", "json", Self.old, "-"],
            stdin: Data(bytes.prefix(900)))
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        let errors = try #require(document["errors"] as? [String: Any])
        #expect(errors["a"] is NSNull)
        let stopped = try #require(errors["b"] as? [String: Any])
        #expect(stopped["layer"] as? String == "container")
        #expect(stopped["offset"] as? Int != nil)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("truncated.receipt").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(bytes.prefix(900))))
        let same = try CLI.run(["diff", file, file])
        #expect(same.status == 2, "\(same)")
        #expect(same.stdout.contains("equal"), "\(same.stdout)")
    }

    static let equalPairs: [[String]] = [
        ["diff", sandbox, sandbox],
        ["diff", "--encoding", sandbox, sandbox],
        ["diff", "--root", storeKit, xcode, xcodeDER],
        [
            "diff", "--root", root, "--only", "receipt", "--ignore", "in_app", "--ignore", "application_version",
            "--ignore", "receipt_creation_date", old, new,
        ],
        ["diff", "--root", root, "--only", "container", old, new],
    ]

    @Test(arguments: equalPairs)
    func equalUnderTheOptionsExitsZero(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.hasSuffix("equal\n") || result.stdout.contains("\nequal ("), "\(result.stdout)")
    }

    /// A verifyReceipt response whose `latest_receipt` no longer verifies is never equal to the genuine one, nor to
    /// the receipt it was sent (a red team's trial: both were "equal", exit 0, while verify judged them apart).
    @Test func responsesVerifyJudgesApartAreNeverEqual() throws {
        let pair = "Tests/Judging/ReceiptVerifyReceiptTests/Pairs/griddiary-sandbox-autorenew-2016/"
        let genuine = Fixtures.bytes(pair + "response.json")
        var response = try #require(try JSONSerialization.jsonObject(with: Data(genuine)) as? [String: Any])
        let receipt = try #require(response["latest_receipt"] as? String)
        var der = try #require(Data(base64Encoded: receipt))
        der[der.count - 10] ^= 0x01  // inside the signature, the last element of the SignedData
        response["latest_receipt"] = der.base64EncodedString()
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: broken) }
        try JSONSerialization.data(withJSONObject: response).write(to: broken)
        for other in [pair + "response.json", pair + "receipt.b64"] {
            let result = try CLI.run(["diff", other, broken.path])
            #expect(result.status == 1, "\(other): \(result.stdout)")
            #expect(result.stdout.contains("verdict.valid"), "\(other): \(result.stdout)")
        }
        #expect(try CLI.run(["diff", pair + "receipt.b64", pair + "response.json"]).status == 0)
    }

    @Test func jsonSaysEqualExactlyWhenTheExitCodeIsZero() throws {
        for (arguments, status) in [([Self.sandbox, Self.sandbox], Int32(0)), ([Self.old, Self.new], Int32(1))] {
            let result = try CLI.run(["diff", "--root", Self.root, "--format", "json", "--compact"] + arguments)
            #expect(result.status == status)
            let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
            #expect(document["schema"] as? String == "rcpt.diff/1")
            #expect(document["equal"] as? Bool == (status == 0))
            #expect(result.stdout.split(separator: "\n").count == 1, "compact JSON is one line")
        }
    }

    @Test func standardInputWorksOnEitherSide() throws {
        let bytes = Data(Fixtures.bytes(Self.new))
        let fromFile = try CLI.run(["diff", "--root", Self.root, Self.old, Self.new])
        let fromStdin = try CLI.run(["diff", "--root", Self.root, Self.old, "-"], stdin: bytes)
        #expect(fromStdin.status == 1)
        let renamed = fromFile.stdout.replacingOccurrences(of: "+++ B \(Self.new) ", with: "+++ B (stdin) ")
        #expect(fromStdin.stdout == renamed)
        let reversed = try CLI.run(["diff", "--root", Self.root, "-", Self.old], stdin: bytes)
        #expect(reversed.status == 1)
    }

    static let unreadable: [(arguments: [String], stdin: [UInt8], message: String)] = [
        (["diff", "no-such-file.receipt", sandbox], [], "A: cannot read no-such-file.receipt: no such file"),
        (["diff", sandbox, "no-such-file.receipt"], [], "B: cannot read no-such-file.receipt: no such file"),
        (["diff", sandbox, "Corpus"], [], "B: cannot read Corpus: it is a directory"),
        (["diff", "-", sandbox], Array("NOT A RECEIPT\n".utf8), "A: not a receipt"),
        (["diff", sandbox, "-"], [], "B: the input is empty"),
        (["diff", sandbox, "-"], [0x86, 0x01, 0x00], "B: not a receipt"),
    ]

    @Test(arguments: unreadable)
    func unreadableInputExitsTwoNamingTheSide(_ arguments: [String], _ stdin: [UInt8], _ message: String) throws {
        let result = try CLI.run(arguments, stdin: Data(stdin))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    static let usageErrors: [[String]] = [
        ["diff"], ["diff", sandbox], ["diff", "-", "-"], ["diff", "--only", "everything", sandbox, sandbox],
        ["diff", "--ignore", "in_app[", sandbox, sandbox], ["diff", "--at", "tomorrow", sandbox, sandbox],
        ["diff", "--format", "yaml", sandbox, sandbox], ["diff", "--root", "no-such-root.pem", sandbox, sandbox],
    ]

    @Test(arguments: usageErrors)
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func colourOnlyWhenAskedOrOnATerminal() throws {
        let arguments = ["diff", "--root", Self.root, Self.old, Self.new]
        let always = try CLI.run(arguments + ["--color", "always"])
        #expect(always.stdout.contains("\u{1B}["))
        let piped = try CLI.run(arguments)
        #expect(!piped.stdout.contains("\u{1B}["))
        let noColor = try CLI.run(arguments + ["--color", "auto"], environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["))
        let never = try CLI.run(arguments + ["--color", "never"])
        #expect(never.stdout == piped.stdout)
    }

    @Test func onlyAndIgnoreFocusTheDiff() throws {
        let result = try CLI.run([
            "diff", "--root", Self.root, "--only", "certificates", "--only", "signers",
            "--ignore", "signers[*].signature", Self.old, Self.new,
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("@@ certificates @@"))
        #expect(result.stdout.contains("@@ signers @@"))
        #expect(!result.stdout.contains("@@ receipt @@"))
        #expect(!result.stdout.contains("signers[0].signature"))
        #expect(result.stdout.contains("1 ignored"))
        #expect(!result.stderr.contains("matched no change"))
    }

    @Test func anIgnorePatternThatMatchesNothingIsNamed() throws {
        let result = try CLI.run([
            "diff", "--root", Self.root, "--ignore", "in_app[*].purchase_dat",
            "--ignore", "signers[*].signature", Self.old, Self.new,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--ignore 'in_app[*].purchase_dat' matched no change"))
        #expect(!result.stderr.contains("'signers[*].signature' matched"))
    }
}
