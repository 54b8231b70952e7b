/// A strict base64 decoder (RFC 4648, standard or URL-safe alphabet) that skips ASCII whitespace, written without
/// Foundation so the input layer can be fuzzed with the parsers.
public enum Base64 {
    /// The decoded bytes, or nil when the text is not base64 (bad character, bad length, bad padding).
    public static func decode<Bytes: Collection>(_ text: Bytes) -> [UInt8]? where Bytes.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var quantum: UInt32 = 0
        var count = 0
        var padding = 0
        for character in text {
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            default:
                return nil
            }
            guard padding == 0 else { return nil }  // data after padding
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
            guard padding == 0 else { return nil }
        case 2:
            guard padding == 0 || padding == 2 else { return nil }
            output.append(UInt8(truncatingIfNeeded: quantum >> 4))
        case 3:
            guard padding == 0 || padding == 1 else { return nil }
            output.append(UInt8(truncatingIfNeeded: quantum >> 10))
            output.append(UInt8(truncatingIfNeeded: quantum >> 2))
        default:
            return nil
        }
        return output
    }

    /// Standard base64 with padding, no line breaks.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let quantum = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(alphabet[Int(quantum >> 18 & 0x3F)])
            out.append(alphabet[Int(quantum >> 12 & 0x3F)])
            out.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(quantum >> 6 & 0x3F)])
            out.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(quantum & 0x3F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
