/// A strict base64url decoder (RFC 4648 §5, as JWS uses it: RFC 7515 §2) that decodes what lenient decoders decode
/// and reports every departure from the canonical form, so a token two readers see differently is visible.
public enum Base64URL {
    /// What was not canonical about a segment: each is accepted by some decoders and refused by others.
    public struct Anomalies: Sendable, Hashable {
        /// Offset (in the text) of the first `=`, when the segment is padded.
        public var padding: Int?
        /// Offset of the first `+` or `/` (the standard alphabet, not URL-safe).
        public var standardAlphabet: Int?
        /// The last character carries bits that decoding drops (a second spelling of the same bytes).
        public var nonZeroTrailingBits: Bool = false

        public var isEmpty: Bool { padding == nil && standardAlphabet == nil && !nonZeroTrailingBits }
    }

    /// Why a segment is not base64url at all.
    public enum Failure: Error, Sendable, Hashable {
        /// A character no base64 alphabet has, at this offset in the text.
        case invalidCharacter(offset: Int, byte: UInt8)
        /// A length that leaves one character over (no byte is six bits).
        case impossibleLength
        /// Data after `=` padding.
        case dataAfterPadding(offset: Int)
    }

    /// Decodes `text` (either alphabet, padding optional), noting anomalies.
    public static func decode(_ text: ArraySlice<UInt8>) -> Result<(bytes: [UInt8], anomalies: Anomalies), Failure> {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3 + 2)
        var anomalies = Anomalies()
        var quantum: UInt32 = 0
        var count = 0
        var lastValue: UInt8 = 0
        for (position, character) in zip(text.indices, text) {
            let relative = position - text.startIndex
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "+"), UInt8(ascii: "/"):
                if anomalies.standardAlphabet == nil { anomalies.standardAlphabet = relative }
                value = character == UInt8(ascii: "+") ? 62 : 63
            case UInt8(ascii: "="):
                if anomalies.padding == nil { anomalies.padding = relative }
                continue
            default:
                return .failure(.invalidCharacter(offset: relative, byte: character))
            }
            if anomalies.padding != nil { return .failure(.dataAfterPadding(offset: relative)) }
            lastValue = value
            quantum = quantum << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output.append(UInt8(truncatingIfNeeded: quantum >> 16))
                output.append(UInt8(truncatingIfNeeded: quantum >> 8))
                output.append(UInt8(truncatingIfNeeded: quantum))
                quantum = 0
                count = 0
            }
        }
        switch count {
        case 0:
            break
        case 2:
            output.append(UInt8(truncatingIfNeeded: quantum >> 4))
            anomalies.nonZeroTrailingBits = lastValue & 0x0F != 0
        case 3:
            output.append(UInt8(truncatingIfNeeded: quantum >> 10))
            output.append(UInt8(truncatingIfNeeded: quantum >> 2))
            anomalies.nonZeroTrailingBits = lastValue & 0x03 != 0
        default:
            return .failure(.impossibleLength)
        }
        return .success((output, anomalies))
    }

    /// The canonical base64url text of `bytes`: URL-safe alphabet, no padding.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let quantum = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(alphabet[Int(quantum >> 18 & 0x3F)])
            out.append(alphabet[Int(quantum >> 12 & 0x3F)])
            if second != nil { out.append(alphabet[Int(quantum >> 6 & 0x3F)]) }
            if third != nil { out.append(alphabet[Int(quantum & 0x3F)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The offset in a segment's text of the character that carries decoded byte `index` (its first bits).
    public static func textOffset(ofDecodedByte index: Int) -> Int { index / 3 * 4 + index % 3 }
}
