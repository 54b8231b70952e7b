import ReceiptBuilding
import Testing

@testable import ReceiptModel

/// The date parser against a reference written here from RFC 3339's grammar for the 20-byte form Apple writes
/// (`YYYY-MM-DDThh:mm:ssZ`): it accepts exactly the calendar-valid ones, with the same components, and the
/// payload index's compact form (seconds since the epoch) gives back the same date.
@Suite("Dates in Apple's form parse exactly when they are valid")
struct CanonicalDateTests {
    /// The reference: the components of a valid 20-byte UTC date, or nil.
    static func reference(_ text: [UInt8]) -> [Int]? {
        guard text.count == 20 else { return nil }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")]
        for (position, character) in separators {
            let byte = text[position]
            let allowed =
                character == "T"
                ? [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")]
                : character == "Z" ? [UInt8(ascii: "Z"), UInt8(ascii: "z")] : [character.asciiValue ?? 0]
            guard allowed.contains(byte) else { return nil }
        }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in text[start..<(start + count)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), day >= 1, day <= days[month - 1], hour <= 23, minute <= 59, second <= 59
        else { return nil }
        return [year, month, day, hour, minute, second]
    }

    static func expectAgreement(_ text: [UInt8]) {
        let parsed = ReceiptDate.parse(text)
        let expected = reference(text)
        // The reading pass's quick path decides Apple's exact form (upper-case T and Z) and leaves the rest to
        // `parse`: where the reference accepts that form it must give the same instant, elsewhere nothing.
        let quick = text.withUnsafeBufferPointer { ReceiptDate.quickUTCSeconds($0, 0..<$0.count) }
        let isApplesForm = text.count == 20 && text[10] == UInt8(ascii: "T") && text[19] == UInt8(ascii: "Z")
        if let expected, isApplesForm {
            let seconds =
                ReceiptDate.daysFromCivil(year: expected[0], month: expected[1], day: expected[2]) * 86_400
                + Int64(expected[3] * 3600 + expected[4] * 60 + expected[5])
            #expect(
                quick == seconds,
                "\(String(decoding: text, as: UTF8.self)): quick path gave \(String(describing: quick))")
        } else {
            #expect(
                quick == nil,
                "\(String(decoding: text, as: UTF8.self)): quick path accepted what it must leave to parse")
        }
        switch parsed {
        case .success(let date):
            #expect(
                [date.year, date.month, date.day, date.hour, date.minute, date.second] == expected,
                "\(String(decoding: text, as: UTF8.self)) parsed as \(date)")
            #expect(ReceiptDate(utcSeconds: date.secondsSinceEpoch) == date)
        case .failure:
            #expect(expected == nil, "\(String(decoding: text, as: UTF8.self)) is valid but did not parse")
        }
    }

    @Test func realisticDates() {
        for text in [
            "2023-10-19T01:45:40Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "2023-02-29T00:00:00Z",
            "2023-13-01T00:00:00Z", "2023-00-10T00:00:00Z", "2023-01-32T00:00:00Z", "2023-01-01T24:00:00Z",
            "2023-01-01T00:60:00Z", "2023-01-01T00:00:60Z", "2023-01-01t00:00:00Z", "2023-01-01 00:00:00Z",
            "2023-01-01T00:00:00z", "20a3-01-01T00:00:00Z", "2023-01-01T00:00:0/Z", "0000-01-01T00:00:00Z",
            "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "9999-12-31T23:59:59Z",
        ] {
            Self.expectAgreement(Array(text.utf8))
        }
    }

    /// Every byte value at every position of valid dates (the quick path's word masks cover each byte once), and
    /// the form one byte short or long.
    @Test func everySingleByteChange() {
        for valid in ["2023-10-19T01:45:40Z", "2024-02-29T23:59:59Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
            let text = Array(valid.utf8)
            for position in 0..<text.count {
                for byte in 0...255 {
                    var changed = text
                    changed[position] = UInt8(byte)
                    Self.expectAgreement(changed)
                }
            }
            Self.expectAgreement(Array(text.dropLast()))
            Self.expectAgreement(text + [UInt8(ascii: "Z")])
        }
    }

    /// Random digits and separators in the 20-byte shape, so every field crosses its limits.
    @Test func randomCanonicalShapes() {
        var random = SplitMix64(seed: 3339)  // fixed: a failure reproduces
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let alphabet = Array("0123456789-T:Z /tz".utf8) + [0x00, 0x2F, 0x3A, 0x40, 0x80, 0xB0, 0xFF]
        for _ in 0..<20_000 {
            var text = Array("2023-10-19T01:45:40Z".utf8)
            for _ in 0...below(4) {
                text[below(20)] = below(2) == 0 ? alphabet[below(10)] : alphabet[below(alphabet.count)]
            }
            Self.expectAgreement(text)
        }
    }
}

/// `ReceiptDate.format` writes bytes into a fixed buffer; this reference builds the same text with Strings.
@Suite("Formatting dates as RFC 3339 UTC")
struct DateFormattingTests {
    static func reference(_ epochSeconds: Int64, _ nanosecond: Int) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let days = epochSeconds >= 0 ? epochSeconds / 86_400 : (epochSeconds - 86_399) / 86_400
        let second = Int(epochSeconds - days * 86_400)
        let (year, month, day) = ReceiptDate.civilFromDays(days)
        var text =
            pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(second / 3600, 2) + ":"
            + pad(second / 60 % 60, 2) + ":" + pad(second % 60, 2)
        if nanosecond / 1_000_000 > 0 { text += "." + pad(nanosecond / 1_000_000, 3) }
        return text + "Z"
    }

    @Test func matchesTheReferenceAcrossTheRange() {
        var random = SplitMix64(seed: 86_400)  // fixed: a failure reproduces
        var instants: [Int64] = [
            0, -1, 86_399, 86_400, -62_167_219_200, -62_167_219_201, 253_402_300_799,
            253_402_300_800, 1_697_679_940, -1_000_000_000_000, 1_000_000_000_000_000,
        ]
        for _ in 0..<5_000 { instants.append(Int64(bitPattern: random.next()) % 400_000_000_000) }
        for instant in instants {
            for nanosecond in [0, 999_999, 1_000_000, 123_456_789, 999_999_999] {
                #expect(
                    ReceiptDate.format(epochSeconds: instant, nanosecond: nanosecond)
                        == Self.reference(instant, nanosecond), "\(instant) \(nanosecond)")
            }
        }
    }
}
