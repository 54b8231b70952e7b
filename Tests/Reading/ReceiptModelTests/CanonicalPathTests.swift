import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptPKCS7
import ReceiptTestSupport
import Testing

@testable import ReceiptModel

/// The reading pass's fast path for attributes in the shape Apple writes (`AttributeDecoder.canonicalFields`) is
/// held to the general path: on real payloads and on thousands of damaged ones, under tight node budgets and depth
/// limits, both build the same index, the same findings, the same error and spend the same budget.
@Suite("The canonical attribute path decodes exactly as the general path")
struct CanonicalPathTests {
    /// Everything the read produced, as text: every entry and wide fact, the lists, each finding, the error.
    static func summary(_ payload: ReceiptPayload) -> String {
        let index = payload.index
        var lines = index.table.entries.map {
            "\($0.start) \($0.valueEnd) \($0.number) \($0.type) \($0.layout) \($0.state.rawValue)"
        }
        lines += index.table.wide.map { "wide \($0.entry) \($0.field) \($0.value)" }
        lines.append("top \(index.topLevel) records \(index.records) first \(index.firstByType)")
        lines += payload.findings.map { "\($0.code) \($0.severity) \($0.offset ?? -1) \($0.message)" }
        lines.append("error \(payload.error.map { "\($0.code) \($0.offset) \($0.message)" } ?? "none")")
        lines += payload.encoding.counts.map { "encoding \($0.key) \($0.value)" }.sorted()
        return lines.joined(separator: "\n")
    }

    static func expectSamePaths(_ payload: [UInt8], limits: ASN1Limits = .default, _ name: String) {
        let fast = PayloadReader.read(
            file: payload, segments: [0..<payload.count], depth: 0, limits: limits,
            nodesRead: 0, truncated: false, scope: .receipt)
        let general = PayloadReader.read(
            file: payload, segments: [0..<payload.count], depth: 0, limits: limits,
            nodesRead: 0, truncated: false, scope: .receipt, takesCanonicalPath: false)
        let fastSummary = summary(fast)
        let generalSummary = summary(general)
        #expect(fastSummary == generalSummary, "\(name): the fast path read differently")
    }

    /// The payloads the test starts from: every real receipt's and a synthetic 40-record one's.
    static let payloads: [(name: String, bytes: [UInt8])] = {
        var payloads = Fixtures.realReceiptNames.compactMap { name in
            PayloadIndexTests.payloadBytes(Fixtures.realReceipt(name)).map { (name, $0) }
        }
        let synthetic = SyntheticReceipt(records: 40).payload()
        payloads.append(("synthetic", synthetic))
        payloads.append(("synthetic, indefinite lengths", indefinite(synthetic)))
        return payloads
    }()

    /// `payload` (a SET of definite-length elements) with the SET and each element it holds written with an
    /// indefinite length: BER a validator may meet, where an attribute ends after its end-of-contents marker.
    static func indefinite(_ payload: [UInt8]) -> [UInt8] {
        guard let tree = try? ASN1Tree.read(payload), let root = tree.nodes.first else { return payload }
        var bytes: [UInt8] = [payload[root.offset], 0x80]
        for child in tree.nodes where child.depth == root.depth + 1 {
            bytes += [payload[child.offset], 0x80] + payload[child.contentRange] + [0x00, 0x00]
        }
        return bytes + [0x00, 0x00]
    }

    @Test func realPayloadsReadTheSameByBothPaths() throws {
        try #require(Self.payloads.count >= 7)
        let indefinite = try #require(Self.payloads.last?.bytes)
        #expect(indefinite[1] == 0x80 && indefinite[3] == 0x80)
        for (name, bytes) in Self.payloads {
            let read = PayloadReader.read(
                file: bytes, segments: [0..<bytes.count], depth: 0, limits: .default,
                nodesRead: 0, truncated: false, scope: .receipt)
            #expect(read.index.entryCount > 10, "\(name)")
            Self.expectSamePaths(bytes, name)
        }
    }

    @Test func damagedPayloadsReadTheSameByBothPaths() {
        var random = SplitMix64(seed: 25)
        for (name, original) in Self.payloads {
            for trial in 0..<600 {
                var bytes = original
                switch random.next() % 4 {
                case 0:  // flip one to three bits
                    for _ in 0...(random.next() % 3) {
                        let index = Int(random.next() % UInt64(bytes.count))
                        bytes[index] ^= UInt8(1 << (random.next() % 8))
                    }
                case 1:  // set a byte to a value the fast path tests for
                    let index = Int(random.next() % UInt64(bytes.count))
                    let values: [UInt8] = [0x00, 0x01, 0x02, 0x04, 0x08, 0x09, 0x24, 0x7F, 0x80, 0x81, 0x82, 0xFF]
                    bytes[index] = values[Int(random.next() % UInt64(values.count))]
                case 2:  // cut it short
                    bytes.removeLast(1 + Int(random.next() % UInt64(bytes.count - 1)))
                default:  // insert or delete a byte
                    let index = Int(random.next() % UInt64(bytes.count))
                    if random.next() % 2 == 0 { bytes.insert(0x00, at: index) } else { bytes.remove(at: index) }
                }
                Self.expectSamePaths(bytes, "\(name) damaged #\(trial)")
            }
        }
    }

    @Test func budgetsAndDepthLimitsAreSpentTheSameByBothPaths() {
        for (name, bytes) in Self.payloads {
            for nodes in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 17, 50, 99, 100, 101, 250] {
                Self.expectSamePaths(bytes, limits: ASN1Limits(maximumNodes: nodes), "\(name), \(nodes) nodes")
            }
            for depth in 0...4 {
                Self.expectSamePaths(bytes, limits: ASN1Limits(maximumDepth: depth), "\(name), depth \(depth)")
            }
        }
    }
}
