import ReceiptASN1

/// Base64url as JWS uses it (RFC 4648 §5, RFC 7515 §2): decodes what lenient decoders decode (`Base64Codec`) and
/// reports every departure from the canonical form, so a token two readers see differently is visible.
public enum Base64URL {
    /// What was not canonical about a segment: each is accepted by some decoders and refused by others.
    public struct Anomalies: Sendable, Hashable {
        /// Offset (in the text) of the first `=`, when the segment is padded.
        package var padding: Int?
        /// Offset of the first `+` or `/` (the standard alphabet, not URL-safe).
        package var standardAlphabet: Int?
        /// The last character carries bits that decoding drops (a second spelling of the same bytes).
        package var nonZeroTrailingBits: Bool = false
        /// The padding is not what base64 writes (the text a multiple of four characters, one or two `=`): a strict
        /// reader, as Apple's libraries' JWT reader, refuses it.
        package var irregularPadding: Bool = false

        package var isEmpty: Bool { padding == nil && standardAlphabet == nil && !nonZeroTrailingBits }
    }

    public typealias Failure = Base64Codec.Failure

    /// Decodes `text` (either alphabet, padding optional, no white space), noting anomalies.
    public static func decode(_ text: ArraySlice<UInt8>) -> Result<(bytes: [UInt8], anomalies: Anomalies), Failure> {
        Base64Codec.decode(text, skippingWhitespace: false).map { decoded in
            (
                decoded.bytes,
                Anomalies(
                    padding: decoded.paddingOffset, standardAlphabet: decoded.standardOffset,
                    nonZeroTrailingBits: decoded.nonZeroTrailingBits,
                    irregularPadding: decoded.paddingCount > 0 && (text.count % 4 != 0 || decoded.paddingCount > 2))
            )
        }
    }

    /// The canonical base64url text of `bytes`: URL-safe alphabet, no padding.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Base64Codec.encode(bytes, alphabet: .url, padded: false)
    }

    /// The offset in a segment's text of the character that carries decoded byte `index` (its first bits).
    package static func textOffset(ofDecodedByte index: Int) -> Int { index / 3 * 4 + index % 3 }
}
