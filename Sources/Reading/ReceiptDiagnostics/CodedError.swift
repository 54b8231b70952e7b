/// Why something could not be done, said once for people (`message`) and once for machines (a code from the one
/// `ErrorCode` table), with the byte offset where the input shows it when there is one. The one shape of the tool's
/// non-finding errors: an input that holds no document (`InputError`, `JWSReadError`, a receipt's read error as an
/// inspection shows it), a mutation that cannot be
/// applied (`MutationError`), a suite that cannot be read or run (`SuiteError`).
public struct CodedError: Error, Sendable, Hashable, CustomStringConvertible {
    public var kind: ErrorCode
    /// The stable kebab-case code (`kind`'s raw value).
    public var code: String { kind.rawValue }
    public var message: String
    /// The absolute byte offset in the input where the reason shows, when the error is about a place in it.
    public var offset: Int?
    /// The layer that refused: the code's own, unless a reader says where it stood (an ASN.1 error met in a
    /// receipt's container is the container's).
    package var layer: ErrorLayer

    package init(_ kind: ErrorCode, _ message: String, at offset: Int? = nil, layer: ErrorLayer? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
        self.layer = layer ?? kind.layer
    }

    public var description: String {
        guard let offset else { return "\(message) (\(code))" }
        return "\(message) (\(code) at offset \(offset))"
    }
}
