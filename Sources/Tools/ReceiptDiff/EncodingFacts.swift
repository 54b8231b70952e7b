import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// How far a receipt strays from DER, per layer: how many elements use each non-DER encoding, as the read
/// counted them.
struct EncodingFacts {
    /// Counts per kind (`indefiniteLength`, `constructedString`, …) in the container.
    var container: [String: Int] = [:]
    /// Counts per kind in the payload (attributes and in-app records: `unsortedSet`, `nonMinimalInteger`, …).
    var payload: [String: Int] = [:]

    /// The counts of one side's read (none without a receipt).
    init(_ receipt: Receipt?) {
        guard let receipt else { return }
        container = Self.keyed(receipt.containerEncoding)
        payload = Self.keyed(receipt.payload?.encoding ?? EncodingSummary())
    }

    static func keyed(_ summary: EncodingSummary) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: summary.counts.map { (key(forCode: $0.key.rawValue), $0.value) })
    }

    /// `ber-non-minimal-length` → `nonMinimalLength`.
    static func key(forCode code: String) -> String {
        let words = code.dropFirst("ber-".count).split(separator: "-")
        guard let first = words.first else { return code }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// Reports each kind whose count differs, as `<root>.encoding.<kind>`.
    static func compare(
        _ a: [String: Int], _ b: [String: Int], root: DiffPath, layer: DiffLayer,
        into sink: inout ChangeSink
    ) {
        for kind in Set(a.keys).union(b.keys).sorted() {
            sink.compare(
                root.appending("encoding").appending(kind), layer, .number(Int64(a[kind] ?? 0)),
                .number(Int64(b[kind] ?? 0)), offsetA: nil, offsetB: nil, isEncoding: true)
        }
    }
}
