import ReceiptASN1

/// A strict base64 decoder (RFC 4648, standard or URL-safe alphabet) that skips ASCII whitespace, written without
/// Foundation so the input layer can be fuzzed with the parsers.
public enum Base64 {
    /// The decoded bytes, or nil when the text is not base64 (bad character, bad length, bad padding).
    public static func decode<Bytes: Collection>(_ text: Bytes) -> [UInt8]? where Bytes.Element == UInt8 {
        guard case .success(let decoded) = Base64Codec.decode(text, skippingWhitespace: true) else { return nil }
        // Padding, when present, completes the last quantum exactly.
        switch (decoded.remainder, decoded.paddingCount) {
        case (_, 0), (2, 2), (3, 1): return decoded.bytes
        default: return nil
        }
    }

    /// Standard base64 with padding, no line breaks.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Base64Codec.encode(bytes, alphabet: .standard, padded: true)
    }
}
