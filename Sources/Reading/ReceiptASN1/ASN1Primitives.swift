/// Decoders for primitive contents. Each takes the content range of a node in `bytes` and never traps.
public enum ASN1Primitives {
    /// An INTEGER that fits in 64 bits, or nil when it does not (or is empty).
    /// Whether two element encodings stand in DER `SET OF` order (X.690 §11.6: compared as octet strings).
    package static func isDEROrdered(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
        !rhs.lexicographicallyPrecedes(lhs) || lhs.starts(with: rhs) && lhs.dropFirst(rhs.count).allSatisfy { $0 == 0 }
    }

    package static func int64(_ bytes: [UInt8], _ range: Range<Int>) -> Int64? {
        bytes.withUnsafeBufferPointer { int64($0, range) }
    }

    /// The same, over a borrowed buffer (the payload's hot path).
    @inlinable @inline(__always)
    package static func int64(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        guard !range.isEmpty, range.count <= 8, range.lowerBound >= 0, range.upperBound <= buffer.count else {
            return nil
        }
        var value: Int64 = buffer[range.lowerBound] >= 0x80 ? -1 : 0
        var index = range.lowerBound
        while index < range.upperBound {
            value = value &<< 8 | Int64(buffer[index])
            index &+= 1
        }
        return value
    }

    /// Whether an INTEGER's content has a redundant leading 0x00 or 0xFF octet (forbidden by X.690 §8.3.2).
    package static func isNonMinimalInteger(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { isNonMinimalInteger($0, range) }
    }

    /// The same, over a borrowed buffer.
    @inlinable @inline(__always)
    package static func isNonMinimalInteger(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count >= 2, range.lowerBound >= 0, range.upperBound <= buffer.count else { return false }
        let first = buffer[range.lowerBound]
        let second = buffer[range.lowerBound + 1]
        return (first == 0x00 && second < 0x80) || (first == 0xFF && second >= 0x80)
    }

    /// Writes `magnitude` in decimal at `out`, zero-padded to `minimumDigits`, and returns how many bytes it wrote
    /// (at most `max(20, minimumDigits)`; the caller makes room). Shared by the JSON writer and date formatting,
    /// which both build text in raw buffers. The digit count comes from the bit length, the digits two at a time.
    @inlinable
    package static func writeDecimal(
        _ magnitude: UInt64, minimumDigits: Int = 1,
        to out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        // floor(log10(2) × bit length) is the digit count or one less (1233 / 4096 ≈ log10 2, exact enough for 64
        // bits); one comparison with the power of ten settles it.
        var digits = ((64 &- magnitude.leadingZeroBitCount) &* 1233) >> 12
        if digits < 20 && magnitude >= powerOfTen(digits) { digits &+= 1 }
        let width = Swift.max(digits, minimumDigits, 1)
        var remaining = magnitude
        var position = width
        digitPairs.withUTF8Buffer { pairs in
            while remaining >= 100 {
                let pair = Int(truncatingIfNeeded: remaining % 100) &* 2
                remaining /= 100
                position &-= 2
                out[position] = pairs[pair]
                out[position &+ 1] = pairs[pair &+ 1]
            }
            if remaining >= 10 {
                let pair = Int(truncatingIfNeeded: remaining) &* 2
                position &-= 2
                out[position] = pairs[pair]
                out[position &+ 1] = pairs[pair &+ 1]
            } else {
                position &-= 1
                out[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining)
            }
        }
        while position > 0 {
            position &-= 1
            out[position] = UInt8(ascii: "0")
        }
        return width
    }

    /// "00" "01" … "99": the decimal digits of 0–99 in pairs.
    @usableFromInline
    static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// 10 to the power `exponent` (0–19; a switch the compiler makes a table of).
    @inlinable @inline(__always)
    static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        case 9: return 1_000_000_000
        case 10: return 10_000_000_000
        case 11: return 100_000_000_000
        case 12: return 1_000_000_000_000
        case 13: return 10_000_000_000_000
        case 14: return 100_000_000_000_000
        case 15: return 1_000_000_000_000_000
        case 16: return 10_000_000_000_000_000
        case 17: return 100_000_000_000_000_000
        case 18: return 1_000_000_000_000_000_000
        default: return 10_000_000_000_000_000_000
        }
    }

    /// An OBJECT IDENTIFIER in dotted form, or nil when the content is not a valid encoding (empty, an arc that
    /// starts with 0x80, a last arc cut short). An arc may be any size, as X.690 and OpenSSL allow: one beyond 64
    /// bits is written in decimal when the content is at most `longestDecimalObjectIdentifier` octets, else in
    /// hexadecimal (`0x…`), since its decimal digits cost time quadratic in its length.
    public static func objectIdentifier(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= bytes.count,
            bytes[range.upperBound - 1] & 0x80 == 0
        else { return nil }
        // The dotted text is written as it is read, arc by arc, into one byte buffer: no array of arcs, no
        // interpolated string per arc.
        var text: [UInt8] = []
        text.reserveCapacity(range.count * 3 + 4)
        var value: UInt64 = 0
        var isLarge = false
        var arcStart = range.lowerBound
        var startOfArc = true
        var isFirstArc = true
        for index in range {
            let octet = bytes[index]
            if startOfArc {
                if octet == 0x80 { return nil }
                arcStart = index
            }
            if value > (UInt64.max >> 7) { isLarge = true }
            value = value << 7 | UInt64(octet & 0x7F)
            startOfArc = octet & 0x80 == 0
            guard startOfArc else { continue }
            if !isFirstArc { text.append(UInt8(ascii: ".")) }
            if isLarge {
                // Beyond 2^64, so past 80: the first arc is 2 and the second the rest.
                if isFirstArc { text += Array("2.".utf8) }
                let arc = ObjectIdentifierArc(septets: bytes[arcStart...index], minus: isFirstArc ? 80 : 0)
                text += range.count <= longestDecimalObjectIdentifier ? arc.decimal : arc.hexadecimal
            } else if isFirstArc {
                let top: UInt64 = value < 40 ? 0 : value < 80 ? 1 : 2
                appendDecimal(top, to: &text)
                text.append(UInt8(ascii: "."))
                appendDecimal(value - top * 40, to: &text)
            } else {
                appendDecimal(value, to: &text)
            }
            value = 0
            isLarge = false
            isFirstArc = false
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The longest OBJECT IDENTIFIER content whose arcs beyond 64 bits are written in decimal: OpenSSL's limit for
    /// writing one as text at all (`OBJ_obj2txt`, since CVE-2023-2650).
    public static let longestDecimalObjectIdentifier = 586

    /// Appends the decimal digits of `value`.
    private static func appendDecimal(_ value: UInt64, to text: inout [UInt8]) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor &*= 10 }  // at most 10^19, below UInt64.max
        while divisor > 0 {
            text.append(UInt8(truncatingIfNeeded: value / divisor % 10) &+ 0x30)
            divisor /= 10
        }
    }

    /// A BOOLEAN: nil unless the content is exactly one octet. Any non-zero octet is true (BER).
    public static func boolean(_ bytes: [UInt8], _ range: Range<Int>) -> Bool? {
        guard range.count == 1, range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        return bytes[range.lowerBound] != 0
    }

    /// UTF-8 text, or nil when the bytes are not valid UTF-8.
    public static func utf8String(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        return String(validating: bytes[range], as: UTF8.self)
    }

    /// ASCII text (IA5String, PrintableString), or nil when a byte is above 0x7F.
    package static func asciiString(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        for index in range where bytes[index] >= 0x80 {
            return nil
        }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// Lowercase hexadecimal of the bytes in `range`.
    /// The octets of a string read in `segments` of `bytes` (`ASN1Reader.stringSegments`), joined; a segment outside
    /// `bytes` is left out. One segment is a slice of `bytes`, not a copy.
    package static func joined(_ segments: [Range<Int>], in bytes: [UInt8]) -> ArraySlice<UInt8> {
        let inBounds = segments.filter { $0.lowerBound >= 0 && $0.upperBound <= bytes.count }
        if inBounds.count == 1, let only = inBounds.first { return bytes[only] }
        var joined: [UInt8] = []
        for segment in inBounds { joined.append(contentsOf: bytes[segment]) }
        return joined[...]
    }

    public static func hex(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return "" }
        return hex(bytes[range])
    }

    /// Lowercase hexadecimal of a slice.
    public static func hex(_ bytes: ArraySlice<UInt8>) -> String { bytes.withUnsafeBufferPointer(hex(buffer:)) }

    /// Lowercase hexadecimal of `bytes`.
    public static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.withContiguousStorageIfAvailable(hex(buffer:)) ?? Array(bytes).withUnsafeBufferPointer(hex(buffer:))
    }

    /// The one hexadecimal writer: two digits a byte, straight into the string's storage.
    private static func hex(buffer bytes: UnsafeBufferPointer<UInt8>) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: bytes.count * 2) { output in
            digits.withUTF8Buffer { table in
                var position = 0
                for byte in bytes {
                    output[position] = table[Int(byte >> 4)]
                    output[position + 1] = table[Int(byte & 0x0F)]
                    position += 2
                }
            }
            return bytes.count * 2
        }
    }

    /// The value of one hexadecimal digit (either case), or nil: the one digit reader of every module (JSON's
    /// `\u` escapes, percent-escapes in pasted text).
    @inlinable
    package static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Bytes from hexadecimal text (whitespace and colons ignored), or nil when it is not hex.
    public static func bytes(fromHex text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var high: UInt8?
        for character in text.utf8 {
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: ":"): continue
            default: return nil
            }
            if let pending = high {
                out.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? out : nil
    }
}
