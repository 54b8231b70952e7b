/// One arc of an OBJECT IDENTIFIER too large for 64 bits, written out exactly: its value is the 7-bit groups of its
/// octets, most significant first, less `minus` (80 for the first arc, which also holds the top arc 2).
struct ObjectIdentifierArc {
    /// The value in base 2^32, least significant limb first.
    private var limbs: [UInt32] = []

    /// The arc of `septets` (its octets, each continuing but the last; the first not 0x80), less `minus`, which the
    /// value exceeds.
    init(septets: ArraySlice<UInt8>, minus: UInt32) {
        // The 7-bit groups packed into limbs from the least significant end: time linear in the arc's length.
        limbs.reserveCapacity(septets.count * 7 / 32 + 1)
        var pending: UInt64 = 0
        var bits: UInt64 = 0
        for octet in septets.reversed() {
            pending |= UInt64(octet & 0x7F) << bits
            bits += 7
            if bits >= 32 {
                limbs.append(UInt32(truncatingIfNeeded: pending))
                pending >>= 32
                bits -= 32
            }
        }
        if bits > 0 { limbs.append(UInt32(truncatingIfNeeded: pending)) }
        var borrow = UInt64(minus)
        for position in limbs.indices where borrow != 0 {
            let limb = UInt64(limbs[position])
            limbs[position] = UInt32(truncatingIfNeeded: limb &- borrow)
            borrow = limb < borrow ? 1 : 0
        }
        while limbs.last == 0 { limbs.removeLast() }
    }

    /// Lowercase hexadecimal with a `0x` prefix, no leading zero: time linear in the arc's length.
    var hexadecimal: [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var text = Array("0x".utf8)
        text.reserveCapacity(limbs.count * 8 + 2)
        var leading = true
        for limb in limbs.reversed() {
            for shift in stride(from: 28, through: 0, by: -4) {
                let digit = Int(limb >> UInt32(shift) & 0xF)
                if leading && digit == 0 { continue }
                leading = false
                text.append(digits[digit])
            }
        }
        if leading { text.append(UInt8(ascii: "0")) }
        return text
    }

    /// Decimal digits, no leading zero: time quadratic in the arc's length (repeated division by 10^9).
    var decimal: [UInt8] {
        var remaining = limbs
        var groups: [UInt32] = []  // base 10^9, least significant first
        while !remaining.isEmpty {
            var remainder: UInt64 = 0
            for position in remaining.indices.reversed() {
                let dividend = remainder << 32 | UInt64(remaining[position])
                remaining[position] = UInt32(truncatingIfNeeded: dividend / 1_000_000_000)
                remainder = dividend % 1_000_000_000
            }
            groups.append(UInt32(truncatingIfNeeded: remainder))
            while remaining.last == 0 { remaining.removeLast() }
        }
        guard let most = groups.last else { return [UInt8(ascii: "0")] }
        var text = Array(String(most).utf8)
        for group in groups.dropLast().reversed() {
            let digits = Array(String(group).utf8)
            text += [UInt8](repeating: UInt8(ascii: "0"), count: 9 - digits.count) + digits
        }
        return text
    }
}
