import ReceiptASN1
import ReceiptDiagnostics

/// How far one layer of a read strays from DER: how many elements use each non-DER choice, by finding code
/// (`ber-indefinite-length`, `ber-unsorted-set` …). A property of the read, not of its messages.
public struct EncodingSummary: Sendable, Hashable {
    package private(set) var counts: [FindingCode: Int] = [:]

    package init() {}

    /// Counts `count` more elements of `code`.
    package mutating func add(_ code: FindingCode, _ count: Int = 1) { counts[code, default: 0] += count }

    /// Counts the encoding findings among `findings` that are not aggregated in an anomaly log, one each.
    package mutating func add(findings: [Finding]) {
        for finding in findings where finding.kind.layer == .encoding { add(finding.kind) }
    }

    /// Whether the layer is DER throughout.
    package var isDER: Bool { counts.isEmpty }

    package static func + (lhs: EncodingSummary, rhs: EncodingSummary) -> EncodingSummary {
        var sum = lhs
        for (code, count) in rhs.counts { sum.add(code, count) }
        return sum
    }
}

/// Collects the non-DER choices met while reading one layer, aggregated per kind (count and first offset), so a
/// receipt with a million indefinite lengths yields one finding per kind, not a million.
package struct EncodingAnomalyLog: Sendable, Hashable {
    /// Where the anomalies were met, used in codes and messages: "container", "payload".
    package var layer: String
    private var counts: [UInt8: Int] = [:]
    private var firstOffsets: [UInt8: Int] = [:]

    package init(layer: String) {
        self.layer = layer
    }

    /// Records the header anomalies of one node.
    package mutating func note(_ node: ASN1Node) {
        guard !node.anomalies.isEmpty else { return }
        for kind in EncodingAnomalyLog.kinds where node.anomalies.contains(kind.flag) {
            counts[kind.flag.rawValue, default: 0] += 1
            if firstOffsets[kind.flag.rawValue] == nil { firstOffsets[kind.flag.rawValue] = node.offset }
        }
    }

    package var isEmpty: Bool { counts.isEmpty }

    /// How many elements use each kind of non-DER choice.
    package var summary: EncodingSummary {
        var summary = EncodingSummary()
        for kind in EncodingAnomalyLog.kinds {
            if let count = counts[kind.flag.rawValue] { summary.add(kind.code, count) }
        }
        return summary
    }

    /// One info finding per kind of anomaly met, in a fixed order.
    package var findings: [Finding] {
        EncodingAnomalyLog.kinds.compactMap { kind in
            guard let count = counts[kind.flag.rawValue] else { return nil }
            let first = firstOffsets[kind.flag.rawValue]
            let plural = count == 1 ? "element uses" : "elements use"
            return Finding(
                kind.code, at: first,
                "\(layer): \(count) \(plural) \(kind.description) (not DER), first at offset \(first ?? 0)")
        }
    }

    private struct Kind {
        var flag: ASN1HeaderAnomalies
        var code: FindingCode
        var description: String
    }

    private static let kinds: [Kind] = [
        Kind(flag: .indefiniteLength, code: .berIndefiniteLength, description: "an indefinite length"),
        Kind(flag: .constructedString, code: .berConstructedString, description: "a constructed string"),
        Kind(flag: .nonMinimalLength, code: .berNonMinimalLength, description: "a non-minimal length"),
        Kind(flag: .nonMinimalTag, code: .berNonMinimalTag, description: "a non-minimal tag"),
    ]
}
