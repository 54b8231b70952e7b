import Foundation
import Testing

@testable import ReceiptVerifyReceipt

/// The Pacific-time rules against an independent reference: the system's tz database through Foundation's
/// `TimeZone`.
@Suite("Pacific time against the tz database")
struct PacificTimeTests {
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")

    /// Every daylight-saving transition Foundation knows from 1950 to 2100 is one of ours, and ours are all of
    /// Foundation's: both directions, every year.
    @Test func transitionsEqualTheTzDatabaseFrom1950To2100() throws {
        let zone = try #require(Self.losAngeles, "the tz database has no America/Los_Angeles (install tzdata)")
        var theirs: [Int64] = []
        var instant = Date(timeIntervalSince1970: -631_152_000)  // 1950-01-01
        let end = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
        while let next = zone.nextDaylightSavingTimeTransition(after: instant), next < end {
            theirs.append(Int64(next.timeIntervalSince1970))
            instant = next
        }
        var ours: [Int64] = []
        for year in 1950..<2100 {
            if let (start, end) = PacificTime.transitions(in: year) { ours += [start, end] }
        }
        #expect(theirs.count > 250)
        #expect(ours == theirs)
    }

    /// The offset around each transition (a second before, at, and after) and at every sixth hour of sample years.
    @Test(arguments: [
        1950, 1961, 1962, 1966, 1967, 1973, 1974, 1975, 1976, 1986, 1987, 2006, 2007, 2024, 2025, 2037,
        2038, 2099,
    ])
    func offsetsEqualTheTzDatabase(year: Int) throws {
        let zone = try #require(Self.losAngeles)
        var instants: [Int64] = []
        if let (start, end) = PacificTime.transitions(in: year) {
            for edge in [start, end] { instants += [edge - 3601, edge - 1, edge, edge + 1, edge + 3600] }
        }
        let first = Int64(ReceiptDateFixture.epochSeconds(year: year))
        instants += stride(from: first, to: first + 366 * 86_400, by: 6 * 3600).map { $0 }
        for seconds in instants {
            let expected = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
            #expect(PacificTime.utcOffsetSeconds(atEpochSeconds: seconds) == expected, "at \(seconds)")
        }
    }

    /// The `_pst` text equals what a DateFormatter in America/Los_Angeles writes, over transitions in both
    /// directions.
    @Test func pstTextEqualsFoundationsFormatter() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = try #require(Self.losAngeles)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for year in [1975, 1999, 2006, 2007, 2018, 2023, 2030] {
            let (start, end) = try #require(PacificTime.transitions(in: year))
            for seconds in [start - 1, start, end - 1, end, end + 1800] {
                let date = AppleDate(milliseconds: seconds * 1000 + 250)
                let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
                #expect(date.pst == expected + " America/Los_Angeles")
            }
        }
    }

    @Test func appleDateFormsOfAKnownInstant() {
        // A date and its forms from a published verifyReceipt response.
        let date = AppleDate(milliseconds: 1_542_127_591_000)
        #expect(date.gmt == "2018-11-13 16:46:31 Etc/GMT")
        #expect(date.ms == "1542127591000")
        #expect(date.pst == "2018-11-13 08:46:31 America/Los_Angeles")
    }

    @Test func instantsBeforeTheEpochAndFarAwayAreFormatted() {
        #expect(AppleDate(milliseconds: -1).gmt == "1969-12-31 23:59:59 Etc/GMT")
        #expect(AppleDate(milliseconds: -1).pst == "1969-12-31 15:59:59 America/Los_Angeles")
        #expect(AppleDate(milliseconds: 253_402_300_799_000).gmt == "9999-12-31 23:59:59 Etc/GMT")
        // Extreme values neither trap nor hang.
        _ = AppleDate(milliseconds: .max).pst
        _ = AppleDate(milliseconds: .min).pst
    }
}

enum ReceiptDateFixture {
    static func epochSeconds(year: Int) -> Int {
        var components = DateComponents()
        components.year = year
        components.month = 1
        components.day = 1
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return Int(calendar.date(from: components)?.timeIntervalSince1970 ?? 0)
    }
}
