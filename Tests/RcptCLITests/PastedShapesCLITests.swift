import Foundation
import ReceiptTestSupport
import Testing

/// One input, one judgement on the command line: a real receipt and a real JWS, pasted in every shape of
/// `PastedShapes`, get the clean file's exit code from `verify` and `dump`, the clean file's verdict in a batch, and
/// `diff` against the clean file finds them equal.
@Suite("Pasted shapes on the command line")
struct PastedShapesCLITests {
    /// The clean file, and each shape with the document it holds (nil: the clean file's own bytes; a verifyReceipt
    /// response is left out of the diff, which compares a response with a receipt by design).
    static let cases: [(clean: String, shapes: [(String, [UInt8], String?)])] = [
        ("Corpus/receipts/\(Fixtures.sandboxReceipt)", PastedShapes.receipt(Fixtures.realReceipt(Fixtures.sandboxReceipt))
            .map { ($0.0, $0.1, $0.0 == "verifyReceipt response" ? "" : nil) }),
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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-shapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let verdict = try CLI.run(["verify", clean]).status
        #expect(verdict == 0, "\(clean) verifies")
        var files: [String] = []
        let documents = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-shape-documents-\(UUID().uuidString)")
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
}
