import ReceiptModel

/// Civil time in `America/Los_Angeles`, the zone of every `_pst` date in Apple's verifyReceipt responses: UTC−8
/// (PST), or UTC−7 (PDT) while daylight saving time is in force. The United States rules of the tz database,
/// written out so the conversion needs no time-zone files and gives the same answer on every machine:
///
/// | years | PDT from (local wall time) | to (local daylight time) |
/// |---|---|---|
/// | 2007 on | 2nd Sunday of March, 02:00 | 1st Sunday of November, 02:00 |
/// | 1987–2006 | 1st Sunday of April, 02:00 | last Sunday of October, 02:00 |
/// | 1976–1986 | last Sunday of April, 02:00 | last Sunday of October, 02:00 |
/// | 1975 | 23 February, 02:00 | last Sunday of October, 02:00 |
/// | 1974 | 6 January, 02:00 | last Sunday of October, 02:00 |
/// | 1967–1973 | last Sunday of April, 02:00 | last Sunday of October, 02:00 |
/// | 1962–1966 | last Sunday of April, 01:00 | last Sunday of October, 02:00 |
/// | 1950–1961 | last Sunday of April, 01:00 | last Sunday of September, 02:00 |
/// | before 1950, after 9999 | standard time all year | |
///
/// Tested against the system's tz database (through Foundation's `TimeZone`) at every transition from 1950 to 2100.
package enum PacificTime {
    /// Seconds between UTC and Pacific time at the instant `epochSeconds` (UTC): −28 800 or −25 200.
    package static func utcOffsetSeconds(atEpochSeconds epochSeconds: Int64) -> Int64 {
        isDaylightSaving(atEpochSeconds: epochSeconds) ? -7 * 3600 : -8 * 3600
    }

    /// Whether PDT is in force at the instant `epochSeconds` (UTC).
    package static func isDaylightSaving(atEpochSeconds epochSeconds: Int64) -> Bool {
        // The year of the instant in Pacific standard time: both transitions of a year fall inside it.
        let standard = epochSeconds &- 8 * 3600
        let days = standard >= 0 ? standard / 86_400 : (standard &- 86_399) / 86_400
        let year = ReceiptDate.civilFromDays(days).year
        guard let (start, end) = transitions(in: year) else { return false }
        return epochSeconds >= start && epochSeconds < end
    }

    /// The instants (UTC epoch seconds) at which PDT starts and ends in `year`, if it has daylight saving time.
    package static func transitions(in year: Int) -> (start: Int64, end: Int64)? {
        let startDay: Int64
        let endDay: Int64
        var startHourPST: Int64 = 2
        switch year {
        case 2007...9999:
            startDay = nthSunday(2, year: year, month: 3)
            endDay = nthSunday(1, year: year, month: 11)
        case 1987...2006:
            startDay = nthSunday(1, year: year, month: 4)
            endDay = lastSunday(year: year, month: 10)
        case 1976...1986, 1967...1973:
            startDay = lastSunday(year: year, month: 4)
            endDay = lastSunday(year: year, month: 10)
        case 1975:
            startDay = ReceiptDate.daysFromCivil(year: 1975, month: 2, day: 23)
            endDay = lastSunday(year: year, month: 10)
        case 1974:
            startDay = ReceiptDate.daysFromCivil(year: 1974, month: 1, day: 6)
            endDay = lastSunday(year: year, month: 10)
        case 1962...1966:
            startDay = lastSunday(year: year, month: 4)
            endDay = lastSunday(year: year, month: 10)
            startHourPST = 1
        case 1950...1961:
            startDay = lastSunday(year: year, month: 4)
            endDay = lastSunday(year: year, month: 9)
            startHourPST = 1
        default:
            return nil
        }
        // Starts at the given hour of standard time (UTC+8 h); ends at 02:00 daylight time, 09:00 UTC.
        return (startDay * 86_400 + (startHourPST + 8) * 3600, endDay * 86_400 + 9 * 3600)
    }

    /// Days since 1970-01-01 of the `n`th Sunday of `month`.
    static func nthSunday(_ n: Int64, year: Int, month: Int) -> Int64 {
        let first = ReceiptDate.daysFromCivil(year: year, month: month, day: 1)
        return first + (7 - weekday(first)) % 7 + (n - 1) * 7
    }

    /// Days since 1970-01-01 of the last Sunday of `month`.
    static func lastSunday(year: Int, month: Int) -> Int64 {
        let last = ReceiptDate.daysFromCivil(
            year: year, month: month,
            day: ReceiptDate.daysInMonth(year: year, month: month))
        return last - weekday(last)
    }

    /// 0 for Sunday … 6 for Saturday (1970-01-01 was a Thursday).
    static func weekday(_ days: Int64) -> Int64 {
        let remainder = (days + 4) % 7
        return remainder < 0 ? remainder + 7 : remainder
    }
}
