import ReceiptValidation

/// Compares the inputs themselves: size, SHA-256 and wrapper. These are encoding-level facts: a DER
/// re-encoding of the same receipt differs in all three and is still the same receipt.
enum InputComparison {
    /// `input.size`, `input.sha256` and `input.format`, all encoding-level.
    static func compare(_ a: InputSummary, _ b: InputSummary, into sink: inout ChangeSink) {
        let root = DiffPath("input")
        sink.compare(
            root.appending("size"), .input, .number(Int64(a.size)), .number(Int64(b.size)),
            offsetA: nil, offsetB: nil, isEncoding: true)
        sink.compare(
            root.appending("sha256"), .input, .word(a.sha256), .word(b.sha256), offsetA: nil, offsetB: nil,
            isEncoding: true)
        sink.compare(
            root.appending("format"), .input, .word(a.format), .word(b.format), offsetA: nil, offsetB: nil,
            isEncoding: true)
    }
}
