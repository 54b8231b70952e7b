import ReceiptDiagnostics

/// Why a BER/DER read stopped, with the absolute offset of the byte that stopped it.
public struct ASN1Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why, from the one `ErrorCode` table (layer `asn1`).
    public var kind: ErrorCode
    /// The stable kebab-case code (`kind`'s raw value).
    public var code: String { kind.rawValue }
    /// Absolute byte offset in the input file (or in the buffer being read, when that is not the file).
    public var offset: Int
    /// The sentence, built from the values the throwing site captured, only when it is read: a reader that stops on
    /// damaged input and is never asked why formats nothing.
    @usableFromInline
    let makeMessage: @Sendable () -> String

    @inlinable
    public init(_ kind: ErrorCode, at offset: Int, _ message: @escaping @Sendable @autoclosure () -> String) {
        self.kind = kind
        self.offset = offset
        self.makeMessage = message
    }

    public var message: String { makeMessage() }

    public static func == (lhs: ASN1Error, rhs: ASN1Error) -> Bool {
        lhs.kind == rhs.kind && lhs.offset == rhs.offset && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(offset)
    }

    public var description: String { "\(message) (\(code) at offset \(offset))" }

    /// The same error with its offset translated, e.g. from a reassembled buffer back to the file.
    package func mapOffset(_ transform: (Int) -> Int) -> ASN1Error {
        ASN1Error(kind, at: transform(offset), makeMessage())
    }
}
