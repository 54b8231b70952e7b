import Foundation
import ReceiptJSON
import ReceiptServe
import ReceiptTestSupport
import Testing

/// The App Store Server API stand-in answering from a folder of real signed documents.
@Suite("App Store Server API stand-in")
struct ServerAPIStandInTests {
    static func documents() throws -> ServerAPIDocuments {
        try ServerAPIDocuments(folder: Fixtures.url("Corpus/jws").path)
    }

    static func get(_ standIn: AppleStandIn, _ path: String, bearer: Bool = true) -> StandInAnswer {
        let headers = bearer ? [(name: "Authorization", value: "Bearer test-only")] : []
        return standIn.answer(StandInRequest(method: "GET", path: path, headers: headers)).answer
    }

    @Test("the corpus folder yields transactions and renewal infos, and skips notifications")
    func indexing() throws {
        let documents = try Self.documents()
        #expect(documents.transactions.count >= 3)
        #expect(!documents.renewals.isEmpty)
        #expect(documents.skipped.contains("apple-swift-mock-testNotification.jws"))
    }

    /// A trial found `serve --documents` on the status corpus serving 1 transaction of 9: notifications and API
    /// responses were skipped whole.
    @Test("notifications and API responses give the transactions and renewal infos they carry")
    func carriedTokens() throws {
        let documents = try ServerAPIDocuments(folder: Fixtures.url("Corpus/status").path)
        #expect(documents.skipped == ["PROVENANCE.md"])
        #expect(documents.transactions.count == 10)
        #expect(!documents.renewals.isEmpty)
        let standIn = try AppleStandInTests.standIn(documents: documents)
        for transaction in documents.transactions {
            #expect(Self.get(standIn, "/inApps/v1/transactions/\(transaction.transactionID)").httpStatus == 200)
        }
    }

    @Test("Get Transaction Info, History and Subscription Statuses answer the documents' own tokens")
    func reads() throws {
        let documents = try Self.documents()
        let standIn = try AppleStandInTests.standIn(documents: documents)
        let transaction = try #require(documents.transactions.first)
        let info = Self.get(standIn, "/inApps/v1/transactions/\(transaction.transactionID)")
        #expect(info.httpStatus == 200)
        let infoJSON = try JSONDocument.read(info.body)
        #expect(
            infoJSON.member("signedTransactionInfo", of: infoJSON.root).flatMap { infoJSON.string($0) }
                == transaction.token)

        let history = Self.get(standIn, "/inApps/v2/history/\(transaction.transactionID)?revision=x")
        #expect(history.httpStatus == 200)
        let historyJSON = try JSONDocument.read(history.body)
        let tokens = try #require(historyJSON.member("signedTransactions", of: historyJSON.root))
        #expect(historyJSON.children(of: tokens).compactMap { historyJSON.string($0) }.contains(transaction.token))

        let statuses = Self.get(standIn, "/inApps/v1/subscriptions/\(transaction.transactionID)")
        #expect(statuses.httpStatus == 200)
        let text = String(decoding: statuses.body, as: UTF8.self)
        #expect(text.contains("\"lastTransactions\""))
        #expect(text.contains("\"status\":2"))  // every corpus subscription expired before the stand-in's clock
    }

    @Test("no bearer token is 401; an unknown id is Apple's 4040010; a POST is 405")
    func errors() throws {
        let standIn = try AppleStandInTests.standIn(documents: try Self.documents())
        #expect(Self.get(standIn, "/inApps/v1/transactions/1", bearer: false).httpStatus == 401)
        let missing = Self.get(standIn, "/inApps/v1/transactions/999999999999")
        #expect(missing.httpStatus == 404)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("4040010"))
        let post = standIn.answer(StandInRequest(method: "POST", path: "/inApps/v1/transactions/1")).answer
        #expect(post.httpStatus == 405)
    }

    @Test("hostile files are skipped, never read whole or crashed on")
    func hostileFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rcpt-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0xFF, 0x00, 0x2E, 0x2E]).write(to: folder.appendingPathComponent("binary"))
        try Data("a.b.c".utf8).write(to: folder.appendingPathComponent("not-base64"))
        try Data(repeating: 0x41, count: (1 << 20) + 1).write(to: folder.appendingPathComponent("huge"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: false)
        let documents = try ServerAPIDocuments(folder: folder.path)
        #expect(documents.transactions.isEmpty)
        #expect(documents.skipped.sorted() == ["binary", "huge", "not-base64", "sub"])
    }
}
