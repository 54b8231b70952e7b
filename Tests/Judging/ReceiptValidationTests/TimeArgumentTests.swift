import ReceiptModel
import ReceiptValidation
import Testing

/// A time on the command line: epoch milliseconds are read to the millisecond, and nine or ten digits — epoch
/// seconds of this century, a day of 1970 as milliseconds — are refused with how to write them (two trials read a
/// genuine document at 1970 and took the verdict for the document's).
@Suite("Time arguments")
struct TimeArgumentTests {
    @Test func epochSecondsAreRefusedWithTheMillisecondsToWrite() {
        for seconds in ["1766774387", "999999999", "1000000000"] {
            #expect(EvaluationTime(argument: seconds) == nil, "\(seconds)")
            #expect(EvaluationTime.milliseconds(seconds) == nil, "\(seconds)")
            #expect(EvaluationTime.digitsHint(seconds).contains("\(seconds)000"), "\(seconds)")
        }
        #expect(EvaluationTime.digitsHint("1766774387000").isEmpty)
        #expect(EvaluationTime.milliseconds("1766774387123") == 1_766_774_387_123)
        #expect(EvaluationTime.milliseconds("1234567890123456") == nil)
    }

    /// Fewer than twelve digits are no App Store time as milliseconds (1970 to 1973): `--at 20240301` read as a day
    /// of 1970 and judged a genuine token invalid (a red team's trial, session 29). A compact date is refused with
    /// the date to write, any other with what it would be.
    @Test func fewDigitsAreRefusedWithWhatToWrite() {
        for digits in ["20240301", "0", "99999999", "12345678901"] {
            #expect(EvaluationTime(argument: digits) == nil, "\(digits)")
            #expect(EvaluationTime.milliseconds(digits) == nil, "\(digits)")
        }
        #expect(EvaluationTime.digitsHint("20240301").contains("write 2024-03-01"))
        #expect(EvaluationTime.digitsHint("99999999").contains("1970"))
        #expect(EvaluationTime.digitsHint("0").contains("1970"))
        #expect(EvaluationTime.milliseconds("978307200000") == 978_307_200_000)
        guard case .date(let date)? = EvaluationTime(argument: "1766774387000") else {
            Issue.record("milliseconds not read")
            return
        }
        #expect(date.secondsSinceEpoch == 1_766_774_387)
    }
}
