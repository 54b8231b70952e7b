import Foundation
import ReceiptModel
import ReceiptTestSupport
import Testing

@Suite("Exit codes and errors a person understands")
struct ExitCodeTests {
    static let sandbox = "Corpus/receipts/kvitto-sandboxReceipt.receipt"
    static let xcode = "Corpus/receipts/apple-xcode-app-receipt-with-transaction.receipt"

    @Test(arguments: ["dump", "verify"])
    func realReceiptsSucceed(_ command: String) throws {
        let result = try CLI.run([command, Self.sandbox])
        #expect(result.status == 0, "\(result)")
    }

    /// A reader that stops reading (`rcpt dump … | head -1`, a pager quit early) ends rcpt with its own exit code,
    /// never with SIGPIPE: here the reader is gone before rcpt writes a byte.
    @Test(arguments: [
        ["dump", "Corpus/receipts/kvitto-sandboxReceipt.receipt"],
        ["verify", "--format", "json", "Corpus/receipts/kvitto-sandboxReceipt.receipt"],
        ["dump", "--format", "json", "Corpus/jws/apple-swift-mock-testNotification.jws"],
        ["verify", "--format", "jsonl", "Corpus/jws"],
    ])
    func aClosedOutputIsNoSignal(_ arguments: [String]) throws {
        try Self.expectExitCode(arguments, closing: \.standardOutput)
    }

    /// Runs rcpt with `arguments`, the stream `closing` a pipe whose reader is gone (the other one discarded), and
    /// expects it to end with an exit code of at most 2, never a signal.
    static func expectExitCode(_ arguments: [String], closing stream: ReferenceWritableKeyPath<Process, Any?>) throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.repositoryRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process[keyPath: stream] = pipe
        try pipe.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        #expect(
            process.terminationReason == .exit,
            "\(arguments): ended by signal \(process.terminationStatus), not an exit code")
        #expect(process.terminationStatus <= 2)
    }

    /// The same for standard error: a message to a reader that is gone (`rcpt … 2>&1 | head`) is dropped, and rcpt
    /// still ends with its exit code.
    @Test(arguments: [
        ["verify", "no-such-file"],
        ["dump", "no-such-file"],
        ["verify", "--format", "jsonl", "Corpus/receipts", "no-such-file"],
        ["no-such-command"],
        ["verify", "--help"],
    ])
    func aClosedErrorStreamIsNoSignal(_ arguments: [String]) throws {
        try Self.expectExitCode(arguments, closing: \.standardError)
    }

    /// Whether /dev/full is the device that refuses every write (a sandbox may lack it).
    static var hasFullDevice: Bool {
        var information = stat()
        return stat("/dev/full", &information) == 0 && (information.st_mode & S_IFMT) == S_IFCHR
    }

    /// Output that could not be written (a full disk) is no success: exit 2 with the reason, for standard output and
    /// for `report -o`, which also leaves the device it was given in place (it once replaced /dev/full with a file).
    @Test(
        .enabled(if: hasFullDevice),
        arguments: [
            ["verify", "--format", "json", "Corpus/receipts/\(Fixtures.sandboxReceipt)"],
            ["dump", "--format", "json", "Corpus/receipts/\(Fixtures.sandboxReceipt)"],
            ["verify", "--format", "jsonl", "Corpus/jws"],
            ["report", "Corpus/receipts/\(Fixtures.sandboxReceipt)", "-o", "/dev/full"],
        ])
    func outputThatCannotBeWrittenIsExitTwo(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.repositoryRoot
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 2, "\(arguments): \(message)")
        #expect(message.contains("No space left on device"), "\(message)")
        #expect(Self.hasFullDevice)
    }

    /// A negative number reaches the option's own check, which says what it takes (the parser once took `-1` for
    /// an option and said "Missing value").
    @Test(arguments: [
        (["verify", "--jobs", "-2", "x"], "--jobs must be at least 1"),
        (["fuzz-validator", "--runs", "-1", "--ca", "x", "--validator", "true {}", "x"], "--runs must be at least 1"),
        (["fuzz-validator", "--time", "-5", "--ca", "x", "--validator", "true {}", "x"], "--time must be positive"),
        (["serve", "--port", "-1"], "--port takes 0 to 65535"),
        (["notify", "--timeout", "-1", "http://127.0.0.1:9/", "x"], "--timeout must be positive"),
        // Seconds past what the clock arithmetic holds were a SIGILL (a trial's `--timeout 1e12`, `inf`).
        (["notify", "--timeout", "inf", "http://127.0.0.1:9/", "x"], "--timeout must be positive"),
        (["conformance", "--timeout", "1e12", "--validator", "true {}", "x"], "--timeout must be positive"),
        (["fuzz-validator", "--time", "inf", "--ca", "x", "--validator", "true {}", "x"], "--time must be positive"),
        (["serve", "--timeout", "1e300"], "--timeout must be positive"),
    ])
    func aNegativeNumberIsCheckedByItsOption(_ arguments: [String], _ message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func verifyReportsInvalidReceiptsWithExitOne() throws {
        let untrusted = try CLI.run(["verify", Self.xcode])
        #expect(untrusted.status == 1)
        #expect(untrusted.stdout.contains("chain-invalid"))
        let trusted = try CLI.run(["verify", "--root", "Corpus/certs/StoreKitTestCertificate.cer", Self.xcode])
        #expect(trusted.status == 0, "\(trusted)")
    }

    @Test func opensslErrorsAreASentenceWithTheRawTextUnderVerbose() throws {
        var bytes = Fixtures.realReceipt(Fixtures.sandboxReceipt)
        bytes[bytes.count - 5] ^= 0x41  // inside the RSA signature
        let plain = try CLI.run(["verify", "-"], stdin: Data(bytes))
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("the signature's PKCS#1 padding is wrong"))
        #expect(!plain.stdout.contains("[OpenSSL:"))
        let verbose = try CLI.run(["verify", "-v", "-"], stdin: Data(bytes))
        #expect(verbose.stdout.contains("[OpenSSL: error:"))
        let json = try CLI.run(["verify", "--format", "json", "-"], stdin: Data(bytes))
        #expect(json.stdout.contains("[OpenSSL: error:"))
    }

    @Test func verifyReportsAFlippedPayloadByteAsASignatureFinding() throws {
        var bytes = Fixtures.realReceipt(Fixtures.sandboxReceipt)
        bytes[500] ^= 0x04
        let result = try CLI.run(["verify", "-"], stdin: Data(bytes))
        #expect(result.status == 1)
        #expect(result.stdout.contains("signature-invalid"))
    }

    static let unreadable: [(name: String, bytes: [UInt8], message: String)] = [
        ("empty file", [], "empty"),
        ("not a receipt", Array("NOT A RECEIPT\n".utf8), "not a receipt"),
        (
            "legacy receipt",
            Fixtures.bytes("Corpus/receipts/malformed/revenuecat-unsupportedReceipt2-ios6style.receipt"), "iOS 6"
        ),
        ("random bytes", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }, "offset"),
        ("truncated receipt", Array(Fixtures.realReceipt(Fixtures.sandboxReceipt).prefix(3000)), "offset"),
        ("1 GB claimed in 20 bytes", [0x30, 0x84, 0x40, 0, 0, 0] + Array(repeating: 0, count: 14), "claims"),
        ("2^62 length", [0x30, 0x88, 0x40, 0, 0, 0, 0, 0, 0, 0] + Array(repeating: 0, count: 10), "claims"),
        (
            "100 000 nested indefinite SEQUENCEs",
            Array(repeating: [UInt8]([0x30, 0x80]), count: 100_000).flatMap { $0 },
            "nesting deeper than the limit"
        ),
    ]

    @Test(arguments: unreadable)
    func unreadableInputExitsTwoWithAReason(_ name: String, _ bytes: [UInt8], _ message: String) throws {
        for command in ["dump", "verify"] {
            let result = try CLI.run([command, "-"], stdin: Data(bytes))
            #expect(result.status == 2, "\(command) \(name): \(result)")
            #expect((result.stdout + result.stderr).contains(message), "\(command) \(name): \(result.stdout)")
        }
    }

    static var base64Sandbox: String { Base64.encode(Fixtures.realReceipt(Fixtures.sandboxReceipt)) }

    static let ambiguousBodies: [(name: String, body: String, message: String)] = [
        ("duplicate receipt-data", #"{"receipt-data":"AAAA","receipt-data":"\#(base64Sandbox)"}"#, "2 top-level"),
        (
            "duplicate spelt with an escape", #"{"receipt-data":"\#(base64Sandbox)","receipt-data":"AAAA"}"#,
            "2 top-level"
        ),
        ("only nested", #"{"request":{"receipt-data":"\#(base64Sandbox)"}}"#, "only inside a nested"),
        ("only in an array", #"{"list":[{"receipt-data":"\#(base64Sandbox)"}]}"#, "only inside a nested"),
        ("malformed", #"{"receipt-data":"\#(base64Sandbox)""#, "malformed"),
    ]

    @Test(arguments: ambiguousBodies)
    func ambiguousVerifyReceiptBodiesAreRefused(_ name: String, _ body: String, _ message: String) throws {
        let result = try CLI.run(["verify", "-"], stdin: Data(body.utf8))
        #expect(result.status == 2, "\(name): \(result)")
        #expect(result.stdout.contains(message), "\(name): \(result.stdout)")
    }

    @Test func aVerifyReceiptBodyWithOneTopLevelMemberIsRead() throws {
        let body = #"{"password":"x","nested":{"other":[1,2,{"a":"b"}]},"receipt-data":"\#(Self.base64Sandbox)"}"#
        let result = try CLI.run(["verify", "-"], stdin: Data(body.utf8))
        #expect(result.status == 0, "\(result)")
    }

    @Test func malformedFixturesExitTwo() throws {
        for file in ["appreceiptvalidator-not_a_receipt.receipt", "revenuecat-unsupportedReceipt2-ios6style.receipt"] {
            let result = try CLI.run(["dump", "Corpus/receipts/malformed/\(file)"])
            #expect(result.status == 2, "\(file)")
            #expect(result.stdout.contains("error input:"), "\(file): \(result.stdout)")
        }
    }

    @Test func truncatedReceiptShowsWhatItReadThenTheError() throws {
        let bytes = Array(Fixtures.realReceipt(Fixtures.sandboxReceipt).prefix(700))
        let result = try CLI.run(["dump", "--format", "json", "-"], stdin: Data(bytes))
        #expect(result.status == 2)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["offset"] as? Int != nil)
        let container = try #require(json["container"] as? [String: Any])
        #expect(container["version"] as? Int == 1)
    }

    /// The brief summary of a receipt cut short lists the purchases read before the error and says there may be
    /// more; "purchases 6" alone read as the whole list (a support engineer's trial).
    @Test func aTruncatedReceiptsPurchasesAreMarkedPartial() throws {
        let whole = Fixtures.realReceipt("revenuecat-receiptsample1.receipt")
        let cut = try CLI.run(["dump", "--brief", "-"], stdin: Data(whole.prefix(3_000)))
        #expect(cut.status == 2)
        let line = try #require(cut.stdout.split(separator: "\n").first { $0.contains("purchases") })
        #expect(line.contains("6, by purchase date") && line.contains("there may be more"), "\(line)")
        let full = try CLI.run(["dump", "--brief", "-"], stdin: Data(whole))
        #expect(!full.stdout.contains("there may be more"), "\(full.stdout)")
    }

    static let usageErrors: [[String]] = [
        [], ["frobnicate"], ["dump", "--format", "yaml", sandbox], ["verify", "--at", "tomorrow", sandbox],
        ["verify", "--device-id", "xyz", sandbox], ["dump", "--no-such-flag", sandbox],
    ]

    @Test(arguments: usageErrors)
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(!result.stderr.isEmpty)
    }

    /// A misspelt option is named, even where the command misses what the misspelling meant to give: ArgumentParser
    /// checks a command's requirements first, and said "give the validator" for `--validatr` (a CI user's trial).
    @Test(arguments: [
        (["conformance", "--validatr", "check {}", "suite"], "--validatr", "rcpt conformance --help"),
        (["fuzz-validator", "--validatr", "check {}", "--ca", "ca"], "--validatr", "rcpt fuzz-validator --help"),
        (["ca", "init", "--shap", "jws", "ca"], "--shap", "rcpt ca init --help"),
        (["verify", "--bundle-idd", "x", sandbox], "--bundle-idd", "rcpt verify --help"),
    ])
    func aMisspeltOptionIsNamed(_ arguments: [String], _ option: String, _ help: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(result.stderr.contains("unknown option '\(option)'"), "\(result.stderr)")
        #expect(result.stderr.contains(help), "\(result.stderr)")
        // With every option known, the command's own word stands.
        let known = try CLI.run(["conformance", "suite"])
        #expect(known.stderr.contains("give the validator"), "\(known.stderr)")
    }

    @Test(arguments: ["dump", "verify"])
    func readsStandardInputWhenNoFileIsGiven(_ command: String) throws {
        let result = try CLI.run([command], stdin: Data(Fixtures.realReceipt(Fixtures.sandboxReceipt)))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("(stdin)"))
        let empty = try CLI.run([command], stdin: Data())
        #expect(empty.status == 2)
        #expect(empty.stdout.contains("empty"))
    }

    @Test(arguments: [("2015-05-25", 0), ("1432567330000", 0), ("2015-05-25T15:22:10Z", 0), ("2030-01-01", 1)])
    func evaluationTimeTakesDatesTimesAndMilliseconds(_ time: String, _ status: Int32) throws {
        let result = try CLI.run(["verify", "--at", time, Self.sandbox])
        #expect(result.status == status, "\(time): \(result.stdout)")
    }

    @Test(arguments: [("der", 0), ("base64", 2), ("json", 2), ("binary", 0)])
    func inputFormatTakesTheWordsTheDumpPrints(_ format: String, _ status: Int32) throws {
        let result = try CLI.run(["dump", "--input-format", format, Self.sandbox])
        #expect(result.status == status, "\(format): \(result)")
    }

    /// One input, one judgement: `--input-format` forces the same reading on a file named alone and on the same file
    /// found in a directory (the batch read a receipt forced as a JWS as a receipt, and called it valid).
    @Test(arguments: [("jws", 2), ("der", 0), ("base64", 2)])
    func inputFormatForcesAFileAndItsDirectoryAlike(_ format: String, _ status: Int32) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-forced-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.receipt")
        try Data(contentsOf: URL(fileURLWithPath: Self.sandbox)).write(to: file)
        let alone = try CLI.run(["verify", "--format", "jsonl", "--input-format", format, file.path])
        let found = try CLI.run(["verify", "--format", "jsonl", "--input-format", format, directory.path])
        #expect(alone.status == status, "\(format): \(alone)")
        #expect(found.status == status, "\(format): \(found)")
        #expect(alone.stdout == found.stdout, "\(format)")
    }

    @Test func verdictsSayWhyAndWhatToDo() throws {
        let today = try CLI.run(["verify", "--at", "now", "Corpus/receipts/tpinappreceipt-sandbox-g5.receipt"])
        #expect(today.status == 1)
        #expect(today.stdout.contains("(now)"))
        #expect(
            today.stdout.contains(
                "The signing certificate expired at 2026-08-23T14:50:02Z, after the receipt was created"))
        #expect(today.stdout.contains("receipts are validated at their creation date"))
        let atCreation = try CLI.run(["verify", "Corpus/receipts/tpinappreceipt-sandbox-g5.receipt"])
        #expect(atCreation.stdout.contains("(the receipt's creation date)"))
        let xcode = try CLI.run(["verify", Self.xcode])
        #expect(xcode.stdout.contains("trusted only with --root and Xcode's StoreKit certificate"))
    }

    @Test func judgesSubscriptionsAtTheStatusTime() throws {
        let result = try CLI.run(["verify", "-v", "--status-at", "2015-05-26T04:00:00Z", Self.sandbox])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Verification at 2015-05-25T15:22:10Z (the receipt's creation date)"))
        #expect(result.stdout.contains("is not active at 2015-05-26T04:00:00Z"))
        let atCreation = try CLI.run(["verify", "-v", Self.sandbox])
        #expect(atCreation.stdout.contains("is active at 2015-05-25T15:22:10Z"))
        #expect(try CLI.run(["verify", "--status-at", "soon", Self.sandbox]).status == 2)
    }

    @Test func missingFilesAndBadRootsExitTwoWithTheirName() throws {
        let missing = try CLI.run(["dump", "no/such/receipt"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no/such/receipt"))
        let badRoot = try CLI.run(["verify", "--root", "README.md", Self.sandbox])
        #expect(badRoot.status == 2)
        #expect(badRoot.stderr.contains("README.md"))
    }

    @Test func readsBase64AndVerifyReceiptBodiesFromStandardInput() throws {
        let base64 = Base64.encode(Fixtures.realReceipt(Fixtures.sandboxReceipt))
        let fromBase64 = try CLI.run(["dump", "--format", "json", "-"], stdin: Data(base64.utf8))
        #expect(fromBase64.status == 0)
        #expect(fromBase64.stdout.contains("\"format\": \"base64\""))
        let body = "{\"receipt-data\":\"\(base64)\"}"
        let fromBody = try CLI.run(["verify", "-"], stdin: Data(body.utf8))
        #expect(fromBody.status == 0, "\(fromBody)")
    }

    @Test func coloursOnlyWhenAskedOrOnATerminal() throws {
        let piped = try CLI.run(["dump", Self.sandbox])
        #expect(!piped.stdout.contains("\u{1B}["))
        let forced = try CLI.run(["dump", "--color", "always", Self.sandbox])
        #expect(forced.stdout.contains("\u{1B}["))
    }

    @Test func jsonOutputParsesAndCarriesTheSchema() throws {
        for name in Fixtures.realReceiptNames {
            let result = try CLI.run(["dump", "--format", "json", "Corpus/receipts/\(name)"])
            #expect(result.status == 0, "\(name)")
            let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
            #expect(json["schema"] as? String == "rcpt.dump/1")
            let receipt = try #require(json["receipt"] as? [String: Any])
            #expect(receipt["bundle_id"] as? String != nil, "\(name)")
        }
    }
}

@Suite("Verifying many receipts")
struct BatchVerifyTests {
    /// A directory of real receipts, an Xcode one (invalid without its root), a non-receipt and a subdirectory.
    static func directory(truncated: Bool) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("sub"),
            withIntermediateDirectories: true)
        for name in [
            "kvitto-sandboxReceipt.receipt", "tpinappreceipt-production.receipt",
            "apple-xcode-app-receipt-with-transaction.receipt",
        ] {
            try Data(Fixtures.realReceipt(name)).write(to: directory.appendingPathComponent(name))
        }
        try Data(Fixtures.realReceipt("kvitto-receipt.receipt")).write(
            to: directory.appendingPathComponent("sub/deep.receipt"))
        try Data("# notes\nnot a receipt\n".utf8).write(to: directory.appendingPathComponent("notes.md"))
        if truncated {
            try Data(Fixtures.realReceipt("kvitto-receipt.receipt").prefix(900))
                .write(to: directory.appendingPathComponent("cut.receipt"))
        }
        return directory
    }

    @Test func namesEveryFailureAndExitsByTheWorstVerdict() throws {
        let directory = try Self.directory(truncated: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["verify", directory.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("valid \(directory.path)/kvitto-sandboxReceipt.receipt"))
        #expect(
            result.stdout.contains(
                "invalid \(directory.path)/apple-xcode-app-receipt-with-transaction.receipt: chain-invalid"))
        #expect(!result.stdout.contains("deep.receipt"))
        #expect(result.stderr.contains("skipped \(directory.path)/notes.md"))
        // The subdirectory is said, not passed over in silence (a newcomer missed the broken receipts in one).
        #expect(
            result.stderr.contains("skipped \(directory.path)/sub: a subdirectory, not read (--recursive reads it)"))
        #expect(
            result.stderr.contains(
                "failed \(directory.path)/apple-xcode-app-receipt-with-transaction.receipt: chain-invalid"))
        #expect(
            result.stderr.contains(
                "3 receipts: 3 read (2 valid, 1 invalid), 0 unreadable, 2 skipped (said above)"))
        let trusted = try CLI.run([
            "verify", directory.appendingPathComponent("kvitto-sandboxReceipt.receipt").path,
            directory.appendingPathComponent("tpinappreceipt-production.receipt").path,
        ])
        #expect(trusted.status == 0, "\(trusted)")
    }

    /// In a directory, a link named as a receipt whose file is gone, and a receipt's base64 with a NUL left in it,
    /// are judged (unreadable: exit 2), never passed over as not documents (a trial's batch then exited 0).
    @Test func aDamagedReceiptInADirectoryIsJudgedNotSkipped() throws {
        let directory = try Self.directory(truncated: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("kvitto-sandboxReceipt.receipt").path
        let alone = try CLI.run(["verify", good])
        #expect(alone.status == 0, "\(alone)")
        let gone = directory.appendingPathComponent("gone.receipt")
        try FileManager.default.createSymbolicLink(
            atPath: gone.path, withDestinationPath: directory.appendingPathComponent("nothing-here").path)
        var damaged = Array(Base64.encode(Fixtures.realReceipt(Fixtures.sandboxReceipt)).utf8)
        damaged[1000] = 0x00
        try Data(damaged).write(to: directory.appendingPathComponent("pasted.txt"))
        let result = try CLI.run(["verify", directory.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains("unreadable \(gone.path)"), "\(result.stdout)")
        #expect(result.stdout.contains("pasted.txt"), "\(result.stdout)")
        #expect(result.stdout.contains("base64-damaged: the base64 has \"\\u{0}\" at offset 1000"), "\(result.stdout)")
    }

    @Test func anUnreadableReceiptMakesItTwoAndJSONLinesNameEachFile() throws {
        let directory = try Self.directory(truncated: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["verify", "--recursive", "--format", "jsonl", directory.path])
        #expect(result.status == 2)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        var files: [String: Bool] = [:]
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["schema"] as? String == "rcpt.verify/1")
            files[try #require(object["file"] as? String)] = object["valid"] as? Bool
        }
        #expect(files["\(directory.path)/sub/deep.receipt"] == true)
        #expect(files["\(directory.path)/cut.receipt"] == false)
        #expect(result.stderr.contains("failed \(directory.path)/cut.receipt: asn1-length-exceeds-input"))
    }

    @Test func severalReceiptsAreNotOneJSONDocument() throws {
        let result = try CLI.run(["verify", "--format", "json", ExitCodeTests.sandbox, ExitCodeTests.xcode])
        #expect(result.status == 2)
        #expect(result.stderr.contains("jsonl"))
    }
}
