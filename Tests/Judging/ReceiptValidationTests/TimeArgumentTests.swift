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
            #expect(EvaluationTime.secondsHint(seconds).contains("\(seconds)000"), "\(seconds)")
        }
        #expect(EvaluationTime.secondsHint("1766774387000").isEmpty)
        #expect(EvaluationTime.milliseconds("1766774387123") == 1_766_774_387_123)
        #expect(EvaluationTime.milliseconds("0") == 0)
        #expect(EvaluationTime.milliseconds("99999999") == 99_999_999)
        #expect(EvaluationTime.milliseconds("1234567890123456") == nil)
        guard case .date(let date)? = EvaluationTime(argument: "1766774387000") else {
            Issue.record("milliseconds not read")
            return
        }
        #expect(date.secondsSinceEpoch == 1_766_774_387)
    }
}
