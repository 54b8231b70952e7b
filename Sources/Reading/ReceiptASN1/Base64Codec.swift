/// The one base64 engine (RFC 4648 §4 and §5): decodes either alphabet, reporting what was not canonical, and
/// encodes either alphabet, padded or not. The policies on top of it live with their users: the lenient reader of
/// pasted receipts (`Base64` in ReceiptModel) and the strict base64url of JWS (`Base64URL` in ReceiptJWS).
public enum Base64Codec {
    public enum Alphabet: Sendable { case standard, url }

    /// What a decoded text held besides the data.
    public struct Decoded: Sendable, Hashable {
        public var bytes: [UInt8]
        /// Offset (in the text) of the first `=`, and how many there were.
        package var paddingOffset: Int?
        package var paddingCount = 0
        /// Offset of the first `+` or `/` (standard alphabet), and of the first `-` or `_` (URL alphabet).
        package var standardOffset: Int?
        package var urlOffset: Int?
        /// The last character carries bits decoding drops (a second spelling of the same bytes).
        package var nonZeroTrailingBits = false
        /// Data characters in the last, incomplete quantum (0, 2 or 3).
        package var remainder = 0
    }

    /// Why a text is not base64 at all.
    public enum Failure: Error, Sendable, Hashable {
        /// A character no base64 alphabet has, at this offset in the text.
        case invalidCharacter(offset: Int, byte: UInt8)
        /// A length that leaves one character over (no byte is six bits).
        case impossibleLength
        /// Data after `=` padding.
        case dataAfterPadding(offset: Int)
    }

    /// Decodes `text` in either alphabet, padding optional, skipping ASCII white space when asked.
    public static func decode<Text: Collection>(_ text: Text, skippingWhitespace: Bool) -> Result<Decoded, Failure>
    where Text.Element == UInt8 {
        // One non-generic loop over contiguous bytes (arrays and their slices): a generic loop across the module
        // boundary walks each byte through witness calls.
        if let result = text.withContiguousStorageIfAvailable({
            decode(buffer: $0, skippingWhitespace: skippingWhitespace)
        }) {
            return result
        }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0, skippingWhitespace: skippingWhitespace) }
    }

    static func decode(buffer text: UnsafeBufferPointer<UInt8>, skippingWhitespace: Bool) -> Result<Decoded, Failure> {
        var decoded = Decoded(bytes: [])
        decoded.bytes.reserveCapacity(text.count / 4 * 3 + 2)
        var quantum: UInt32 = 0
        var count = 0
        var lastValue: UInt8 = 0
        var relative = -1
        var index = 0
        let plain = plainValues
        while index < text.count {
            // Four letters or digits at a quantum's start, before any padding (nearly all of any real text): one
            // table lookup each. Anything else takes the path below, character by character.
            if count == 0, decoded.paddingOffset == nil, text.count - index >= 4 {
                let first = plain[Int(text[index])]
                let second = plain[Int(text[index + 1])]
                let third = plain[Int(text[index + 2])]
                let fourth = plain[Int(text[index + 3])]
                if first | second | third | fourth < 64 {
                    let quantum = UInt32(first) << 18 | UInt32(second) << 12 | UInt32(third) << 6 | UInt32(fourth)
                    decoded.bytes.append(UInt8(truncatingIfNeeded: quantum >> 16))
                    decoded.bytes.append(UInt8(truncatingIfNeeded: quantum >> 8))
                    decoded.bytes.append(UInt8(truncatingIfNeeded: quantum))
                    lastValue = fourth
                    index += 4
                    relative = index - 1
                    continue
                }
            }
            let character = text[index]
            index += 1
            relative += 1
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"), UInt8(ascii: "_"):
                if decoded.urlOffset == nil { decoded.urlOffset = relative }
                value = character == UInt8(ascii: "-") ? 62 : 63
            case UInt8(ascii: "+"), UInt8(ascii: "/"):
                if decoded.standardOffset == nil { decoded.standardOffset = relative }
                value = character == UInt8(ascii: "+") ? 62 : 63
            case UInt8(ascii: "="):
                if decoded.paddingOffset == nil { decoded.paddingOffset = relative }
                decoded.paddingCount += 1
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                // (A `where` clause would guard only the last pattern of the case: the test is in the body.)
                guard skippingWhitespace else { return .failure(.invalidCharacter(offset: relative, byte: character)) }
                continue
            default:
                return .failure(.invalidCharacter(offset: relative, byte: character))
            }
            if decoded.paddingOffset != nil { return .failure(.dataAfterPadding(offset: relative)) }
            lastValue = value
            quantum = quantum << 6 | UInt32(value)
            count += 1
            if count == 4 {
                decoded.bytes.append(UInt8(truncatingIfNeeded: quantum >> 16))
                decoded.bytes.append(UInt8(truncatingIfNeeded: quantum >> 8))
                decoded.bytes.append(UInt8(truncatingIfNeeded: quantum))
                quantum = 0
                count = 0
            }
        }
        decoded.remainder = count
        switch count {
        case 0:
            break
        case 2:
            decoded.bytes.append(UInt8(truncatingIfNeeded: quantum >> 4))
            decoded.nonZeroTrailingBits = lastValue & 0x0F != 0
        case 3:
            decoded.bytes.append(UInt8(truncatingIfNeeded: quantum >> 10))
            decoded.bytes.append(UInt8(truncatingIfNeeded: quantum >> 2))
            decoded.nonZeroTrailingBits = lastValue & 0x03 != 0
        default:
            return .failure(.impossibleLength)
        }
        return .success(decoded)
    }

    /// The value of each letter and digit (both alphabets agree on them); 0xFF for every other byte.
    private static let plainValues: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() {
            values[Int(character)] = UInt8(value)
        }
        return values
    }()

    /// The text of `bytes` in `alphabet`, with `=` padding when `padded`.
    public static func encode<Bytes: Collection>(_ bytes: Bytes, alphabet: Alphabet, padded: Bool) -> String
    where Bytes.Element == UInt8 {
        let table = Array(
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                + (alphabet == .standard ? "+/" : "-_")).utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = second == nil ? nil : iterator.next()
            let quantum = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(table[Int(quantum >> 18 & 0x3F)])
            out.append(table[Int(quantum >> 12 & 0x3F)])
            if second != nil {
                out.append(table[Int(quantum >> 6 & 0x3F)])
            } else if padded {
                out.append(UInt8(ascii: "="))
            }
            if third != nil { out.append(table[Int(quantum & 0x3F)]) } else if padded { out.append(UInt8(ascii: "=")) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
