import Foundation
import ReceiptTestSupport
import Testing

@testable import ReceiptBatch

/// What a batch reads from its arguments: a file named twice, or named and found in a directory named too, is one
/// document (`rcpt status a.jws a.jws` said "from 2 of 2 documents" and listed it twice).
@Suite("Batch arguments expanded")
struct BatchExpansionTests {
    /// A scratch directory holding `a.jws` and `b.jws`, removed after `body`.
    static func withFiles(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expand-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = Fixtures.bytes("Corpus/jws/gopay-txn-2000000004047119-sandbox.jws")
        for name in ["a.jws", "b.jws"] {
            try Data(token).write(to: directory.appendingPathComponent(name))
        }
        try body(directory)
    }

    @Test("a file's name says it holds a document by its last extension, any case, whatever its directories")
    func documentExtensions() {
        for path in [
            "a.receipt", "dir.d/a.JWS", "/x/y/z.p7m", "b.Base64", "a.tar.jwt", "dir/a.der/", "ünïcode/é.ber",
        ] {
            #expect(BatchInspection.hasDocumentExtension(path), "\(path)")
        }
        for path in [
            "", "/", "a", ".jws", "dir/.jws", "a.jws.txt", "a.json", "dir.jws/a", "a.", "a.receipts", "a.jwsé",
        ] {
            #expect(!BatchInspection.hasDocumentExtension(path), "\(path)")
        }
    }

    @Test("a file named twice, under two spellings, is read once")
    func fileNamedTwice() throws {
        try Self.withFiles { directory in
            let a = directory.appendingPathComponent("a.jws").path
            let other = directory.path + "/./a.jws"
            let expanded = BatchInspection.expand([a, a, other])
            #expect(expanded.paths == [a])
        }
    }

    @Test("a file named beside its directory is read once; the directory's other files are all read")
    func fileAndItsDirectory() throws {
        try Self.withFiles { directory in
            let a = directory.appendingPathComponent("a.jws").path
            let expanded = BatchInspection.expand([a, directory.path])
            #expect(expanded.paths == [a, directory.appendingPathComponent("b.jws").path])
            #expect(BatchInspection.expand([directory.path]).paths.count == 2)
        }
    }

    @Test("two files with the same bytes are two documents")
    func sameBytesTwoFiles() throws {
        try Self.withFiles { directory in
            let paths = ["a.jws", "b.jws"].map { directory.appendingPathComponent($0).path }
            #expect(BatchInspection.expand(paths).paths == paths)
        }
    }

    #if os(Linux)
        /// A directory entry that fails to read (an I/O error) is taken, for its reader to say why, never a trap (a
        /// hostile-bytes trial: /proc/self/mem linked into a directory killed the batch with SIGILL).
        @Test("an entry that fails to read is taken, not trapped on")
        func anEntryThatFailsToRead() throws {
            try Self.withFiles { directory in
                let link = directory.appendingPathComponent("procmem")
                try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/proc/self/mem")
                #expect(BatchInspection.reasonToPassOver(link.path) == nil)
                #expect(BatchInspection.expand([directory.path]).paths.count == 3)
            }
        }
    #endif

    /// An empty file found in a directory, its name no document's, is passed over as holding nothing (a lock file
    /// made `rcpt verify /tmp` exit 2); named, or named as a document, it is judged (unreadable).
    @Test("an empty or blank file in a directory is skipped as empty, unless its name says it is a document")
    func emptyEntriesArePassedOver() throws {
        try Self.withFiles { directory in
            let empty = directory.appendingPathComponent("x.lock")
            let blank = directory.appendingPathComponent("notes")
            let emptyReceipt = directory.appendingPathComponent("empty.receipt")
            try Data().write(to: empty)
            try Data(" \n\t\r\n".utf8).write(to: blank)
            try Data().write(to: emptyReceipt)
            let expanded = BatchInspection.expand([directory.path])
            #expect(expanded.paths.contains(emptyReceipt.path))
            #expect(Set(expanded.skipped.map(\.path)) == [empty.path, blank.path])
            #expect(expanded.skipped.allSatisfy { $0.reason.hasPrefix("empty") })
            #expect(BatchInspection.expand([empty.path]).paths == [empty.path])
        }
    }

    /// A document cut short is judged (unreadable), never passed over as holding nothing: a trial cut a REFUND
    /// notification to 300 bytes in a customer's folder, the scan skipped it, and `status` said the product was owned
    /// (exit 0). Text that only looks like JSON or prose is still passed over.
    @Test("a notification or a token cut short in a directory is judged; other broken text is skipped")
    func damagedDocumentsAreJudged() throws {
        try Self.withFiles { directory in
            let notification = Fixtures.bytes("Corpus/status/08-refund-pro.json")
            let token = Fixtures.bytes("Corpus/jws/gopay-txn-2000000004047119-sandbox.jws")
            let cut = [
                ("refund.json", Array(notification.prefix(300))), ("token.txt", Array(token.prefix(200))),
                ("body.json", Array(#"{"receipt-data":"MIIT"#.utf8)),
            ]
            let other = [("package.json", Array(#"{"name": "x", "version":"#.utf8)), ("notes", Array("hello".utf8))]
            for (name, bytes) in cut + other { try Data(bytes).write(to: directory.appendingPathComponent(name)) }
            let expanded = BatchInspection.expand([directory.path])
            for (name, _) in cut {
                #expect(expanded.paths.contains(directory.appendingPathComponent(name).path), "\(name)")
            }
            #expect(Set(expanded.skipped.map(\.path)) == Set(other.map { directory.appendingPathComponent($0.0).path }))
        }
    }

    /// A link to a directory found in a scan is said to be a link never followed, with or without --recursive: a
    /// trial was told "--recursive reads it", and --recursive did not.
    @Test("a link to a directory in a scan is said as a link, recursive or not")
    func directoryLinksAreSaidAsLinks() throws {
        try Self.withFiles { directory in
            let link = directory.appendingPathComponent("elsewhere")
            try FileManager.default.createSymbolicLink(
                atPath: link.path, withDestinationPath: FileManager.default.temporaryDirectory.path)
            for recursive in [false, true] {
                let skipped = BatchInspection.expand([directory.path], recursive: recursive).skipped
                #expect(skipped.map(\.path) == [link.path])
                #expect(skipped.first?.reason.hasPrefix("a link to a directory, not followed") == true)
            }
        }
    }

    /// A hidden entry of a directory is said, never passed over in silence (a red team's trial: a forged
    /// `.forged.receipt` beside a genuine one, and the batch said "1 read, 1 valid"); named, it is read.
    @Test("a hidden file in a directory is listed as skipped; named, it is read")
    func hiddenEntriesAreSaid() throws {
        try Self.withFiles { directory in
            let hidden = directory.appendingPathComponent(".forged.jws")
            try Data("eyJ.not.a.token".utf8).write(to: hidden)
            let expanded = BatchInspection.expand([directory.path])
            #expect(expanded.paths.count == 2)
            #expect(expanded.skipped.map(\.path) == [hidden.path])
            #expect(expanded.skipped.first?.reason.contains("hidden") == true)
            #expect(BatchInspection.expand([hidden.path]).paths == [hidden.path])
        }
    }
}
