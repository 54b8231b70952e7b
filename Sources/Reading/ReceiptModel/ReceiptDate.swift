import ReceiptASN1

/// An RFC 3339 timestamp as receipts write it (`2023-10-19T01:45:40Z`, `2020-10-16T14:29:30+0300`,
/// `…40.123Z`), parsed by hand without Foundation and checked for calendar validity.
public struct ReceiptDate: Sendable, Hashable {
    // Stored compactly (16 bytes): a receipt of 100 000 records holds half a million of these.
    private var packedYear: Int32
    private var packedNanosecond: Int32
    private var packedOffset: Int16
    private var packedMonth: UInt8
    private var packedDay: UInt8
    private var packedHour: UInt8
    private var packedMinute: UInt8
    private var packedSecond: UInt8

    package var year: Int { Int(packedYear) }
    package var month: Int { Int(packedMonth) }
    package var day: Int { Int(packedDay) }
    package var hour: Int { Int(packedHour) }
    package var minute: Int { Int(packedMinute) }
    public var second: Int { Int(packedSecond) }
    /// Fractional seconds in nanoseconds (digits past the ninth are ignored).
    public var nanosecond: Int { Int(packedNanosecond) }
    /// Offset from UTC in minutes, east positive.
    public var utcOffsetMinutes: Int { Int(packedOffset) }

    /// A date from already-validated components (the scanner checks ranges before calling this).
    init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanosecond: Int,
        utcOffsetMinutes: Int
    ) {
        packedYear = Int32(truncatingIfNeeded: year)
        packedMonth = UInt8(truncatingIfNeeded: month)
        packedDay = UInt8(truncatingIfNeeded: day)
        packedHour = UInt8(truncatingIfNeeded: hour)
        packedMinute = UInt8(truncatingIfNeeded: minute)
        packedSecond = UInt8(truncatingIfNeeded: second)
        packedNanosecond = Int32(truncatingIfNeeded: nanosecond)
        packedOffset = Int16(truncatingIfNeeded: utcOffsetMinutes)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    package var secondsSinceEpoch: Int64 {
        let days = ReceiptDate.daysFromCivil(year: year, month: month, day: day)
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(utcOffsetMinutes * 60)
    }

    /// Milliseconds since the epoch, as Apple's verifyReceipt `*_ms` fields give them.
    public var millisecondsSinceEpoch: Int64 { secondsSinceEpoch * 1000 + Int64(nanosecond / 1_000_000) }

    /// The same instant in UTC, formatted `YYYY-MM-DDThh:mm:ss[.fff]Z` (milliseconds only when non-zero).
    public var rfc3339UTC: String { withRFC3339UTC { String(decoding: $0, as: UTF8.self) } }

    /// The UTC form's bytes, lent to `body` without building a String (the JSON dump writes them directly).
    package func withRFC3339UTC<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        ReceiptDate.withFormatted(epochSeconds: secondsSinceEpoch, nanosecond: nanosecond, body)
    }

    /// Why a string is not a date.
    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        case empty
        case syntax(position: Int, expected: String)
        case outOfRange(field: String, value: Int)
        case trailingBytes(position: Int)

        public var description: String {
            switch self {
            case .empty: return "empty string"
            case .syntax(let position, let expected): return "expected \(expected) at character \(position)"
            case .outOfRange(let field, let value): return "\(field) \(value) is out of range"
            case .trailingBytes(let position): return "unexpected characters from character \(position)"
            }
        }
    }

    /// Parses the bytes of a date string, in place.
    public static func parse(_ text: ArraySlice<UInt8>) -> Result<ReceiptDate, ParseError> {
        text.withUnsafeBufferPointer { parse($0, 0..<$0.count) }
    }

    /// Parses `range` of a borrowed buffer (the payload's hot path: no copy, no String).
    package static func parse(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Result<
        ReceiptDate, ParseError
    > {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= buffer.count else { return .failure(.empty) }
        var scanner = Scanner(bytes: buffer, start: range.lowerBound, end: range.upperBound)
        do {
            return .success(try scanner.date())
        } catch {
            return .failure(error)
        }
    }

    /// The seconds since the epoch of a date in exactly the form Apple writes, `YYYY-MM-DDThh:mm:ssZ` (20 bytes,
    /// upper-case `T` and `Z`), calendar-valid; nil for anything else, which `parse` then decides. The reading
    /// pass's quick path: the digits and separators are checked eight bytes at a time, against the same ranges as
    /// `parse`, so wherever it gives a value `parse` gives the same instant (CanonicalDateTests hold it to that).
    @inline(__always)
    package static func quickUTCSeconds(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        guard range.count == 20, range.lowerBound >= 0, range.upperBound <= buffer.count,
            let base = buffer.baseAddress
        else { return nil }
        let raw = UnsafeRawPointer(base + range.lowerBound)
        // Little-endian words: byte k of a word is bits 8k...8k+7. Digits where the mask is 0xFF, the template's
        // separators elsewhere: "YYYY-MM-", "DDThh:mm", ":ssZ".
        let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let third = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self)))
        guard let a = digitBytes(first, mask: 0x00FF_FF00_FFFF_FFFF, template: 0x2D00_002D_0000_0000),
            let b = digitBytes(second, mask: 0xFFFF_00FF_FF00_FFFF, template: 0x0000_3A00_0054_0000),
            let c = digitBytes(third, mask: 0x0000_0000_00FF_FF00, template: 0x0000_0000_5A00_003A)
        else { return nil }
        @inline(__always) func digit(_ word: UInt64, _ byte: Int) -> Int {
            Int(truncatingIfNeeded: word >> (8 &* byte) & 0x0F)
        }
        let year = digit(a, 0) &* 1000 &+ digit(a, 1) &* 100 &+ digit(a, 2) &* 10 &+ digit(a, 3)
        let month = digit(a, 5) &* 10 &+ digit(a, 6)
        let day = digit(b, 0) &* 10 &+ digit(b, 1)
        let hour = digit(b, 3) &* 10 &+ digit(b, 4)
        let minute = digit(b, 6) &* 10 &+ digit(b, 7)
        let secondOfMinute = digit(c, 1) &* 10 &+ digit(c, 2)
        guard month >= 1, month <= 12, day >= 1, day <= daysInMonth(year: year, month: month), hour <= 23,
            minute <= 59, secondOfMinute <= 59
        else { return nil }
        return daysFromCivil(year: year, month: month, day: day) &* 86_400
            &+ Int64(hour &* 3600 &+ minute &* 60 &+ secondOfMinute)
    }

    /// `word` with its digit bytes (where `mask` is 0xFF) turned into their values 0–9 and the rest cleared, when
    /// every masked byte is an ASCII digit and every other byte equals `template`'s; nil otherwise.
    @inline(__always)
    private static func digitBytes(_ word: UInt64, mask: UInt64, template: UInt64) -> UInt64? {
        guard word & ~mask == template else { return nil }
        let values = (word & mask) ^ (0x3030_3030_3030_3030 & mask)
        // A digit's value is 0–9: no high nibble, and adding 6 carries into bit 4 from 10 up (no byte overflows).
        guard values & 0xF0F0_F0F0_F0F0_F0F0 == 0,
            (values &+ (0x0606_0606_0606_0606 & mask)) & 0x1010_1010_1010_1010 == 0
        else { return nil }
        return values
    }

    /// The date `seconds` after the epoch, in UTC with no fraction.
    init(utcSeconds seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = ReceiptDate.civilFromDays(days)
        self.init(
            year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60, nanosecond: 0, utcOffsetMinutes: 0)
    }

    /// The date `seconds` after the epoch, written with a UTC offset of `utcOffsetMinutes` and a fraction of
    /// `nanosecond`, as a receipt wrote it.
    init(utcSeconds seconds: Int64, nanosecond: Int, utcOffsetMinutes: Int) {
        let local = ReceiptDate(utcSeconds: seconds + Int64(utcOffsetMinutes) * 60)
        self.init(
            year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute,
            second: local.second, nanosecond: nanosecond, utcOffsetMinutes: utcOffsetMinutes)
    }

    /// Whether the date is in UTC with no fraction, so `ReceiptDate(utcSeconds: secondsSinceEpoch)` is it again.
    var isWholeSecondUTC: Bool { packedNanosecond == 0 && packedOffset == 0 }

    /// Parses the bytes of a date string.
    public static func parse(_ text: [UInt8]) -> Result<ReceiptDate, ParseError> { parse(text[...]) }

    /// Parses a string.
    public static func parse(_ text: String) -> Result<ReceiptDate, ParseError> { parse(Array(text.utf8)[...]) }

    // MARK: - Calendar arithmetic (proleptic Gregorian; Howard Hinnant's algorithms)

    /// Days from 1970-01-01 to the given civil date.
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day count from 1970-01-01.
    package static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Formats an instant as RFC 3339 UTC, with milliseconds when `nanosecond` has any.
    public static func format(epochSeconds: Int64, nanosecond: Int = 0) -> String {
        withFormatted(epochSeconds: epochSeconds, nanosecond: nanosecond) { String(decoding: $0, as: UTF8.self) }
    }

    /// `format`'s bytes, built in a fixed buffer and lent to `body`: each number zero-padded (the year to four
    /// digits, more when it has more, with a leading '-' when negative).
    package static func withFormatted<Result>(
        epochSeconds: Int64, nanosecond: Int = 0,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let days = epochSeconds >= 0 ? epochSeconds / 86_400 : (epochSeconds - 86_399) / 86_400
        let secondOfDay = Int(epochSeconds - days * 86_400)
        let (year, month, day) = civilFromDays(days)
        let milliseconds = nanosecond / 1_000_000
        // 48 bytes: the longest form is a 20-digit signed year and 21 more characters.
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &storage) { raw in
            var length = 0
            func put(_ byte: UInt8) {
                raw[length] = byte
                length += 1
            }
            func number(_ value: Int, width: Int) {
                if value < 0 { put(UInt8(ascii: "-")) }
                guard let out = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                length += ASN1Primitives.writeDecimal(UInt64(value.magnitude), minimumDigits: width, to: out + length)
            }
            number(year, width: 4)
            put(UInt8(ascii: "-"))
            number(month, width: 2)
            put(UInt8(ascii: "-"))
            number(day, width: 2)
            put(UInt8(ascii: "T"))
            number(secondOfDay / 3600, width: 2)
            put(UInt8(ascii: ":"))
            number(secondOfDay / 60 % 60, width: 2)
            put(UInt8(ascii: ":"))
            number(secondOfDay % 60, width: 2)
            if milliseconds > 0 {
                put(UInt8(ascii: "."))
                number(milliseconds, width: 3)
            }
            put(UInt8(ascii: "Z"))
            return body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self).prefix(length)))
        }
    }

    // MARK: - Scanner

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let start: Int
        let end: Int
        var position: Int

        init(bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
            self.bytes = bytes
            self.start = start
            self.end = end
            self.position = start
        }

        /// Character position from the start of the text, for messages.
        var column: Int { position - start }

        @inline(__always)
        mutating func digits(_ count: Int, _ what: StaticString) throws(ParseError) -> Int {
            var value = 0
            for _ in 0..<count {
                guard position < end, bytes[position] >= 0x30, bytes[position] <= 0x39 else {
                    throw .syntax(position: column, expected: what.description)
                }
                value = value &* 10 &+ Int(bytes[position] &- 0x30)
                position += 1
            }
            return value
        }

        @inline(__always)
        mutating func literal(_ ascii: UInt8) throws(ParseError) {
            guard position < end, bytes[position] == ascii else {
                throw .syntax(position: column, expected: "'\(Character(Unicode.Scalar(ascii)))'")
            }
            position += 1
        }

        @inline(__always)
        func peek(_ ascii: UInt8) -> Bool { position < end && bytes[position] == ascii }

        mutating func date() throws(ParseError) -> ReceiptDate {
            let year = try digits(4, "a four-digit year")
            try literal(UInt8(ascii: "-"))
            let month = try digits(2, "a two-digit month")
            try literal(UInt8(ascii: "-"))
            let day = try digits(2, "a two-digit day")
            guard position < end,
                bytes[position] == UInt8(ascii: "T") || bytes[position] == UInt8(ascii: "t")
                    || bytes[position] == UInt8(ascii: " ")
            else { throw .syntax(position: column, expected: "'T'") }
            position += 1
            let hour = try digits(2, "a two-digit hour")
            try literal(UInt8(ascii: ":"))
            let minute = try digits(2, "two-digit minutes")
            try literal(UInt8(ascii: ":"))
            let second = try digits(2, "two-digit seconds")
            var nanosecond = 0
            if peek(UInt8(ascii: ".")) {
                position += 1
                var scale = 100_000_000
                let start = position
                while position < end, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                    nanosecond += Int(bytes[position] - 0x30) * scale
                    scale /= 10
                    position += 1
                }
                guard position > start else { throw .syntax(position: column, expected: "fraction digits") }
            }
            var offset = 0
            if peek(UInt8(ascii: "Z")) || peek(UInt8(ascii: "z")) {
                position += 1
            } else if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) {
                let sign = peek(UInt8(ascii: "-")) ? -1 : 1
                position += 1
                let offsetHours = try digits(2, "a two-digit offset hour")
                if peek(UInt8(ascii: ":")) { position += 1 }
                let offsetMinutes = try digits(2, "two-digit offset minutes")
                guard offsetHours <= 23 else { throw .outOfRange(field: "offset hour", value: offsetHours) }
                guard offsetMinutes <= 59 else { throw .outOfRange(field: "offset minute", value: offsetMinutes) }
                offset = sign * (offsetHours * 60 + offsetMinutes)
            } else {
                throw .syntax(position: column, expected: "'Z' or a UTC offset")
            }
            guard position == end else { throw .trailingBytes(position: column) }
            guard (1...12).contains(month) else { throw .outOfRange(field: "month", value: month) }
            guard day >= 1, day <= ReceiptDate.daysInMonth(year: year, month: month) else {
                throw .outOfRange(field: "day", value: day)
            }
            guard hour <= 23 else { throw .outOfRange(field: "hour", value: hour) }
            guard minute <= 59 else { throw .outOfRange(field: "minute", value: minute) }
            guard second <= 59 else { throw .outOfRange(field: "second", value: second) }
            return ReceiptDate(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                nanosecond: nanosecond, utcOffsetMinutes: offset)
        }
    }
}
