/// A claim Apple defines as milliseconds since 1970 (`signedDate`, `purchaseDate`, `expiresDate` …), read exactly
/// from the JSON number's text: exponent forms (`1.7172432e12`) and fractions (Xcode writes `1697679936056.485`) are
/// the numbers they spell, never misread and never "absent". A number that cannot be a date is refused with the
/// reason; nothing falls back to "now".
package struct MillisecondDate: Sendable, Hashable {
    /// Whole milliseconds, rounded down (toward the past) when the number has a fraction.
    package var milliseconds: Int64
    /// The text starts with '-' (`-0` included).
    package var isNegative: Bool
    /// The number has a non-zero fraction of a millisecond.
    package var hasFraction: Bool

    /// Why a number is not a usable date.
    package enum Problem: Error, Sendable, Hashable {
        /// Not a JSON number at all.
        case notANumber
        /// Longer than any date's text (`maximumLength` characters): thousands of digits are a resource attack.
        case tooLong
        /// Beyond ±2^53 milliseconds: JavaScript and every reader into a double lose it.
        case beyondSafeRange

        package var phrase: String {
            switch self {
            case .notANumber: return "not a number"
            case .tooLong: return "a number of more than \(MillisecondDate.maximumLength) characters"
            case .beyondSafeRange: return "beyond ±2^53 milliseconds, which readers into a double cannot hold"
            }
        }
    }

    /// The longest number text read as a date.
    package static let maximumLength = 40
    static let safeLimit: UInt64 = 9_007_199_254_740_992

    /// Reads a JSON number's text exactly.
    package static func read<Text: StringProtocol>(_ text: Text) -> Result<MillisecondDate, Problem> {
        if let milliseconds = plainDigits(text.utf8) {
            return .success(MillisecondDate(milliseconds: milliseconds, isNegative: false, hasFraction: false))
        }
        return readInGeneral(text)
    }

    /// The form Apple writes, one to fifteen ASCII digits and nothing else (below 10^15, so within ±2^53), read
    /// without allocating; nil for any other text, which `readInGeneral` reads to the same value.
    static func plainDigits(_ utf8: some Sequence<UInt8>) -> Int64? {
        var value: Int64 = 0
        var count = 0
        for byte in utf8 {
            let digit = byte &- 0x30
            guard digit < 10, count < 15 else { return nil }
            value = value &* 10 &+ Int64(digit)
            count &+= 1
        }
        return count > 0 ? value : nil
    }

    /// Reads any JSON number's text exactly: sign, fraction and exponent.
    static func readInGeneral<Text: StringProtocol>(_ text: Text) -> Result<MillisecondDate, Problem> {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumLength else { return .failure(.tooLong) }
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        var integer: [UInt8] = []
        while index < bytes.count, isDigit(bytes[index]) {
            integer.append(bytes[index])
            index += 1
        }
        var fraction: [UInt8] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) {
                fraction.append(bytes[index])
                index += 1
            }
            guard !fraction.isEmpty else { return .failure(.notANumber) }
        }
        guard !integer.isEmpty else { return .failure(.notANumber) }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var digits = 0
            while index < bytes.count, isDigit(bytes[index]) {
                // The text is at most 40 characters, so the exponent has at most 38 digits; stop growing past
                // any exponent that could matter.
                if exponent < 1_000 { exponent = exponent * 10 + Int(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return .failure(.notANumber) }
            if exponentNegative { exponent = -exponent }
        }
        guard index == bytes.count else { return .failure(.notANumber) }
        // value = digits(integer ‖ fraction) × 10^(exponent − fraction.count)
        var digits = integer + fraction
        let scale = exponent - fraction.count
        var dropped: [UInt8] = []
        if scale >= 0 {
            let significant = digits.drop { $0 == 0x30 }
            guard significant.isEmpty || significant.count + scale <= 16 else { return .failure(.beyondSafeRange) }
            digits += [UInt8](repeating: 0x30, count: significant.isEmpty ? 0 : scale)
        } else if -scale >= digits.count {
            dropped = digits
            digits = []
        } else {
            dropped = Array(digits.suffix(-scale))
            digits.removeLast(-scale)
        }
        let significant = digits.drop { $0 == 0x30 }
        guard significant.count <= 16 else { return .failure(.beyondSafeRange) }
        var magnitude: UInt64 = 0
        for digit in significant { magnitude = magnitude * 10 + UInt64(digit - 0x30) }
        let hasFraction = dropped.contains { $0 != 0x30 }
        guard magnitude <= safeLimit, !(magnitude == safeLimit && (negative || hasFraction)) else {
            return .failure(.beyondSafeRange)
        }
        var milliseconds = Int64(magnitude)
        if negative {
            milliseconds = -milliseconds
            if hasFraction { milliseconds -= 1 }
        }
        return .success(MillisecondDate(milliseconds: milliseconds, isNegative: negative, hasFraction: hasFraction))
    }
}
