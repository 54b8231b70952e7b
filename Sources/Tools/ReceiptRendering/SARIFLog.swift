import ReceiptJSON

/// A `CIReport` as a SARIF 2.1.0 log, the format code scanning reads (validated in the tests against OASIS's
/// schema): one run of the tool `rcpt`, a rule per distinct rule with its description, and a result per case that
/// did not pass — level `error`, or `note` for what is reported but not a failure (a file a scan skipped) — located
/// at its file.
package enum SARIFLog {
    package static func document(_ report: CIReport, version: String, pretty: Bool = true) -> [UInt8] {
        let reported = report.cases.filter { $0.outcome != .passed || $0.isNote }
        var rules: [(id: String, description: String)] = []
        for item in reported where !rules.contains(where: { $0.id == item.rule }) {
            rules.append((item.rule, item.ruleDescription))
        }
        return JSONWriter.document(pretty: pretty) { json in
            json.object { json in
                json.member("$schema", "https://json.schemastore.org/sarif-2.1.0.json")
                json.member("version", "2.1.0")
                json.array("runs") { json in
                    json.object { json in
                        json.object("tool") { json in
                            json.object("driver") { json in
                                json.member("name", "rcpt")
                                json.member("fullName", report.tool)
                                json.member("version", version)
                                json.objects("rules", rules) { rule, json in
                                    json.member("id", rule.id)
                                    json.key("shortDescription")
                                    json.object { json in json.member("text", rule.description) }
                                }
                            }
                        }
                        json.array("invocations") { json in
                            json.object { json in
                                json.member("executionSuccessful", true)
                                json.member("commandLine", report.tool + " " + report.subject)
                            }
                        }
                        json.objects("results", reported) { item, json in
                            json.member("ruleId", item.rule)
                            json.member("ruleIndex", rules.firstIndex { $0.id == item.rule } ?? 0)
                            json.member(
                                "level",
                                item.outcome == .passed || item.outcome == .skipped || item.isNote
                                    ? "note" : "error")
                            json.object("message") { json in
                                json.member(
                                    "text", item.message + (item.details.isEmpty ? "" : "\n" + item.details))
                            }
                            if let file = item.file {
                                json.array("locations") { json in
                                    json.object { json in
                                        json.object("physicalLocation") { json in
                                            json.key("artifactLocation")
                                            json.object { json in json.member("uri", uri(file)) }
                                        }
                                    }
                                }
                            }
                            json.object("properties") { json in
                                json.member("name", item.name)
                                json.member("group", item.group)
                                json.member("outcome", item.outcome.rawValue)
                            }
                        }
                    }
                }
            }
        }
    }

    /// A path as a URI reference: relative paths stay relative (code scanning resolves them from the checkout), an
    /// absolute one becomes a `file://` URI; every byte outside RFC 3986's unreserved set and `/` is percent-encoded.
    package static func uri(_ path: String) -> String {
        var out = path.hasPrefix("/") ? "file://" : ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
