import ReceiptModel
import ReceiptValidation

/// One of the two inputs, as the diff's header shows it.
public struct DiffSide: Sendable {
    /// The name shown for the input (its path, or `(stdin)`).
    public var name: String
    public var input: InputSummary
    /// Where reading stopped, if it did before the end.
    public var readError: ReceiptReadError?

    public init(name: String, input: InputSummary, readError: ReceiptReadError?) {
        self.name = name
        self.input = input
        self.readError = readError
    }
}

/// The outcome of comparing receipt A with receipt B.
public struct DiffResult: Sendable {
    public var a: DiffSide
    public var b: DiffSide
    /// The changes reported under the options, layer by layer, in a stable order.
    public var changes: [Change]
    /// Changes left out by `--ignore` patterns.
    public var ignoredCount: Int
    /// Encoding-level changes found but not reported (no `--encoding`).
    public var hiddenEncodingCount: Int
    /// The `--ignore` patterns that left out no change (a typo, or a path where A and B agree).
    public var unusedIgnorePatterns: [IgnorePattern] = []

    /// Whether A and B are equal under the options.
    public var isEqual: Bool { changes.isEmpty }

    /// How many changes of `kind` are reported.
    public func count(_ kind: Change.Kind) -> Int { changes.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) } }

    /// How many changes each layer has, in layer order, leaving out layers without changes.
    public var countsByLayer: [(layer: DiffLayer, count: Int)] {
        var counts: [DiffLayer: Int] = [:]
        for change in changes { counts[change.layer, default: 0] += 1 }
        return DiffLayer.allCases.compactMap { layer in counts[layer].map { (layer, $0) } }
    }
}
