import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptTestSupport
import Testing

/// What a real receipt must read as. Creation dates and record counts are those PROVENANCE.md records from the
/// OpenSSL CLI; bundle ids and versions were checked by hand.
struct RealReceiptFacts: Sendable, CustomTestStringConvertible {
    var name: String
    var bundleID: String
    var appVersion: String
    var created: String
    var records: Int
    var testDescription: String { name }
}

@Suite("Real receipts at the model layer")
struct RealReceiptModelTests {
    static let facts: [RealReceiptFacts] = [
        .init(
            name: "apple-xcode-app-receipt-with-transaction.receipt",
            bundleID: "com.example.naturelab.backyardbirds.example", appVersion: "1", created: "2023-10-19T01:45:40Z",
            records: 1),
        .init(
            name: "appreceiptvalidator-hannes_bear_intro_trial.receipt", bundleID: "net.shinyfrog.bear",
            appVersion: "1.7.3", created: "2019-09-26T14:08:37Z", records: 1),
        .init(
            name: "appreceiptvalidator-hannes_mac_mindnode.receipt", bundleID: "com.ideasoncanvas.MindNodeMac",
            appVersion: "2.5.5", created: "2017-09-04T09:01:20Z", records: 0),
        .init(
            name: "kvitto-receipt.receipt", bundleID: "com.apple.dt.Xcode", appVersion: "7.0",
            created: "2015-09-22T08:55:28Z", records: 0),
        .init(
            name: "kvitto-sandboxReceipt.receipt", bundleID: "com.cocoanetics.EmmiView", appVersion: "246",
            created: "2015-05-25T15:22:10Z", records: 6),
        .init(
            name: "kvitto-storeKitTestReceipt.receipt", bundleID: "com.rd.eehelper", appVersion: "2020.10.02.1149",
            created: "2020-10-16T14:29:30+0300", records: 1),
        .init(
            name: "revenuecat-receiptsample1.receipt", bundleID: "com.revenuecat.sampleapp", appVersion: "4",
            created: "2020-07-22T17:39:08Z", records: 9),
        .init(
            name: "tpinappreceipt-production.receipt", bundleID: "org.getpure.pure-iphone", appVersion: "15741",
            created: "2024-02-23T17:27:16Z", records: 4),
        .init(
            name: "tpinappreceipt-receiptdata-2023.receipt", bundleID: "com.tikhop.tpinappreceipt", appVersion: "1",
            created: "2023-06-21T10:33:41Z", records: 0),
        .init(
            name: "tpinappreceipt-sandbox-g5.receipt", bundleID: "dev.bonzer.weeka.app", appVersion: "2",
            created: "2025-12-26T18:39:47Z", records: 2),
        .init(
            name: "tpinappreceipt-sandbox-legacy.receipt", bundleID: "com.nutcall.alert", appVersion: "32",
            created: "2020-05-06T18:28:49Z", records: 187),
        .init(
            name: "tpinappreceipt-watch.receipt", bundleID: "net.zachariadis.cyclemaps", appVersion: "32.3.1",
            created: "2020-09-21T05:35:19Z", records: 1),
    ]

    @Test func coversEveryShippedReceipt() {
        #expect(Set(Self.facts.map(\.name)) == Set(Fixtures.realReceiptNames))
    }

    @Test(arguments: facts)
    func readsBundleVersionCreationDateAndRecords(_ facts: RealReceiptFacts) throws {
        let receipt = Receipt.read(Fixtures.realReceipt(facts.name))
        #expect(receipt.error == nil)
        #expect(receipt.first(2)?.value == .text(facts.bundleID))
        #expect(receipt.first(3)?.value == .text(facts.appVersion))
        guard case .date(let text, let parsed)? = receipt.first(12)?.value else {
            Issue.record("no creation date")
            return
        }
        #expect(text == facts.created)
        #expect(parsed != nil)
        #expect(receipt.inAppRecords.count == facts.records)
        #expect(!receipt.findings.contains { $0.severity == .error })
    }

    @Test func decodesEveryFieldOfAnInAppRecord() throws {
        let receipt = Receipt.read(Fixtures.realReceipt(Fixtures.sandboxReceipt))
        let record = try #require(receipt.inAppRecords.first)
        #expect(record.first(1701)?.value == .integer(1))
        #expect(record.first(1702)?.value == .text("com.cocoanetics.EmmiView.OneMonth"))
        #expect(record.first(1703)?.value == .text("1000000156449405"))
        #expect(record.first(1705)?.value == .text("1000000156444989"))
        #expect(record.first(1711)?.value == .integer(1_000_000_029_801_037))
        #expect(record.first(1713)?.value == .boolean(false))
        guard case .date(let text, let parsed)? = record.first(1708)?.value else {
            Issue.record("no expires_date")
            return
        }
        #expect(text == "2015-05-24T03:06:02Z")
        #expect(parsed?.secondsSinceEpoch == 1_432_436_762)
        #expect(record.first(1712)?.value == .date(text: "", parsed: nil))
        #expect(record.first(1709)?.descriptor?.isDocumented == false)
        #expect(record.attributes.first?.offset == 585)
    }

    @Test func readsXcodeBERContentInPlaceWithAbsoluteOffsets() throws {
        let bytes = Fixtures.realReceipt(Fixtures.xcodeReceipt)
        let receipt = Receipt.read(bytes)
        let content = try #require(receipt.signedData.encapsulatedContent)
        #expect(content.isConstructed)
        #expect(content.segments == [58..<432])
        #expect(receipt.payload?.offset == 58)
        let bundle = try #require(receipt.first(2))
        // The attribute's offset is where its SEQUENCE stands in the file.
        #expect(bytes[bundle.offset] == 0x30)
        #expect(receipt.findings.contains { $0.code == "ber-indefinite-length" && $0.offset == 0 })
    }

    @Test(arguments: [Fixtures.xcodeReceipt, Fixtures.sandboxReceipt])
    func neverReadsATruncatedReceiptAsComplete(_ name: String) {
        let bytes = Fixtures.realReceipt(name)
        for length in 0..<bytes.count {
            let receipt = Receipt.read(Array(bytes.prefix(length)))
            #expect(receipt.error != nil, "prefix of \(length) bytes read without error")
            if receipt.error == nil { break }
        }
    }
}
