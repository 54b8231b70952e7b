import ReceiptValidation

/// Compares the verdicts: signature, chain, the anchor reached, the chain as built, and the errors.
///
/// The instant the chain is evaluated at is not compared: by default it is each receipt's creation date, whose
/// change is reported as an attribute change already.
enum VerificationComparison {
    /// Field by field when both sides were verified; added or removed as a whole otherwise.
    static func compare(_ a: VerificationSummary?, _ b: VerificationSummary?, into sink: inout ChangeSink) {
        let root = DiffPath("verification")
        guard let a, let b else {
            sink.compare(
                root, .verification, a.map { .fields(fields($0)) }, b.map { .fields(fields($0)) }, offsetA: nil,
                offsetB: nil)
            return
        }
        for (old, new) in zip(fields(a), fields(b)) {
            sink.compare(root.appending(old.name), .verification, old.value, new.value, offsetA: nil, offsetB: nil)
        }
    }

    /// The compared verdicts, in the order `rcpt dump` shows them.
    static func fields(_ summary: VerificationSummary) -> [DiffField] {
        [
            DiffField(name: "signature", value: .word(summary.signature.rawValue)),
            DiffField(name: "chain", value: .word(summary.chain.rawValue)),
            DiffField(name: "anchor", value: summary.anchor.map(DiffValue.word) ?? .null),
            DiffField(name: "path", value: .list(summary.path.map(DiffValue.word))),
            DiffField(name: "errors", value: .list(summary.errors.map(DiffValue.word))),
        ]
    }
}
