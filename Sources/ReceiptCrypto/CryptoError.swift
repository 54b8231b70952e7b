/// An error from ReceiptCrypto: a stable machine-readable code, a human message and the OpenSSL errors behind it.
public struct CryptoError: Error, Sendable, CustomStringConvertible, Equatable {
    /// Stable kebab-case identifier of the failure, e.g. "certificate-decode-failed".
    ///
    /// Codes in use: "certificate-decode-failed", "certificate-issue-failed", "key-decode-failed",
    /// "key-generation-failed", "key-encode-failed", "signing-failed", and "digest-failed" (OpenSSL could not hash at
    /// all: out of memory or no default provider; never caused by input).
    public var code: String
    /// Explanation for a person; not stable, do not match on it.
    public var message: String
    /// The OpenSSL error queue at the time of failure, as `ERR_error_string_n` formats each entry, oldest first.
    public var openSSLErrors: [String]

    /// Creates an error from its parts.
    public init(code: String, message: String, openSSLErrors: [String] = []) {
        self.code = code
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
    static func openSSL(_ code: String, _ message: String) -> CryptoError {
        CryptoError(code: code, message: message, openSSLErrors: OpenSSLErrorQueue.drain())
    }
}
