import Foundation
import ReceiptRendering
import Testing

/// A case reported though it passed (an over-strict rejection, an acceptance of a concern not gated) was a plain
/// pass in JUnit: the CI tab showed nothing of it. A JUnit testcase holds only a failure, an error or a skip, so the
/// suite's `<system-out>` says it.
@Suite("JUnit: reported cases")
struct JUnitNotesTests {
    static func report(isNote: Bool) -> String {
        let report = CIReport(
            tool: "rcpt conformance", subject: "suite", seconds: 1, properties: [],
            cases: [
                CIReport.Case(
                    name: "environment-other", group: "binding", outcome: .passed, rule: "over-strict/binding",
                    ruleDescription: "a document rcpt accepts was rejected",
                    message: "rejected a <document> rcpt accepts", details: "file: a.jws\nreproduce: v a.jws",
                    file: "a.jws", seconds: 0.1, isNote: isNote)
            ])
        return String(
            decoding: JUnitXML.document(report, timestamp: Date(timeIntervalSince1970: 0), hostname: "h"), as: UTF8.self
        )
    }

    @Test func aReportedCaseIsSaidInTheSuitesOutput() {
        let xml = Self.report(isNote: true)
        #expect(xml.contains("<testcase name=\"environment-other\""))
        #expect(
            xml.contains(
                "<system-out>reported, not failed: environment-other (over-strict/binding): rejected a &lt;document&gt; rcpt accepts\n  file: a.jws\n  reproduce: v a.jws\n</system-out>"
            ), "\(xml)")
        #expect(xml.contains("failures=\"0\" errors=\"0\""))
    }

    @Test func aPlainPassSaysNothing() {
        #expect(Self.report(isNote: false).contains("<system-out></system-out>"))
    }
}
