import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel
import ReceiptPKCS7
import ReceiptValidation

/// Renders the verdict of `rcpt verify`: text for people, `rcpt.verify/1` JSON for machines.
package enum VerifyReport {
    package static let schema = "rcpt.verify/1"

    package static func json(_ inspection: ReceiptInspection, pretty: Bool = true) -> [UInt8] {
        document(inspection, file: nil, pretty: pretty)
    }

    /// One compact line of `rcpt.verify/1` with a leading `file` member, for many receipts.
    package static func jsonLine(_ inspection: ReceiptInspection, file: String) -> [UInt8] {
        document(inspection, file: file, pretty: false)
    }

    static func document(_ inspection: ReceiptInspection, file: String?, pretty: Bool) -> [UInt8] {
        var json = JSONWriter(pretty: pretty)
        json.object { json in
            DumpJSON.writeHeader(file: file, schema: schema, kind: "receipt", input: inspection.input, to: &json)
            json.member("valid", inspection.isValid)
            BindingText.write(inspection.binding, to: &json)
            DumpJSON.writeVerification(inspection.verification, to: &json)
            json.array("findings") { json in
                for finding in inspection.findings { DumpJSON.writeFinding(finding, to: &json) }
            }
            DumpJSON.writeReadError(inspection.readError, to: &json)
        }
        return json.bytes + [0x0A]
    }

    package static func text(_ inspection: ReceiptInspection, name: String, style: TextStyle, verbose: Bool) -> String {
        var renderer = DumpText(style: style)
        renderer.verbose = verbose
        var out = ""
        if let error = inspection.readError {
            out +=
                VerdictWord.unreadable.styled(style, bold: true)
                + " \(TerminalText.safe(name)): \(error.layer.rawValue): "
                + "\(TerminalText.safe(error.message)) "
                + style.dim("(\(error.code) at offset \(error.offset ?? 0))") + "\n"
        } else {
            out +=
                VerdictWord(readable: true, valid: inspection.isValid).styled(style, bold: true)
                + " \(TerminalText.safe(name))\n"
            out += BindingText.line(inspection.binding, document: "receipt", style: style)
        }
        if let summary = inspection.verification { out += renderer.verification(summary) }
        let shown = inspection.findings.filter { verbose || $0.severity != .info }
        out += renderer.findings(shown)
        let hidden = inspection.findings.count - shown.count
        if hidden > 0 { out += style.dim("\n(\(hidden) info finding(s) hidden; --verbose shows them)") + "\n" }
        return out
    }
}
