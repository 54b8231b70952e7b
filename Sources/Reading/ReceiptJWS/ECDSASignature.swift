/// ES256 signatures in their two spellings: JOSE's raw `r ‖ s` (32 + 32 octets, RFC 7518 §3.4) and the DER
/// `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` OpenSSL verifies; and the P-256 order, for the high-S
/// test (s > n/2: the same signature's twin n − s verifies too).
package enum ECDSASignature {
    /// The order n of P-256, big-endian.
    package static let p256Order: [UInt8] = hexBytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
    /// ⌊n/2⌋.
    static let p256HalfOrder: [UInt8] = hexBytes("7FFFFFFF800000007FFFFFFFFFFFFFFFDE737D56D38BCF4279DCE5617E3192A8")

    /// The DER form of a 64-octet raw signature; nil for any other length.
    package static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var magnitude = Array(bytes.drop { $0 == 0 })
            if magnitude.isEmpty { magnitude = [0] }
            if magnitude[0] & 0x80 != 0 { magnitude.insert(0, at: 0) }
            return [0x02, UInt8(magnitude.count)] + magnitude
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    /// The raw form of a DER `ECDSA-Sig-Value` whose integers fit 32 octets, when `bytes` is exactly one such
    /// value (short-form lengths, as every P-256 signature has); nil otherwise.
    package static func raw(fromDER bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 8, bytes.count <= 72, bytes[0] == 0x30, Int(bytes[1]) == bytes.count - 2 else {
            return nil
        }
        var position = 2
        var parts: [[UInt8]] = []
        for _ in 0..<2 {
            guard position + 2 <= bytes.count, bytes[position] == 0x02 else { return nil }
            let length = Int(bytes[position + 1])
            guard length >= 1, length <= 33, position + 2 + length <= bytes.count else { return nil }
            var value = Array(bytes[position + 2..<position + 2 + length])
            while value.count > 32, value.first == 0 { value.removeFirst() }
            guard value.count <= 32 else { return nil }
            parts.append([UInt8](repeating: 0, count: 32 - value.count) + value)
            position += 2 + length
        }
        guard position == bytes.count else { return nil }
        return parts[0] + parts[1]
    }

    /// Whether the raw signature's s is above n/2.
    package static func isHighS(_ raw: [UInt8]) -> Bool {
        guard raw.count == 64 else { return false }
        return compare(Array(raw[32..<64]), p256HalfOrder) > 0
    }

    /// The raw signature with s replaced by n − s: the other valid signature of the same message.
    package static func negatingS(_ raw: [UInt8]) -> [UInt8] {
        guard raw.count == 64 else { return raw }
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var difference = Int(p256Order[index]) - Int(raw[32 + index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            result[index] = UInt8(difference)
        }
        return Array(raw[0..<32]) + result
    }

    /// Big-endian comparison of two equal-length magnitudes.
    static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        for (left, right) in zip(lhs, rhs) where left != right { return left < right ? -1 : 1 }
        return 0
    }

    static func hexBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var pending: UInt8?
        for character in text.utf8 {
            let value: UInt8 = character <= 0x39 ? character - 0x30 : (character | 0x20) - 0x61 + 10
            if let high = pending {
                bytes.append(high << 4 | value)
                pending = nil
            } else {
                pending = value
            }
        }
        return bytes
    }
}
