/// What a diff compares and reports.
package struct DiffOptions: Sendable {
    /// The layers to compare; empty means all of them.
    package var layers: Set<DiffLayer>
    /// Whether to report encoding-level differences (BER vs DER, lengths, order), which are equal by default.
    package var encoding: Bool
    /// Changes at these paths, and below them, are left out.
    package var ignore: [IgnorePattern]

    package init(layers: Set<DiffLayer> = [], encoding: Bool = false, ignore: [IgnorePattern] = []) {
        self.layers = layers
        self.encoding = encoding
        self.ignore = ignore
    }

    /// Whether `layer` is compared at all.
    package func compares(_ layer: DiffLayer) -> Bool { layers.isEmpty || layers.contains(layer) }

    /// Whether encoding-level changes of `layer` are reported: with `--encoding`, and for the input layer (whose
    /// facts are all encoding-level) also when it is asked for by name.
    package func reportsEncoding(of layer: DiffLayer) -> Bool {
        encoding || (layer == .input && layers.contains(.input))
    }
}
