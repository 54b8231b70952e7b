import ReceiptDiagnostics
import ReceiptValidation

/// Compares the two inputs' verdicts as `rcpt verify` gives them: `verdict.valid` and `verdict.errors`, the codes of
/// the error findings (each once, in order). A change the other comparisons do not name (a second content after the
/// signed one, trailing bytes, an unsigned member beside a token) changes the verdict: a diff never calls two inputs
/// equal that verify judges differently. Never an encoding-level change.
enum VerdictComparison {
    static func compare<Inspected: InspectedDocument>(_ a: Inspected, _ b: Inspected, into sink: inout ChangeSink) {
        compare((a.isValid, errors(a)), (b.isValid, errors(b)), into: &sink)
    }

    /// The same for two inspections of any kinds: a verifyReceipt response (its signed `latest_receipt`, and the
    /// decoding beside it) against a receipt.
    static func compare(_ a: Inspection, _ b: Inspection, into sink: inout ChangeSink) {
        compare((a.isValid, a.codes(.error)), (b.isValid, b.codes(.error)), into: &sink)
    }

    static func compare(
        _ a: (valid: Bool, errors: [String]), _ b: (valid: Bool, errors: [String]), into sink: inout ChangeSink
    ) {
        let root = DiffPath("verdict")
        sink.compare(
            root.appending("valid"), .verification, .bool(a.valid), .bool(b.valid), offsetA: nil, offsetB: nil)
        sink.compare(
            root.appending("errors"), .verification, .list(a.errors.map(DiffValue.word)),
            .list(b.errors.map(DiffValue.word)), offsetA: nil, offsetB: nil)
    }

    /// The codes of the error findings, each once, in the order they were found.
    static func errors<Inspected: InspectedDocument>(_ inspection: Inspected) -> [String] {
        var codes: [String] = []
        for finding in inspection.everyFinding where finding.severity == .error && !codes.contains(finding.code) {
            codes.append(finding.code)
        }
        return codes
    }
}
