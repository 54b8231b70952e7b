import ReceiptASN1

/// How an element's length octets are written, by the encodings' rewriters (`ASN1Reencoder`, `ASN1EditTree`).
enum ASN1LengthForm: Sendable, Hashable {
    /// Short form below 128, else the fewest long-form octets (DER).
    case minimal
    /// Long form with this many octets (1...126), or the fewest that hold the length when more are needed.
    case long(octets: Int)
    /// Long form with this many zero octets (at least one) before the fewest that hold the length: never minimal.
    case padded(extraOctets: Int)
    /// `0x80`, the content, then `00 00` (BER; constructed elements only: a primitive is written minimal).
    case indefinite

    /// The length octets of `length` in this form (`80` for an indefinite constructed element).
    func octets(for length: Int, constructed: Bool) -> [UInt8] {
        let minimal = ASN1Writer.lengthOctets(length)
        let significant = minimal.count == 1 ? minimal : Array(minimal.dropFirst())
        let padding: Int
        switch self {
        case .minimal: return minimal
        case .indefinite: return constructed ? [0x80] : minimal
        case .long(let count): padding = max(0, min(count, 126) - significant.count)
        case .padded(let extra): padding = min(max(1, extra), 126 - significant.count)
        }
        return [0x80 | UInt8(significant.count + padding)] + [UInt8](repeating: 0, count: padding) + significant
    }

    /// How many length octets `octets(for:constructed:)` gives, without making them (`length` ≥ 0).
    func count(for length: Int, constructed: Bool) -> Int {
        let significant = length < 0x80 ? 1 : (Int.bitWidth - length.leadingZeroBitCount + 7) / 8
        let minimal = length < 0x80 ? 1 : 1 + significant
        switch self {
        case .minimal: return minimal
        case .indefinite: return constructed ? 1 : minimal
        case .long(let count): return 1 + significant + max(0, min(count, 126) - significant)
        case .padded(let extra): return 1 + significant + min(max(1, extra), 126 - significant)
        }
    }

    /// Whether an element in this form ends with end-of-contents octets.
    func isIndefinite(constructed: Bool) -> Bool {
        if case .indefinite = self { return constructed }
        return false
    }
}
