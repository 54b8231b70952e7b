import ReceiptDiagnostics
import ReceiptModel
import ReceiptValidation

/// One of the two inputs, as the diff's header shows it.
package struct DiffSide: Sendable {
    /// The name shown for the input (its path, or `(stdin)`).
    package var name: String
    package var input: InputSummary
    /// Where reading stopped, if it did before the end.
    package var readError: CodedError?
    /// When the document was made, in milliseconds: a receipt's creation date, a token's signedDate.
    package var made: Int64?

    package init(name: String, input: InputSummary, readError: CodedError?, made: Int64? = nil) {
        self.name = name
        self.input = input
        self.readError = readError
        self.made = made
    }
}

/// The outcome of comparing receipt A with receipt B.
package struct DiffResult: Sendable {
    package var a: DiffSide
    package var b: DiffSide
    /// The changes reported under the options, layer by layer, in a stable order.
    package var changes: [Change]
    /// Changes left out by `--ignore` patterns.
    package var ignoredCount: Int
    /// Encoding-level changes found but not reported (no `--encoding`).
    package var hiddenEncodingCount: Int
    /// The `--ignore` patterns that left out no change (a typo, or a path where A and B agree).
    package var unusedIgnorePatterns: [IgnorePattern] = []

    /// Whether A and B are equal under the options.
    package var isEqual: Bool { changes.isEmpty }

    /// How many changes of `kind` are reported.
    package func count(_ kind: Change.Kind) -> Int { changes.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) } }

    /// How many changes each layer has, in layer order, leaving out layers without changes.
    package var countsByLayer: [(layer: DiffLayer, count: Int)] {
        var counts: [DiffLayer: Int] = [:]
        for change in changes { counts[change.layer, default: 0] += 1 }
        return DiffLayer.allCases.compactMap { layer in counts[layer].map { (layer, $0) } }
    }
}
