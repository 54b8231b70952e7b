import ReceiptASN1

/// Why reading the PKCS#7 container stopped, with the absolute offset; wraps the ASN.1 error when there is one.
public struct PKCS7Error: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: String
    public var offset: Int
    public var message: String
    /// The lower-layer error that stopped the read, when it was an encoding error.
    public var underlying: ASN1Error?

    public init(_ code: String, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
        self.underlying = nil
    }

    public init(_ error: ASN1Error, while context: String) {
        self.code = error.code.rawValue
        self.offset = error.offset
        self.message = "\(error.message) while reading \(context)"
        self.underlying = error
    }

    public var description: String { "\(message) (\(code) at offset \(offset))" }
}
