/// A set of ASCII byte values: the character classes the input readers scan by (base64's alphabets, a JWS token's, a
/// form key's). Each is written as its definition, ranges and single characters (`"A-Za-z0-9+/="`; a `-` that
/// stands for itself comes last), so no class is spelled twice as a `switch`. No byte above 0x7F is ever a member.
package struct ByteSet: Sendable, Hashable {
    @usableFromInline let low: UInt64
    @usableFromInline let high: UInt64

    /// The bytes `definition` names: `a-z` a range, any other character itself.
    package init(_ definition: StaticString) {
        let characters = definition.withUTF8Buffer { Array($0) }
        var low: UInt64 = 0
        var high: UInt64 = 0
        var index = 0
        while index < characters.count {
            var last = characters[index]
            let first = last
            if index + 2 < characters.count, characters[index + 1] == UInt8(ascii: "-") {
                last = characters[index + 2]
                index += 3
            } else {
                index += 1
            }
            guard first <= last else { continue }
            for byte in first...last where byte < 0x80 {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
        }
        self.low = low
        self.high = high
    }

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    @inlinable
    package func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low >> UInt64(byte) & 1 == 1 }
        if byte < 128 { return high >> UInt64(byte - 64) & 1 == 1 }
        return false
    }

    /// The bytes of either set.
    package func union(_ other: ByteSet) -> ByteSet { ByteSet(low: low | other.low, high: high | other.high) }

    /// The bytes of this set that are not in `other`.
    package func subtracting(_ other: ByteSet) -> ByteSet { ByteSet(low: low & ~other.low, high: high & ~other.high) }

    /// Base64 as RFC 4648 §4 writes it, with its `=` padding.
    package static let standardBase64 = ByteSet("A-Za-z0-9+/=")
    /// Base64url as RFC 4648 §5 writes it, unpadded.
    package static let base64URL = ByteSet("A-Za-z0-9_-")
    /// Either base64 alphabet, with padding: what a pasted receipt may be written in.
    package static let anyBase64 = standardBase64.union(base64URL)
    /// ASCII white space as base64 and pasted text have it: space, tab, line feed, carriage return.
    package static let whitespace = ByteSet(" \t\n\r")
}
