import ReceiptRendering
import Testing

/// `conformance --format json` gives each run's duration in seconds (it once wrote milliseconds under `seconds`).
@Suite("Conformance durations")
struct ConformanceDurationTests {
    @Test func secondsAreSeconds() {
        #expect(ConformanceReport.secondsText(0.0424) == "0.042")
        #expect(ConformanceReport.secondsText(12.5) == "12.500")
        #expect(ConformanceReport.secondsText(0) == "0.000")
        #expect(ConformanceReport.secondsText(.infinity) == "0.000")
    }
}
