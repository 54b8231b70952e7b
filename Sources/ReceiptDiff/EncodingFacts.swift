import ReceiptDiagnostics
import ReceiptPKCS7

/// How far a receipt strays from DER, per layer: how many elements use each non-DER encoding, read from the
/// reader's `ber-*` findings.
struct EncodingFacts {
    /// Counts per kind (`indefiniteLength`, `constructedString`, …) in the container.
    var container: [String: Int] = [:]
    /// Counts per kind in the payload (attributes and in-app records: `unsortedSet`, `nonMinimalInteger`, …).
    var payload: [String: Int] = [:]

    /// Counts the `ber-*` findings of one inspection, by layer and kind.
    init(findings: [Finding]) {
        for finding in findings where finding.kind.layer == .encoding {
            let kind = Self.key(forCode: finding.code)
            let count = Self.elementCount(finding.message) ?? 1
            if finding.message.hasPrefix("container:") {
                container[kind, default: 0] += count
            } else {
                payload[kind, default: 0] += count
            }
        }
    }

    /// `ber-non-minimal-length` → `nonMinimalLength`.
    static func key(forCode code: String) -> String {
        let words = code.dropFirst("ber-".count).split(separator: "-")
        guard let first = words.first else { return code }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// N in the anomaly log's aggregated message `"<layer>: N element(s) use …"`; nil for one-off findings.
    static func elementCount(_ message: String) -> Int? {
        guard let colon = message.firstIndex(of: ":") else { return nil }
        let rest = message[message.index(after: colon)...].drop { $0 == " " }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, rest.dropFirst(digits.count).hasPrefix(" element") else { return nil }
        return Int(digits)
    }

    /// Reports each kind whose count differs, as `<root>.encoding.<kind>`.
    static func compare(_ a: [String: Int], _ b: [String: Int], root: DiffPath, layer: DiffLayer,
                        into sink: inout ChangeSink) {
        for kind in Set(a.keys).union(b.keys).sorted() {
            sink.compare(root.appending("encoding").appending(kind), layer, .number(Int64(a[kind] ?? 0)),
                         .number(Int64(b[kind] ?? 0)), offsetA: nil, offsetB: nil, isEncoding: true)
        }
    }
}
