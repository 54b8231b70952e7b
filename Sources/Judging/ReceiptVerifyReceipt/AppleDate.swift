import ReceiptModel

/// One instant in the three forms Apple's verifyReceipt response gives every date `X`: `X` in UTC
/// (`"2018-11-13 16:46:31 Etc/GMT"`), `X_ms` as a string of milliseconds since the epoch (`"1542127591000"`) and
/// `X_pst` in Pacific time with its daylight-saving rules (`"2018-11-13 08:46:31 America/Los_Angeles"`).
package struct AppleDate: Sendable, Hashable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    package var milliseconds: Int64

    package init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The instant of a receipt date, to the millisecond (Apple's responses carry no finer part).
    package init(_ date: ReceiptDate) { milliseconds = date.millisecondsSinceEpoch }

    /// `"2018-11-13 16:46:31 Etc/GMT"`.
    package var gmt: String { Self.wallClock(seconds) + " Etc/GMT" }

    /// `"1542127591000"`.
    package var ms: String { String(milliseconds) }

    /// `"2018-11-13 08:46:31 America/Los_Angeles"`.
    package var pst: String {
        Self.wallClock(seconds &+ PacificTime.utcOffsetSeconds(atEpochSeconds: seconds)) + " America/Los_Angeles"
    }

    /// Whole seconds since the epoch, rounded down.
    var seconds: Int64 { milliseconds >= 0 ? milliseconds / 1000 : (milliseconds &- 999) / 1000 }

    /// `yyyy-MM-dd HH:mm:ss` of a wall-clock count of seconds (the year zero-padded to four digits, more when it
    /// has more, with '-' when negative).
    static func wallClock(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds &- 86_399) / 86_400
        let secondOfDay = seconds &- days &* 86_400
        let (year, month, day) = ReceiptDate.civilFromDays(days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " " + pad(Int(secondOfDay / 3600), 2) + ":"
            + pad(Int(secondOfDay / 60 % 60), 2) + ":" + pad(Int(secondOfDay % 60), 2)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }
}
