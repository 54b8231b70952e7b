@testable import ReceiptConformance
import ReceiptMutation
import Testing

@Suite("Running validators")
struct ConformanceRunnerTests {
    @Test func reportsExitStatusesAndKillsValidatorsThatRunTooLong() throws {
        #expect(try ConformanceRunner.runShell("true", timeout: 30) == 0)
        #expect(try ConformanceRunner.runShell("exit 3", timeout: 30) == 3)
        // A validator that would run for ten seconds is killed at the timeout and reported as such.
        #expect(try ConformanceRunner.runShell("sleep 10", timeout: 0.3) == nil)
    }

    @Test func quotesPathsForTheShell() {
        #expect(MutationSuite.shellQuoted("suite/a-b.receipt") == "suite/a-b.receipt")
        #expect(MutationSuite.shellQuoted("it's here") == "'it'\\''s here'")
    }
}
