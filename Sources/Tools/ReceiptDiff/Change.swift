/// One difference between receipt A and receipt B.
package struct Change: Sendable, Hashable {
    /// Whether the item exists only in B, only in A, or in both with different values.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case added
        case removed
        case changed
    }

    package var path: DiffPath
    package var kind: Kind
    package var layer: DiffLayer
    /// A's value; nil when the item was added.
    package var old: DiffValue?
    /// B's value; nil when the item was removed.
    package var new: DiffValue?
    /// Absolute byte offset of the item in A's input, when it has one there.
    package var offsetA: Int?
    /// Absolute byte offset of the item in B's input, when it has one there.
    package var offsetB: Int?
    /// Whether this is an encoding-level difference (BER vs DER, lengths, order), reported with `--encoding` only.
    package var isEncoding: Bool
    /// A name for people, shown beside the path in text output (`receipt_creation_date`, `messageDigest`).
    package var label: String?

    package init(
        path: DiffPath, kind: Kind, layer: DiffLayer, old: DiffValue?, new: DiffValue?, offsetA: Int?,
        offsetB: Int?, isEncoding: Bool = false, label: String? = nil
    ) {
        self.path = path
        self.kind = kind
        self.layer = layer
        self.old = old
        self.new = new
        self.offsetA = offsetA
        self.offsetB = offsetB
        self.isEncoding = isEncoding
        self.label = label
    }
}

extension Change: CustomStringConvertible {
    /// `kind path`, for test failure messages.
    package var description: String { "\(kind.rawValue) \(path)" }
}
