import ReceiptDiagnostics

/// An error from ReceiptCrypto: a stable machine-readable code, a human message and the OpenSSL errors behind it.
public struct CryptoError: Error, Sendable, CustomStringConvertible, Equatable {
    /// Why, from the one `ErrorCode` table (layer `crypto`).
    public var kind: ErrorCode
    /// The stable kebab-case code (`kind`'s raw value), e.g. "certificate-decode-failed".
    public var code: String { kind.rawValue }
    /// Explanation for a person; not stable, do not match on it.
    public var message: String
    /// The OpenSSL error queue at the time of failure, as `ERR_error_string_n` formats each entry, oldest first.
    package var openSSLErrors: [String]

    /// Creates an error from its parts.
    public init(_ kind: ErrorCode, message: String, openSSLErrors: [String] = []) {
        self.kind = kind
        self.message = message
        self.openSSLErrors = openSSLErrors
    }

    /// One line: "code: message", followed by the OpenSSL errors in brackets when there are any.
    public var description: String {
        if openSSLErrors.isEmpty {
            return "\(code): \(message)"
        }
        return "\(code): \(message) [\(openSSLErrors.joined(separator: "; "))]"
    }
}

extension CryptoError {
    /// An error with the given code and message that takes (and clears) the calling thread's OpenSSL error queue.
    static func openSSL(_ kind: ErrorCode, _ message: String) -> CryptoError {
        CryptoError(kind, message: message, openSSLErrors: OpenSSLErrorQueue.drain())
    }
}
