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
        var failure: Failure?
        // Every four characters make at most three bytes and a last partial quantum at most two: the output is
        // written in place, within this capacity, and cut to what was written.
        let capacity = text.count / 4 * 3 + 2
        decoded.bytes = [UInt8](unsafeUninitializedCapacity: capacity) { out, written in
            written = 0
            var quantum: UInt32 = 0
            var count = 0
            var lastValue: UInt8 = 0
            var relative = -1
            var index = 0
            while index < text.count {
                // Whole quanta of four letters or digits, before any padding (nearly all of any real text): one
                // table lookup a character, one test a quantum. Anything else takes the path below, character by
                // character.
                if count == 0, decoded.paddingOffset == nil {
                    let run = plainQuanta(text, from: index, into: out, at: written, noting: &decoded)
                    if run.quanta > 0 {
                        index += run.quanta * 4
                        written += run.quanta * 3
                        lastValue = run.lastValue
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
                    guard skippingWhitespace else {
                        failure = .invalidCharacter(offset: relative, byte: character)
                        return
                    }
                    continue
                default:
                    failure = .invalidCharacter(offset: relative, byte: character)
                    return
                }
                if decoded.paddingOffset != nil {
                    failure = .dataAfterPadding(offset: relative)
                    return
                }
                lastValue = value
                quantum = quantum << 6 | UInt32(value)
                count += 1
                if count == 4 {
                    append(quantum, count: 3, shift: 0, to: out, at: &written)
                    quantum = 0
                    count = 0
                }
            }
            decoded.remainder = count
            switch count {
            case 0:
                break
            case 2:
                append(quantum, count: 1, shift: 4, to: out, at: &written)
                decoded.nonZeroTrailingBits = lastValue & 0x0F != 0
            case 3:
                append(quantum, count: 2, shift: 2, to: out, at: &written)
                decoded.nonZeroTrailingBits = lastValue & 0x03 != 0
            default:
                failure = .impossibleLength
            }
        }
        if let failure { return .failure(failure) }
        return .success(decoded)
    }

    /// Writes the top `count` bytes of the `(count + 1) * 6`-bit `quantum >> shift` at `written`, when they fit.
    private static func append(
        _ quantum: UInt32, count: Int, shift: UInt32, to out: UnsafeMutableBufferPointer<UInt8>, at written: inout Int
    ) {
        guard written + count <= out.count else { return }
        let value = quantum >> shift
        for byte in 0..<count {
            out[written + byte] = UInt8(truncatingIfNeeded: value >> UInt32(8 * (count - 1 - byte)))
        }
        written += count
    }

    /// Decodes the quanta of four characters of one alphabet that stand from `start` (as many as fit in `out` from
    /// `written`), writing three bytes each: how many, and the last character's value. The first `-` or `_` and the
    /// first `+` or `/` are noted in `decoded`; a quantum that mixes the two alphabets, or holds anything else, ends
    /// the run.
    @inline(__always)
    private static func plainQuanta(
        _ text: UnsafeBufferPointer<UInt8>, from start: Int, into out: UnsafeMutableBufferPointer<UInt8>,
        at written: Int, noting decoded: inout Decoded
    ) -> (quanta: Int, lastValue: UInt8) {
        let most = min((text.count - start) / 4, (out.count - written) / 3)
        guard most > 0 else { return (0, 0) }
        return values.withUnsafeBufferPointer { values in
            var quanta = 0
            var lastValue: UInt8 = 0
            var at = start
            var to = written
            while quanta < most {
                let first = values[Int(text[at])]
                let second = values[Int(text[at + 1])]
                let third = values[Int(text[at + 2])]
                let fourth = values[Int(text[at + 3])]
                let marks = first | second | third | fourth
                if marks > 0x3F {
                    guard marks & 0x1C0 == urlMark || marks & 0x1C0 == standardMark else { break }
                    if marks & urlMark != 0, decoded.urlOffset == nil {
                        decoded.urlOffset = at + firstMarked(first, second, third, urlMark)
                    }
                    if marks & standardMark != 0, decoded.standardOffset == nil {
                        decoded.standardOffset = at + firstMarked(first, second, third, standardMark)
                    }
                }
                let quantum =
                    UInt32(first & 0x3F) << 18 | UInt32(second & 0x3F) << 12 | UInt32(third & 0x3F) << 6
                    | UInt32(fourth & 0x3F)
                out[to] = UInt8(truncatingIfNeeded: quantum >> 16)
                out[to + 1] = UInt8(truncatingIfNeeded: quantum >> 8)
                out[to + 2] = UInt8(truncatingIfNeeded: quantum)
                lastValue = UInt8(truncatingIfNeeded: fourth & 0x3F)
                at += 4
                to += 3
                quanta += 1
            }
            return (quanta, lastValue)
        }
    }

    /// Which of a quantum's four characters is the first to carry `mark` (the fourth when none of the first three).
    @inline(__always)
    private static func firstMarked(_ first: UInt16, _ second: UInt16, _ third: UInt16, _ mark: UInt16) -> Int {
        first & mark != 0 ? 0 : second & mark != 0 ? 1 : third & mark != 0 ? 2 : 3
    }

    private static let urlMark: UInt16 = 0x40
    private static let standardMark: UInt16 = 0x80
    private static let notBase64: UInt16 = 0x100

    /// Each byte's value as a base64 character (0–63) in its low six bits, with `urlMark` for `-` and `_`,
    /// `standardMark` for `+` and `/`, and `notBase64` for every byte no alphabet has (`=` and white space
    /// included: they take the character-by-character path).
    private static let values: [UInt16] = {
        var values = [UInt16](repeating: notBase64, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() {
            values[Int(character)] = UInt16(value)
        }
        values[Int(UInt8(ascii: "-"))] = 62 | urlMark
        values[Int(UInt8(ascii: "_"))] = 63 | urlMark
        values[Int(UInt8(ascii: "+"))] = 62 | standardMark
        values[Int(UInt8(ascii: "/"))] = 63 | standardMark
        return values
    }()

    /// The text of `bytes` in `alphabet`, with `=` padding when `padded`.
    public static func encode<Bytes: Collection>(_ bytes: Bytes, alphabet: Alphabet, padded: Bool) -> String
    where Bytes.Element == UInt8 {
        // One non-generic loop over contiguous bytes, as `decode`.
        if let text = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0, alphabet: alphabet, padded: padded) })
        {
            return text
        }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0, alphabet: alphabet, padded: padded) }
    }

    static func encode(buffer bytes: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, padded: Bool) -> String {
        let table = alphabet == .standard ? standardLetters : urlLetters
        let whole = bytes.count / 3 * 3
        let rest = bytes.count - whole
        let length = whole / 3 * 4 + (rest == 0 ? 0 : padded ? 4 : rest + 1)
        return table.withUnsafeBufferPointer { letters in
            String(unsafeUninitializedCapacity: length) { out in
                var written = 0
                var index = 0
                while index < whole {
                    let quantum = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                    out[written] = letters[Int(quantum >> 18 & 0x3F)]
                    out[written + 1] = letters[Int(quantum >> 12 & 0x3F)]
                    out[written + 2] = letters[Int(quantum >> 6 & 0x3F)]
                    out[written + 3] = letters[Int(quantum & 0x3F)]
                    written += 4
                    index += 3
                }
                if rest > 0 {
                    let second = rest == 2 ? UInt32(bytes[index + 1]) : 0
                    let quantum = UInt32(bytes[index]) << 16 | second << 8
                    out[written] = letters[Int(quantum >> 18 & 0x3F)]
                    out[written + 1] = letters[Int(quantum >> 12 & 0x3F)]
                    written += 2
                    if rest == 2 {
                        out[written] = letters[Int(quantum >> 6 & 0x3F)]
                        written += 1
                    }
                    if padded {
                        for _ in rest..<3 {
                            out[written] = UInt8(ascii: "=")
                            written += 1
                        }
                    }
                }
                return written
            }
        }
    }

    private static let standardLetters = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlLetters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
