import Foundation
import ReceiptJSON
import ReceiptModel
import ReceiptTestSupport
import ReceiptValidation
import ReceiptVerifyReceipt
import Testing

/// rcpt's `--format verifyreceipt` against responses Apple's servers returned for the same receipts
/// (`Pairs/PROVENANCE.md`): the `receipt` object equals Apple's member for member and in Apple's order, with the
/// request time taken from Apple's response; where Apple's bytes were recorded as sent, they are equal too.
@Suite("verifyReceipt pairs recorded from Apple")
struct VerifyReceiptPairTests {
    static let directory = "Tests/Judging/ReceiptVerifyReceiptTests/Pairs/"

    /// Each pair, whether its response holds Apple's bytes as sent, and the keys Apple's response lacks that rcpt
    /// writes (documented exceptions).
    static let pairs: [(name: String, wireBytes: Bool, appleLacks: Set<String>)] = [
        ("griddiary-sandbox-2014", true, []),
        // Recorded in 2014, before Apple added receipt_creation_date to its responses.
        (
            "griddiary-sandbox-2014-resp2014", true,
            ["receipt_creation_date", "receipt_creation_date_ms", "receipt_creation_date_pst"]
        ),
        ("griddiary-sandbox-autorenew-2016", true, []),
        ("griddiary-production-2017", true, []),
        ("griddiary-production-2017-exclude-old", true, []),
        // Pretty-printed by the person who published it: the values and order are Apple's, the spacing is not.
        ("so33843281-belive-test2", false, []),
    ]

    struct Pair {
        var apple: JSONDocument
        var ours: JSONDocument
        var appleReceipt: Int
        var oursReceipt: Int
    }

    static func load(_ name: String) throws -> Pair {
        let receipt = try #require(Base64.decode(Fixtures.bytes(directory + name + "/receipt.b64")))
        let apple = try JSONDocument.read(Fixtures.bytes(directory + name + "/response.json"))
        let appleReceipt = try #require(apple.member("receipt", of: apple.root))
        let requestMilliseconds = try #require(
            apple.member("request_date_ms", of: appleReceipt).flatMap { apple.string($0) }.flatMap { Int64($0) })
        let inspection = ReceiptInspector.inspect(
            receipt, options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
        let response = VerifyReceiptResponse(inspection, requestDate: AppleDate(milliseconds: requestMilliseconds))
        let ours = try JSONDocument.read(response.json(pretty: false))
        return Pair(
            apple: apple, ours: ours, appleReceipt: appleReceipt,
            oursReceipt: try #require(ours.member("receipt", of: ours.root)))
    }

    /// An object's members as (name, value text) in order, objects in arrays flattened with their index.
    static func members(_ document: JSONDocument, _ object: Int, prefix: String = "") -> [(String, String)] {
        var result: [(String, String)] = []
        for child in document.children(of: object) {
            let name = prefix + (document.key(child) ?? "?")
            if document.nodes[child].kind == .array {
                for (index, element) in document.children(of: child).enumerated() {
                    result += members(document, element, prefix: "\(name)[\(index)].")
                }
            } else {
                result.append((name, document.string(child) ?? document.text(child)))
            }
        }
        return result
    }

    @Test(arguments: pairs.map(\.name))
    func receiptObjectEqualsApplesMemberForMemberInOrder(_ name: String) throws {
        let pair = try Self.load(name)
        let lacks = try #require(Self.pairs.first { $0.name == name }).appleLacks
        let apple = Self.members(pair.apple, pair.appleReceipt)
        let ours = Self.members(pair.ours, pair.oursReceipt).filter { !lacks.contains($0.0) }
        #expect(ours.map(\.0) == apple.map(\.0), "\(name): key order")
        for ((oursName, oursValue), (appleName, appleValue)) in zip(ours, apple) where oursName == appleName {
            #expect(oursValue == appleValue, "\(name): \(oursName)")
        }
        // Status and environment as Apple gave them.
        for key in ["status", "environment"] {
            let appleValue = pair.apple.member(key, of: pair.apple.root).map { pair.apple.text($0) }
            #expect(
                pair.ours.member(key, of: pair.ours.root).map { pair.ours.text($0) } == appleValue, "\(name): \(key)")
        }
    }

    /// Where the response was recorded as Apple sent it, the `receipt` member's bytes are Apple's bytes.
    @Test(arguments: pairs.filter { $0.wireBytes && $0.appleLacks.isEmpty }.map(\.name))
    func receiptBytesEqualApplesBytes(_ name: String) throws {
        let pair = try Self.load(name)
        let appleNode = pair.apple.nodes[pair.appleReceipt]
        let oursNode = pair.ours.nodes[pair.oursReceipt]
        let appleBytes = Array(pair.apple.bytes[appleNode.start..<appleNode.end])
        let oursBytes = Array(pair.ours.bytes[oursNode.start..<oursNode.end])
        let first = zip(oursBytes, appleBytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(
            oursBytes == appleBytes, "\(name): first difference at \(first ?? min(oursBytes.count, appleBytes.count))")
    }

    /// A sandbox response with no server state is rcpt's whole body, byte for byte.
    @Test func aWholeSandboxBodyEqualsApplesBytes() throws {
        let pair = try Self.load("griddiary-sandbox-2014")
        let apple = pair.apple.bytes
        #expect(Array(pair.ours.bytes.dropLast()) == apple)  // ours ends with a line break
    }

    /// Apple keeps the records in the receipt's order, which is not purchase-date order in this receipt.
    @Test func inAppEntriesKeepTheReceiptsOrder() throws {
        let pair = try Self.load("griddiary-sandbox-autorenew-2016")
        let inApp = try #require(pair.ours.member("in_app", of: pair.oursReceipt))
        let dates = pair.ours.children(of: inApp).compactMap { entry in
            pair.ours.member("purchase_date_ms", of: entry).flatMap { pair.ours.string($0) }.flatMap { Int64($0) }
        }
        #expect(dates.count == 15)
        #expect(dates != dates.sorted())
    }
}
