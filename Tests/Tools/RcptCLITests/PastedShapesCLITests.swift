import Foundation
import ReceiptTestSupport
import Testing

/// One input, one judgement on the command line: every real receipt and JWS we ship, pasted in every shape of
/// `PastedShapes`, gets the clean file's kind and verdict from `verify` and `dump` in a batch; a receipt and two JWS
/// also one file at a time, with `diff` against the clean document finding them equal.
@Suite("Pasted shapes on the command line")
struct PastedShapesCLITests {
    /// The clean file, and each shape with the document it holds (nil: the clean file's own bytes; a verifyReceipt
    /// response is left out of the diff, which compares a response with a receipt by design).
    static let cases: [(clean: String, shapes: [(String, [UInt8], String?)])] = [
        (
            "Corpus/receipts/\(Fixtures.sandboxReceipt)",
            PastedShapes.receipt(Fixtures.realReceipt(Fixtures.sandboxReceipt))
                .map { ($0.0, $0.1, $0.0 == "verifyReceipt response" ? "" : nil) }
        ),
        ("Corpus/jws/gopay-txn-2000000184445477-sandbox.jws", jws("Corpus/jws/gopay-txn-2000000184445477-sandbox.jws")),
        ("Corpus/jws/gopay-notif-DID_RENEW-sandbox.jws", jws("Corpus/jws/gopay-notif-DID_RENEW-sandbox.jws")),
    ]

    static func jws(_ path: String) -> [(String, [UInt8], String?)] {
        let text = String(decoding: Fixtures.bytes(path), as: UTF8.self)
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return PastedShapes.jwsDocuments(text).map { ($0.0, $0.1, $0.2 == token ? nil : $0.2) }
    }

    @Test(arguments: cases.indices)
    func verifyDumpBatchAndDiffAgree(_ index: Int) throws {
        let (clean, shapes) = Self.cases[index]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-shapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let verdict = try CLI.run(["verify", clean]).status
        #expect(verdict == 0, "\(clean) verifies")
        var files: [String] = []
        let documents = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rcpt-shape-documents-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: documents) }
        for (number, (shape, bytes, document)) in shapes.enumerated() {
            let file = directory.appendingPathComponent("shape-\(number).txt").path
            #expect(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
            files.append(file)
            #expect(try CLI.run(["verify", file]).status == verdict, "verify, \(shape)")
            #expect(try CLI.run(["dump", file]).status == 0, "dump, \(shape)")
            // Diffed against the document the shape holds: the clean file, or the body around the token.
            guard document != "" else { continue }
            var against = clean
            if let document {
                against = documents.appendingPathComponent("document-\(number).json").path
                #expect(FileManager.default.createFile(atPath: against, contents: Data(document.utf8)))
            }
            #expect(try CLI.run(["diff", against, file]).status == 0, "diff, \(shape)")
        }
        let batch = try CLI.run(["verify", "--format", "jsonl", directory.path])
        #expect(batch.status == 0, "the batch: \(batch.stderr.prefix(400))")
        let lines = batch.stdout.split(separator: "\n")
        #expect(lines.count == shapes.count)
        #expect(lines.allSatisfy { $0.contains(#""valid":true"#) })
    }

    /// The samples of one trust group: the files, and the `--root` flags they are verified with.
    static let groups: [(name: String, roots: [String], files: [String])] = {
        let jws = ((try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Corpus/jws").path)) ?? [])
            .filter { $0.hasSuffix(".jws") || $0.hasSuffix(".json") }.sorted().map { "Corpus/jws/" + $0 }
        let anchors = "Corpus/jws/anchors/"
        return [
            (
                "Apple", [],
                Fixtures.realReceiptNames.map { "Corpus/receipts/" + $0 }
                    + jws.filter { !$0.contains("apple-swift-") }
            ),
            (
                "Apple's mock",
                [
                    "--root", anchors + "apple-swift-mock-test-root-a.der", "--root",
                    anchors + "apple-swift-mock-test-root-b.der",
                ],
                jws.filter { $0.contains("apple-swift-mock") }
            ),
            (
                "Xcode", ["--root", anchors + "apple-swift-xcode-storekit-testing.der"],
                jws.filter { $0.contains("apple-swift-xcode") }
            ),
        ]
    }()

    /// Every sample and its shapes in one directory each, judged by one `verify` and one `dump` batch: each shape's
    /// line has the clean file's kind and verdict (and `dump` reads every one).
    @Test(arguments: groups.indices)
    func everySampleInEveryShapeInOneBatch(_ index: Int) throws {
        let group = Self.groups[index]
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-all-shapes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var sampleOf: [String: String] = [:]
        var cleanFile: [String: String] = [:]
        for (number, path) in group.files.enumerated() {
            let folder = root.appendingPathComponent(String(format: "%03d", number))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let bytes = Fixtures.bytes(path)
            let shapes =
                path.hasPrefix("Corpus/receipts/")
                ? PastedShapes.receipt(bytes)
                : PastedShapes.jws(String(decoding: bytes, as: UTF8.self))
            #expect(shapes.count >= 20, "\(path)")
            let clean = folder.appendingPathComponent("00-clean").path
            #expect(FileManager.default.createFile(atPath: clean, contents: Data(bytes)))
            sampleOf[clean] = path
            cleanFile[path] = clean
            for (shape, (_, pasted)) in shapes.enumerated() {
                let file = folder.appendingPathComponent(String(format: "shape-%02d", shape)).path
                #expect(FileManager.default.createFile(atPath: file, contents: Data(pasted)))
                sampleOf[file] = path
            }
        }
        for command in ["verify", "dump"] {
            let run = try CLI.run(
                [command, "--format", "jsonl", "--recursive"] + (command == "verify" ? group.roots : [])
                    + [root.path])
            #expect(run.status != 2, "\(group.name) \(command): \(run.stderr.suffix(600))")
            var judged: [String: (kind: String, valid: Bool)] = [:]
            for line in run.stdout.split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                guard let file = object?["file"] as? String else {
                    Issue.record("a line without a file")
                    continue
                }
                judged[file] = (object?["kind"] as? String ?? "none", object?["valid"] as? Bool ?? false)
            }
            #expect(
                judged.count == sampleOf.count,
                "\(group.name) \(command): \(judged.count) lines for \(sampleOf.count) files")
            for (file, sample) in sampleOf {
                guard let clean = cleanFile[sample].flatMap({ judged[$0] }), let verdict = judged[file] else {
                    continue
                }
                #expect(
                    verdict.kind == clean.kind && verdict.valid == clean.valid,
                    "\(command) \(sample), \(file.split(separator: "/").last ?? ""): \(verdict) against \(clean)")
                #expect(clean.kind == (sample.hasPrefix("Corpus/receipts/") ? "receipt" : "jws"), "\(sample)")
            }
        }
    }
}
