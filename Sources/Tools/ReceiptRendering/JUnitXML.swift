import Foundation
import ReceiptModel

/// A `CIReport` as JUnit XML, the Apache Ant JUnit task's `<testsuite>` (the schema CI test tabs read; validated in
/// the tests against Windy Road's JUnit.xsd): a `<testcase>` per case, a `<failure>` or `<error>` in each that did
/// not pass, with the details as its text.
package enum JUnitXML {
    package static func document(_ report: CIReport, timestamp: Date = Date(), hostname: String? = nil) -> [UInt8] {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out +=
            "<testsuite name=\"\(attribute(report.tool))\" timestamp=\"\(Self.timestamp(timestamp))\""
            + " hostname=\"\(attribute(hostname ?? Self.hostname))\" tests=\"\(report.cases.count)\""
            + " failures=\"\(report.failures)\" errors=\"\(report.errors)\" skipped=\"\(report.skipped)\""
            + " time=\"\(ConformanceReport.secondsText(report.seconds))\">\n"
        out += "  <properties>\n"
        for (name, value) in [("subject", report.subject)] + report.properties {
            out += "    <property name=\"\(attribute(name))\" value=\"\(attribute(value))\"/>\n"
        }
        out += "  </properties>\n"
        for item in report.cases {
            let opening =
                "  <testcase name=\"\(attribute(item.name))\" classname=\"\(attribute(classname(report, item)))\""
                + " time=\"\(ConformanceReport.secondsText(item.seconds))\""
            switch item.outcome {
            case .passed:
                out += opening + "/>\n"
            case .skipped:
                out += opening + ">\n"
                out += "    <skipped message=\"\(attribute(item.message))\"/>\n"
                out += "  </testcase>\n"
            case .failed, .errored:
                let element = item.outcome == .failed ? "failure" : "error"
                out += opening + ">\n"
                out +=
                    "    <\(element) message=\"\(attribute(item.message))\" type=\"\(attribute(item.rule))\">"
                    + text(item.details) + "</\(element)>\n"
                out += "  </testcase>\n"
            }
        }
        // A case reported though it passed (an over-strict rejection, an acceptance of a concern not gated, an
        // allowed disagreement): a testcase holds only a failure, an error or a skip, so the suite's output says it.
        let notes = report.cases.filter { $0.outcome == .passed && $0.isNote }.map { item in
            "reported, not failed: \(item.name) (\(item.rule)): \(item.message)\n"
                + item.details.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 + "\n" }
                .joined()
        }
        out += "  <system-out>" + text(notes.joined()) + "</system-out>\n  <system-err></system-err>\n</testsuite>\n"
        return Array(out.utf8)
    }

    /// `rcpt.conformance.chain`: a dotted class name CI tabs group by.
    static func classname(_ report: CIReport, _ item: CIReport.Case) -> String {
        let tool = report.tool.split(separator: " ").joined(separator: ".")
        let group = String(item.group.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
        return tool + "." + (group.isEmpty ? "_" : group)
    }

    /// The schema's timestamp: ISO 8601 in UTC, without a zone.
    static func timestamp(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return String(ReceiptDate.format(epochSeconds: seconds).dropLast())
    }

    static var hostname: String {
        let name = ProcessInfo.processInfo.hostName
        return name.isEmpty ? "localhost" : name
    }

    /// Text as XML 1.0 character data: markup escaped, characters XML 1.0 cannot carry (most controls, lone
    /// surrogates cannot occur in a String) as U+FFFD.
    static func text(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value) || value >= 0x10000
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    /// Text as an attribute value in double quotes (line breaks kept as character references).
    static func attribute(_ value: String) -> String {
        text(value).replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\n", with: "&#10;")
            .replacingOccurrences(of: "\r", with: "&#13;").replacingOccurrences(of: "\t", with: "&#9;")
    }
}
