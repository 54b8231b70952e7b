import ReceiptASN1
import ReceiptDiagnostics

/// Why reading the PKCS#7 container stopped, with the absolute offset; wraps the ASN.1 error when there is one.
public struct PKCS7Error: Error, Sendable, Hashable, CustomStringConvertible {
    public var kind: ErrorCode
    /// The stable kebab-case code (`kind`'s raw value).
    public var code: String { kind.rawValue }
    public var offset: Int
    public var message: String
    /// The lower-layer error that stopped the read, when it was an encoding error.
    package var underlying: ASN1Error?

    public init(_ kind: ErrorCode, at offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
        self.underlying = nil
    }

    public init(_ error: ASN1Error, while context: String) {
        self.kind = error.kind
        self.offset = error.offset
        self.message = "\(error.message) while reading \(context)"
        self.underlying = error
    }

    public var description: String { "\(message) (\(code) at offset \(offset))" }
}
