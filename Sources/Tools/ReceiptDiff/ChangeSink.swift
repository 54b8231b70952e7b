/// Collects changes as the comparisons find them, applying the options: ignored paths and hidden encoding-level
/// changes are counted, not kept.
struct ChangeSink {
    let options: DiffOptions
    private(set) var changes: [Change] = []
    private(set) var ignoredCount = 0
    private(set) var hiddenEncodingCount = 0
    /// How many changes each `--ignore` pattern left out, in the options' order.
    private(set) var ignoredByPattern: [Int]

    init(options: DiffOptions) {
        self.options = options
        ignoredByPattern = [Int](repeating: 0, count: options.ignore.count)
    }

    /// Keeps `change`, or counts it as ignored or as a hidden encoding-level change.
    mutating func append(_ change: Change) {
        if let pattern = options.ignore.firstIndex(where: { $0.matches(change.path) }) {
            ignoredCount += 1
            ignoredByPattern[pattern] += 1
        } else if change.isEncoding && !options.reportsEncoding(of: change.layer) {
            hiddenEncodingCount += 1
        } else {
            changes.append(change)
        }
    }

    /// Appends the changes another sink collected (for work split into parts), in order.
    mutating func absorb(_ other: ChangeSink) {
        changes += other.changes
        ignoredCount += other.ignoredCount
        hiddenEncodingCount += other.hiddenEncodingCount
        for index in ignoredByPattern.indices where index < other.ignoredByPattern.count {
            ignoredByPattern[index] += other.ignoredByPattern[index]
        }
    }

    /// Reports `old` → `new` at `path` when they differ: added when only B has a value, removed when only A has
    /// one, changed when both have different ones.
    mutating func compare(
        _ path: DiffPath, _ layer: DiffLayer, _ old: DiffValue?, _ new: DiffValue?,
        offsetA: Int?, offsetB: Int?, isEncoding: Bool = false, label: String? = nil
    ) {
        let kind: Change.Kind
        switch (old, new) {
        case (nil, nil): return
        case (nil, _): kind = .added
        case (_, nil): kind = .removed
        case (let old?, let new?):
            guard old != new else { return }
            kind = .changed
        }
        append(
            Change(
                path: path, kind: kind, layer: layer, old: old, new: new, offsetA: offsetA, offsetB: offsetB,
                isEncoding: isEncoding, label: label))
    }
}
