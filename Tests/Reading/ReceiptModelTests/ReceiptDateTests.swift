import ReceiptModel
import Testing

@Suite("RFC 3339 dates")
struct ReceiptDateTests {
    static let valid: [(String, Int64, String)] = [
        ("2023-10-19T01:45:40Z", 1_697_679_940, "2023-10-19T01:45:40Z"),
        ("2020-10-16T14:29:30+0300", 1_602_847_770, "2020-10-16T11:29:30Z"),
        ("2020-10-16T14:29:30+03:00", 1_602_847_770, "2020-10-16T11:29:30Z"),
        ("2020-10-16T08:29:30-0300", 1_602_847_770, "2020-10-16T11:29:30Z"),
        ("2023-10-19T01:45:40.123Z", 1_697_679_940, "2023-10-19T01:45:40.123Z"),
        ("1970-01-01T00:00:00Z", 0, "1970-01-01T00:00:00Z"),
        ("2024-02-29T23:59:59Z", 1_709_251_199, "2024-02-29T23:59:59Z"),
        ("4001-01-01T00:00:00Z", 64_092_211_200, "4001-01-01T00:00:00Z"),
        ("1969-12-31T23:59:59Z", -1, "1969-12-31T23:59:59Z"),
    ]

    @Test(arguments: valid)
    func acceptsWhatRealReceiptsContain(_ text: String, _ seconds: Int64, _ utc: String) throws {
        let date = try ReceiptDate.parse(text).get()
        #expect(date.secondsSinceEpoch == seconds)
        #expect(date.rfc3339UTC == utc)
    }

    static let invalid: [String] = [
        "2023-10-19T01:45:40Z\u{0}junk", "2023-02-30T00:00:00Z", "2023-10-19T24:00:00Z", "2023-10-19T23:59:60Z",
        "2023-13-01T00:00:00Z", "2023-00-10T00:00:00Z", "2023-10-00T00:00:00Z", "2023-10-19", "2023-10-19T01:45:40",
        "2023-10-19T01:45:40+2500", "23-10-19T01:45:40Z", "2023-10-19T01:45:40.Z", "2023-10-19X01:45:40Z",
        "２０２３-10-19T01:45:40Z", "2023-10-19T01:45:40Z ", "2100-02-29T00:00:00Z",
    ]

    @Test(arguments: invalid)
    func rejectsWhatIsNotADate(_ text: String) {
        #expect(throws: ReceiptDate.ParseError.self) { try ReceiptDate.parse(text).get() }
    }

    @Test func reportsEmptyStringsAsEmpty() {
        #expect(ReceiptDate.parse("") == .failure(.empty))
    }

    @Test func formatsAndReparsesToTheSameInstant() throws {
        for seconds: Int64 in [0, 1, 86_399, 951_782_400, 4_102_444_799, -86_401] {
            let text = ReceiptDate.format(epochSeconds: seconds)
            #expect(try ReceiptDate.parse(text).get().secondsSinceEpoch == seconds)
        }
    }

    @Test func civilConversionRoundTripsOverFourHundredYears() {
        var day: Int64 = -200_000
        while day < 200_000 {
            let civil = ReceiptDate.civilFromDays(day)
            #expect(ReceiptDate.daysFromCivil(year: civil.year, month: civil.month, day: civil.day) == day)
            day += 997
        }
    }
}
