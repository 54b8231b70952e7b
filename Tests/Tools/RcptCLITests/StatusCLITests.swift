import Foundation
import ReceiptTestSupport
import Testing

/// `rcpt status` as users run it: a lifecycle built with `rcpt ca init --shape jws` and `rcpt build --jws` (the
/// script the README names), asked at every step; the exit codes; the refusals.
@Suite("rcpt status")
struct StatusCLITests {
    static let root = "Corpus/fuzz/keys-jws/root.pem"

    /// The products of `rcpt status --format json`, by product id, and the exit status.
    static func products(_ arguments: [String]) throws -> (
        status: Int32, products: [String: [String: Any]], document: [String: Any]
    ) {
        let result = try CLI.run(["status", "--format", "json"] + arguments)
        let document = try #require(
            try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any],
            "\(result)")
        #expect(document["schema"] as? String == "rcpt.status/1")
        var products: [String: [String: Any]] = [:]
        for product in (document["products"] as? [[String: Any]]) ?? [] {
            products[product["product_id"] as? String ?? "?"] = product
        }
        return (result.status, products, document)
    }

    /// The lifecycle script, run with the built binary and a CA made for this test, then `rcpt status` at each step.
    @Test func theBuiltLifecycleAtEveryStep() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-status-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let ca = scratch.appendingPathComponent("ca").path
        let made = try CLI.run(["ca", "init", "--shape", "jws", ca])
        #expect(made.status == 0, "\(made)")
        let out = scratch.appendingPathComponent("life").path
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = [Fixtures.url("scripts/status-lifecycle.sh").path, out]
        script.environment = ProcessInfo.processInfo.environment.merging(
            ["RCPT": CLI.executable.path, "KEYS": ca]) { $1 }
        script.standardOutput = FileHandle.nullDevice
        script.standardError = FileHandle.nullDevice
        try script.run()
        script.waitUntilExit()
        #expect(script.terminationStatus == 0)
        let app = "com.example.rcpt.status."
        // (day, product, state) as Apple's documentation gives them at each step of the script's story.
        let steps: [(String, String, String)] = [
            ("2024-01-02", "monthly", "active"), ("2024-01-02", "pro", "-"),
            ("2024-01-04", "pro", "owned"), ("2024-01-06", "coins", "consumed"),
            ("2024-02-01", "monthly", "active"), ("2024-02-11", "yearly", "active"),
            ("2024-02-11", "monthly", "expired"), ("2024-02-21", "yearly", "active"),
            ("2024-02-26", "pro", "refunded"), ("2025-03-01", "yearly", "expired"),
        ]
        for (day, product, state) in steps {
            let (status, products, _) = try Self.products(["--root", ca + "/root.pem", "--at", day, out])
            #expect(status == 0, "\(day)")
            #expect((products[app + product]?["state"] as? String ?? "-") == state, "\(day) \(product)")
        }
        let (_, products, document) = try Self.products(["--root", ca + "/root.pem", "--at", "2024-03-01", out])
        let yearly = try #require(products[app + "yearly"])
        #expect(yearly["auto_renew"] as? Bool == false)
        #expect(yearly["expires_date"] as? String == "2025-02-10T00:00:00Z")
        #expect(products[app + "monthly"]?["reason"] as? String == "upgraded to \(app)yearly")
        #expect(products[app + "coins"]?["quantity"] as? Int == 5)
        let refunded = try #require(products[app + "pro"])
        #expect(refunded["reason"] as? String == "REFUNDED_DUE_TO_ISSUE")
        let evidence = try #require((refunded["evidence"] as? [[String: Any]])?.first)
        #expect((evidence["document"] as? String)?.hasSuffix("08-refund-pro.json") == true)
        #expect(evidence["path"] as? String == "signedPayload → data.signedTransactionInfo")
        #expect(evidence["notification"] as? String == "REFUND")
        #expect(evidence["trust"] as? String == "verified")
        let conflicts = try #require(document["conflicts"] as? [[String: Any]])
        #expect(
            conflicts.contains {
                $0["transaction_id"] as? String == "2000000000000200" && $0["claim"] as? String == "revocation"
            })
        // The repository's own CA does not sign this lifecycle: nothing verifies, so nothing counts, and that is 1.
        let untrusted = try Self.products(["--root", Self.root, "--at", "2024-03-01", out])
        #expect(untrusted.status == 1)
        #expect(untrusted.products.isEmpty)
        let loose = try Self.products(["--root", Self.root, "--at", "2024-03-01", "--include-unverified", out])
        #expect(loose.status == 1)
        #expect(loose.products[app + "yearly"]?["verified"] as? Bool == false)
    }

    /// `--bundle-id` and `--environment` bind the answer to one app, as they bind `verify`: a document of another app
    /// or environment does not verify and is not counted (exit 1); without them the text says any app's count (a
    /// red team's trial, session 27: status took no binding, and a free Sandbox purchase answered for the app).
    @Test func theAnswerIsBoundToTheAppNamed() throws {
        let corpus = "Corpus/status/"
        let bound = try CLI.run([
            "status", "--root", Self.root, "--at", "2024-03-01", "--bundle-id", "com.example.rcpt.status",
            "--environment", "Sandbox", corpus,
        ])
        #expect(bound.status == 0, "\(bound)")
        #expect(!bound.stdout.contains("not bound to an app"), "\(bound)")
        let other = try Self.products([
            "--root", Self.root, "--at", "2024-03-01", "--bundle-id", "com.example.other", corpus,
        ])
        #expect(other.status == 1)
        #expect(other.products.isEmpty, "\(other.products.keys)")
        let production = try Self.products([
            "--root", Self.root, "--at", "2024-03-01", "--environment", "Production", corpus,
        ])
        #expect(production.status == 1)
        #expect(production.products.isEmpty, "\(production.products.keys)")
        let unbound = try CLI.run(["status", "--root", Self.root, "--at", "2024-03-01", corpus])
        #expect(unbound.status == 0)
        #expect(unbound.stdout.contains("not bound to an app: any app's genuine documents count"), "\(unbound)")
        // Bound to the app, not to an environment: this app's free Sandbox documents count (a red team's trial: a
        // TestFlight purchase was ACTIVE, exit 0, with no word of it).
        let app = ["--root", Self.root, "--at", "2024-03-01", "--bundle-id", "com.example.rcpt.status"]
        let noEnvironment = try CLI.run(["status"] + app + [corpus])
        #expect(noEnvironment.stdout.contains("not bound to an environment"), "\(noEnvironment)")
        #expect(try Self.products(app + [corpus]).document["unbound_by"] as? [String] == ["--environment"])
        let bothBound = try Self.products(app + ["--environment", "Sandbox", corpus])
        #expect(bothBound.document["unbound_by"] as? [String] == [])
    }

    @Test func exitCodesAndRefusals() throws {
        // A document that does not verify is shown as not counted; the verdict is 1.
        let foreign = try CLI.run([
            "status", "--root", Self.root, "--at", "2024-03-01", "Corpus/status/",
            "Corpus/jws/apple-swift-mock-transactionInfo.jws",
        ])
        #expect(foreign.status == 1, "\(foreign)")
        #expect(foreign.stdout.contains("NOT COUNTED Corpus/jws/apple-swift-mock-transactionInfo.jws"))
        #expect(foreign.stdout.contains("com.example.rcpt.status.yearly"))
        // An unreadable document is 2, the status of the others still given.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-status-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: scratch)
        let unreadable = try CLI.run([
            "status", "--root", Self.root, "--at", "2024-03-01", "Corpus/status/", scratch.path,
        ])
        #expect(unreadable.status == 2)
        #expect(unreadable.stdout.contains("UNREADABLE"))
        #expect(unreadable.stdout.contains("com.example.rcpt.status.yearly"))
        let missing = try CLI.run(["status", "no-such-file.jws"])
        #expect(missing.status == 2)
        // Two apps: refused with each document's app, unless --per-app.
        let mixed = try CLI.run([
            "status", "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws",
            "Corpus/jws/gopay-txn-2000000004047119-sandbox.jws",
        ])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("different apps or environments"))
        #expect(mixed.stderr.contains("Com.VoiceRecording.Telephone (Sandbox)"))
        #expect(mixed.stderr.contains("com.audaos.audarecorder (Sandbox)"))
        let perApp = try Self.products([
            "--per-app", "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws",
            "Corpus/jws/gopay-txn-2000000004047119-sandbox.jws",
        ])
        #expect(perApp.status == 0)
        #expect((perApp.document["apps"] as? [Any])?.count == 2)
        // Usage errors.
        for arguments in [
            ["status"], ["status", "--at", "yesterday", "x"], ["status", "-"], ["status", "--format", "xml", "x"],
        ] {
            let usage = try CLI.run(arguments)
            #expect(usage.status == 2, "\(arguments)")
        }
    }

    /// Apple's verifyReceipt response: its receipt counts (signed); Apple's decoding beside it only when asked,
    /// marked unsigned.
    @Test func aVerifyReceiptResponseCountsItsReceiptAndItsDecodingOnlyWhenAsked() throws {
        let response = "Tests/Judging/ReceiptVerifyReceiptTests/Pairs/griddiary-production-2017/response.json"
        let strict = try Self.products(["--at", "2017-06-01", response])
        #expect(strict.status == 0)
        let product = try #require(strict.products["com.sumiapp.GridDiary.pro_subscription"])
        #expect(product["state"] as? String == "active")
        let documents = try #require(strict.document["documents"] as? [[String: Any]])
        #expect(documents.first?["unsigned_decoding"] as? String == "not-counted")
        let evidence = (product["evidence"] as? [[String: Any]]) ?? []
        #expect(evidence.allSatisfy { $0["trust"] as? String == "verified" })
        let loose = try Self.products(["--at", "2017-06-01", "--include-unverified", response])
        let looseDocuments = try #require(loose.document["documents"] as? [[String: Any]])
        #expect(looseDocuments.first?["unsigned_decoding"] as? String == "counted")
        // The signed record still decides; Apple's decoding never overrules it.
        let decided = try #require(loose.products["com.sumiapp.GridDiary.pro_subscription"])
        #expect((decided["evidence"] as? [[String: Any]])?.first?["trust"] as? String == "verified")
    }

    /// Apple's unsigned decoding, counted, that names another app than the signed receipt beside it: the refusal
    /// names both apps (it named only the receipt's, and the reader was left to guess what differed).
    @Test func aResponseWhoseDecodingNamesAnotherAppSaysWhich() throws {
        let pair = "Tests/Judging/ReceiptVerifyReceiptTests/Pairs/griddiary-production-2017/response.json"
        var response = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url(pair))) as? [String: Any])
        var receipt = try #require(response["receipt"] as? [String: Any])
        receipt["bundle_id"] = "com.example.other"
        response["receipt"] = receipt
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-other-app-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: response).write(to: file)
        let mixed = try CLI.run(["status", "--at", "2017-06-01", "--include-unverified", file.path])
        #expect(mixed.status == 2)
        #expect(
            mixed.stderr.contains("its unsigned decoding (--include-unverified): com.example.other"), "\(mixed.stderr)")
        // Without --include-unverified the response itself is not counted: a decoding that names another app than
        // its signed receipt was put together around it (response-decoding-mismatch; it was counted, exit 0).
        let strict = try CLI.run(["status", "--at", "2017-06-01", file.path])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("NOT COUNTED") && strict.stdout.contains("response-decoding-mismatch"))
    }

    /// A verifyReceipt response without `latest_receipt` holds no signed document: it is said so (not "it does not
    /// verify"), and Apple's decoding counted as asked is dated by the request it answered, never "signed".
    @Test func aResponseWithoutItsReceiptIsSaidToHoldOnlyApplesDecoding() throws {
        let pair = "Tests/Judging/ReceiptVerifyReceiptTests/Pairs/griddiary-sandbox-autorenew-2016/response.json"
        var response = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url(pair))) as? [String: Any])
        response["latest_receipt"] = nil
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-no-latest-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: response).write(to: file)
        let strict = try CLI.run(["status", "--at", "2016-06-01", file.path])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("verifyReceipt response without latest_receipt (no signed receipt in it"))
        #expect(!strict.stdout.contains("does not verify"), "\(strict.stdout)")
        let loose = try CLI.run(["status", "--at", "2016-06-01", "--include-unverified", file.path])
        #expect(loose.status == 1, "\(loose)")  // nothing in it verifies, counted or not
        // Pasted into a ticket, with text before and after it: read the same (it was "UNREADABLE", exit 2).
        let ticket = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-ticket-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: ticket) }
        let pretty = try JSONSerialization.data(withJSONObject: response, options: [.prettyPrinted])
        try (Data("Our server logged this for the customer:\n".utf8) + pretty + Data("\nThanks\n".utf8)).write(
            to: ticket)
        let pasted = try CLI.run(["status", "--at", "2016-06-01", "--include-unverified", ticket.path])
        #expect(pasted.status == 1, "\(pasted)")
        #expect(pasted.stdout.contains("UNVERIFIED") && !pasted.stdout.contains("UNREADABLE"), "\(pasted.stdout)")
        #expect(loose.stdout.contains("answered "), "\(loose.stdout)")
        #expect(!loose.stdout.contains("signed 20"), "\(loose.stdout)")
    }
}

/// The README's two `rcpt status` examples are what the command prints.
@Suite("README: rcpt status examples")
struct StatusReadmeTests {
    static let examples: [(marker: String, shown: String, arguments: [String])] = [
        (
            "real",
            "rcpt status --bundle-id Com.VoiceRecording.Telephone --environment Sandbox --at 2022-11-05 \\\n      Corpus/jws/gopay-txn-2000000184445477-sandbox.jws Corpus/jws/gopay-txn-2000000191896422-sandbox.jws \\\n      Corpus/jws/gopay-renewal-2000000184445477-sandbox.jws",
            [
                "status", "--bundle-id", "Com.VoiceRecording.Telephone", "--environment", "Sandbox", "--at",
                "2022-11-05", "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws",
                "Corpus/jws/gopay-txn-2000000191896422-sandbox.jws",
                "Corpus/jws/gopay-renewal-2000000184445477-sandbox.jws",
            ]
        ),
        (
            "lifecycle",
            "rcpt status --root Corpus/fuzz/keys-jws/root.pem --bundle-id com.example.rcpt.status --environment Sandbox \\\n      --at 2024-03-01 Corpus/status/",
            [
                "status", "--root", "Corpus/fuzz/keys-jws/root.pem", "--bundle-id", "com.example.rcpt.status",
                "--environment", "Sandbox", "--at", "2024-03-01", "Corpus/status/",
            ]
        ),
    ]

    @Test(arguments: examples.map(\.marker))
    func readmeShowsWhatTheCommandPrints(_ marker: String) throws {
        let example = try #require(Self.examples.first { $0.marker == marker })
        let result = try CLI.run(example.arguments)
        #expect(result.status == 0, "\(result)")
        try GeneratedSection.check(
            Fixtures.url("README.md"), begin: "<!-- status example (\(marker)): begin -->",
            end: "<!-- status example (\(marker)): end -->",
            generated: "```\n$ \(example.shown)\n\(result.stdout)```")
    }
}

/// What a user trying `rcpt status` hard ran into: files that are not documents, refusals a script can read, time to
/// the millisecond.
@Suite("rcpt status: files, refusals and time")
struct StatusEdgeTests {
    static let root = "Corpus/fuzz/keys-jws/root.pem"

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-status-edge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aPipeInADirectoryIsSkippedAndADeviceIsBounded() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            at: Fixtures.url("Corpus/status/02-pro.jws"), to: directory.appendingPathComponent("pro.jws"))
        #expect(mkfifo(directory.appendingPathComponent("pipe").path, 0o600) == 0)
        // The pipe has no writer: reading it would block for ever.
        let result = try CLI.run(["status", "--root", Self.root, "--at", "2024-01-10", directory.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("pipe: not a regular file"))
        #expect(result.stdout.contains("OWNED"))
        // A device that never ends is read to a bound, then refused.
        let zero = try CLI.run(["status", "/dev/zero"])
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("unreadable /dev/zero"))
    }

    @Test func missingFilesAndRefusalsAreInTheJSON() throws {
        let missing = try CLI.run([
            "status", "--root", Self.root, "--at", "2024-01-10", "--format", "json",
            "Corpus/status/02-pro.jws", "no-such-file.jws",
        ])
        #expect(missing.status == 2)
        let document = try #require(try JSONSerialization.jsonObject(with: missing.stdoutBytes) as? [String: Any])
        let documents = try #require(document["documents"] as? [[String: Any]])
        #expect(documents.map { $0["document"] as? String } == ["Corpus/status/02-pro.jws", "no-such-file.jws"])
        #expect(documents.last?["use"] as? String == "unreadable")
        #expect(documents.last?["problem"] as? String == "no such file")
        // Two apps refused: still one rcpt.status/1 object, with the error and no product.
        let mixed = try CLI.run([
            "status", "--format", "json", "Corpus/jws/gopay-txn-2000000184445477-sandbox.jws",
            "Corpus/jws/gopay-txn-2000000004047119-sandbox.jws",
        ])
        #expect(mixed.status == 2)
        let refusal = try #require(try JSONSerialization.jsonObject(with: mixed.stdoutBytes) as? [String: Any])
        #expect((refusal["error"] as? [String: Any])?["code"] as? String == "apps-mixed")
        #expect((refusal["products"] as? [Any])?.isEmpty == true)
        #expect((refusal["documents"] as? [Any])?.count == 2)
        // Both in the one error shape and the status schema.
        #expect((refusal["error"] as? [String: Any])?["layer"] as? String == "status")
        #expect(try OutputSchemas.violations([missing.stdoutBytes, mixed.stdoutBytes]) == [])
        // A directory with no document (they are in a subdirectory) is a usage error that names --recursive.
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inner = directory.appendingPathComponent("inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Fixtures.url("Corpus/status/02-pro.jws"), to: inner.appendingPathComponent("pro.jws"))
        let empty = try CLI.run(["status", "--root", Self.root, directory.path])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("--recursive"))
        let recursive = try CLI.run([
            "status", "--root", Self.root, "--at", "2024-01-10", "--recursive", directory.path,
        ])
        #expect(recursive.status == 0)
        // Names with terminal escapes are shown escaped on standard error too.
        let escaped = try CLI.run(["status", "nope\u{1b}[2Jx"])
        #expect(escaped.status == 2)
        #expect(!escaped.stderr.contains("\u{1b}"))
    }

    @Test func atIsReadToTheMillisecond() throws {
        // 02-pro.jws was bought at 2024-01-03T00:00:00.000Z: a millisecond before, nothing; at it, owned.
        let before = try StatusCLITests.products([
            "--root", Self.root, "--at", "1704239999999", "Corpus/status/02-pro.jws",
        ])
        #expect(before.products.isEmpty)
        let fraction = try StatusCLITests.products([
            "--root", Self.root, "--at", "2024-01-02T23:59:59.999Z", "Corpus/status/02-pro.jws",
        ])
        #expect(fraction.products.isEmpty)
        let at = try StatusCLITests.products(["--root", Self.root, "--at", "1704240000000", "Corpus/status/02-pro.jws"])
        #expect(at.products["com.example.rcpt.status.pro"]?["state"] as? String == "owned")
    }
}

/// Files rcpt will not read whole: a sparse file far beyond any receipt is refused before anything is allocated.
@Suite("Input files are read within bounds")
struct InputFileBoundTests {
    @Test func aHugeSparseFileIsRefusedNotRead() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-sparse-\(UUID().uuidString).receipt")
        FileManager.default.createFile(atPath: url.path, contents: Data([0x30]))
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 3 << 30)
        try handle.close()
        for command in [["verify"], ["dump"], ["status"]] {
            let run = try CLI.run(command + [url.path])
            #expect(run.status == 2, "\(command): \(run)")
        }
        let batch = try CLI.run(["verify", "--format", "jsonl", url.path])
        #expect(batch.status == 2)
    }
}

/// A recursive scan reads each directory once: links back up the tree end it, never make it exponential.
@Suite("Directory scans and links")
struct DirectoryLinkTests {
    @Test func linksToAnEnclosingDirectoryDoNotMultiplyTheScan() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-links-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            at: Fixtures.url("Corpus/receipts/\(Fixtures.sandboxReceipt)"),
            to: directory.appendingPathComponent("a.receipt"))
        for name in ["x", "y", "z"] {
            try FileManager.default.createSymbolicLink(
                atPath: directory.appendingPathComponent(name).path,
                withDestinationPath: ".")
        }
        let run = try CLI.run(["verify", "--recursive", "--format", "jsonl", directory.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.split(separator: "\n").count == 1)
    }

    /// A link to a directory outside the tree is not followed: it would mix another folder's documents (another
    /// customer's, for `status`) into the one named. Named as an argument, the directory is read.
    @Test func aLinkOutOfTheTreeIsNotFollowed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-outside-\(UUID().uuidString)")
        let tree = root.appendingPathComponent("tree")
        let elsewhere = root.appendingPathComponent("elsewhere")
        for folder in [tree, elsewhere] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(
            at: Fixtures.url("Corpus/receipts/\(Fixtures.sandboxReceipt)"), to: tree.appendingPathComponent("a.receipt")
        )
        try FileManager.default.copyItem(
            at: Fixtures.url("Corpus/receipts/\(Fixtures.sandboxReceipt)"),
            to: elsewhere.appendingPathComponent("b.receipt"))
        try FileManager.default.createSymbolicLink(
            atPath: tree.appendingPathComponent("out").path, withDestinationPath: elsewhere.path)
        let run = try CLI.run(["verify", "--recursive", "--format", "jsonl", tree.path])
        #expect(run.stdout.split(separator: "\n").count == 1, "\(run)")
        #expect(!run.stdout.contains("b.receipt"))
        let named = try CLI.run([
            "verify", "--recursive", "--format", "jsonl", tree.path, tree.appendingPathComponent("out").path,
        ])
        #expect(named.stdout.contains("b.receipt"), "\(named)")
    }
}
