import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases
import ReceiptValidation

/// Renders a JWS inspection: the `rcpt.dump/1` JWS variant (`"kind": "jws"`), `rcpt.verify/1` for a JWS, and the
/// text forms of both. Every token is shown with its parts and their offsets, the header's members and x5c
/// certificates, every payload claim with its JSON type and value (millisecond dates also in UTC), the signature,
/// the verdicts and findings, then its nested JWS, recursively.
package enum JWSReport {
    /// The JSON document of a JWS input for `purpose`.
    package static func json(_ inspection: JWSInspection, _ purpose: ReportPurpose, pretty: Bool, file: String? = nil) -> [UInt8] {
        switch purpose {
        case .dump: return dumpJSON(inspection, pretty: pretty, file: file)
        case .verify: return verifyJSON(inspection, pretty: pretty, file: file)
        }
    }

    /// The text report of a JWS input for `purpose`.
    package static func text(_ inspection: JWSInspection, _ purpose: ReportPurpose, name: String, style: TextStyle,
                             verbose: Bool) -> String {
        switch purpose {
        case .dump: return dumpText(inspection, name: name, style: style, verbose: verbose)
        case .verify: return verifyText(inspection, name: name, style: style, verbose: verbose)
        }
    }

    // MARK: - JSON

    /// The `rcpt.dump/1` document of a JWS input.
    static func dumpJSON(_ inspection: JWSInspection, pretty: Bool, file: String? = nil) -> [UInt8] {
        JSONWriter.document(pretty: pretty) { json in
            json.object { json in
                DumpJSON.writeHeader(file: file, schema: DumpJSON.schema, kind: "jws", input: inspection.input, to: &json)
                json.key("tokens")
                json.array { json in
                    for token in inspection.tokens { writeToken(token, to: &json) }
                }
                writeFindings(inspection.findings, to: &json)
                writeError(inspection.readError, to: &json)
                json.member("valid", inspection.isValid)
            }
        }
    }

    /// The `rcpt.verify/1` document of a JWS input: the verdicts and findings of each token, nested ones included.
    static func verifyJSON(_ inspection: JWSInspection, pretty: Bool, file: String? = nil) -> [UInt8] {
        JSONWriter.document(pretty: pretty) { json in
            json.object { json in
                DumpJSON.writeHeader(file: file, schema: VerifyReport.schema, kind: "jws", input: inspection.input, to: &json)
                json.member("valid", inspection.isValid)
                BindingText.write(inspection.binding, to: &json)
                json.key("tokens")
                json.array { json in
                    for token in flattened(inspection.tokens) {
                        json.object { json in
                            json.member("path", token.path)
                            json.member("valid", token.isValid)
                            DumpJSON.writeVerification(token.chain, to: &json)
                            writeFindings(token.findings, to: &json)
                        }
                    }
                }
                writeFindings(inspection.findings, to: &json)
                writeError(inspection.readError, to: &json)
            }
        }
    }

    static func writeError(_ error: JWSReadError?, to json: inout JSONWriter) {
        json.key("error")
        DumpJSON.writeReadErrorValue(error, to: &json)
    }

    static func writeFindings(_ findings: [Finding], to json: inout JSONWriter) {
        json.key("findings")
        json.array { json in
            for finding in findings { DumpJSON.writeFinding(finding, to: &json) }
        }
    }

    static func writeToken(_ verification: JWSVerification, to json: inout JSONWriter) {
        let token = verification.token
        json.object { json in
            json.member("path", verification.path)
            json.member("offset", verification.offset)
            PurchaseSummaryText.writeJSON(verification, to: &json)
            json.key("parts")
            json.object { json in
                for part in JWSToken.Part.allCases {
                    guard let range = token.ranges[part] else { continue }
                    json.key(named: part.rawValue)
                    json.object { json in
                        json.member("offset", range.lowerBound)
                        json.member("length", range.count)
                        json.member("decodedLength", decodedLength(token, part))
                    }
                }
            }
            json.key("header")
            json.object { json in
                json.member("alg", token.algorithm)
                json.key("members")
                if let header = token.header { writeClaims(header, to: &json) } else { json.null() }
                json.key("x5c")
                json.array { json in
                    for (index, entry) in verification.certificates.enumerated() {
                        json.object { json in
                            json.member("index", index)
                            switch entry {
                            case .success(let certificate):
                                DumpJSON.writeCertificateFields(certificate, to: &json)
                                json.member("appleMarkers", strings: appleMarkers(certificate))
                            case .failure(let error):
                                json.member("error", error.message)
                            }
                        }
                    }
                }
            }
            json.key("payload")
            json.object { json in
                json.key("text")
                json.string(utf8: token.payloadBytes[...])
                json.key("object")
                if let payload = token.payload { JSONValueWriter.write(payload, payload.root, to: &json) } else { json.null() }
                json.key("claims")
                if let payload = token.payload { writeClaims(payload, to: &json) } else { json.null() }
            }
            json.key("signature")
            json.object { json in
                json.member("length", token.signature.count)
                json.member("encoding", signatureEncoding(token))
                json.member("highS", token.signature.count == 64 && ECDSASignature.isHighS(token.signature))
                json.key("value")
                json.hexString(token.signature[...])
            }
            DumpJSON.writeVerification(verification.chain, to: &json)
            writeFindings(verification.findings, to: &json)
            json.key("nested")
            json.array { json in
                for child in verification.nested { writeToken(child, to: &json) }
            }
            json.member("valid", verification.isValid)
        }
    }

    /// Every value of a header or payload, in document order, with its path, JSON type, value as written (numbers
    /// exactly; strings unescaped), offset in the decoded JSON, and UTC for millisecond dates.
    static func writeClaims(_ document: JSONDocument, to json: inout JSONWriter) {
        let paths = document.paths()
        json.array { json in
            for (node, entry) in document.nodes.enumerated() where node != document.root {
                json.object { json in
                    json.member("path", paths[node])
                    json.member("type", typeName(entry.kind))
                    json.member("offset", entry.start)
                    json.key("value")
                    switch entry.kind {
                    case .string: json.string(document.string(node) ?? "")
                    case .number: json.number(text: document.text(node))
                    case .true: json.bool(true)
                    case .false: json.bool(false)
                    case .null: json.null()
                    case .object, .array: json.number(document.children(of: node).count)
                    }
                    if let utc = utc(document, node, paths[node]) { json.member("utc", utc) }
                }
            }
        }
    }

    // MARK: - Text

    /// The dump: every token, its parts, header, certificates, claims, signature, verdicts and findings.
    static func dumpText(_ inspection: JWSInspection, name: String, style: TextStyle, verbose: Bool) -> String {
        var out = style.bold("JWS") + " \(TerminalText.safe(name))  \(inspection.input.size) bytes, "
            + "\(inspection.input.format), sha256 \(inspection.input.sha256)\n"
        out += verdictLine(inspection, name: nil, style: style)
        if let repairs = inspection.jws?.repairs, !repairs.isEmpty {
            out += style.dim("  (stripped: \(repairs.joined(separator: ", ")))") + "\n"
        }
        out += "\n" + PurchaseSummaryText.text(inspection, style: style)
        out += documentFindings(inspection, style: style, verbose: true)
        for token in inspection.tokens {
            out += tokenText(token, style: style, verbose: verbose, indent: "", nested: false)
        }
        if let error = inspection.readError {
            out += "\n" + style.red("Unreadable") + ": \(TerminalText.safe(error.message)) " + style.dim("(\(error.code))") + "\n"
        }
        return out
    }

    /// The brief dump: the verdict line and the summary.
    package static func briefText(_ inspection: JWSInspection, name: String, style: TextStyle) -> String {
        verdictLine(inspection, name: name, style: style) + PurchaseSummaryText.text(inspection, style: style)
    }

    /// The verdict: the line, then each token's verification and its errors and warnings.
    static func verifyText(_ inspection: JWSInspection, name: String, style: TextStyle, verbose: Bool) -> String {
        var out = verdictLine(inspection, name: name, style: style)
        out += BindingText.line(inspection.binding, document: "token", style: style)
        let renderer = DumpText(style: style)
        out += documentFindings(inspection, style: style, verbose: verbose)
        for token in flattened(inspection.tokens) {
            out += "\n" + style.bold(token.path.isEmpty ? "token" : "nested \(TerminalText.safe(token.path))")
                + (token.isValid ? style.green(" valid") : style.red(" invalid")) + "\n"
            if let chain = token.chain { out += renderer.verification(chain) }
            out += renderer.findings(token.findings.filter { verbose || $0.severity != .info })
        }
        return out
    }

    /// One line for many inputs: the verdict, the file, and why.
    package static func line(_ inspection: JWSInspection, name: String, style: TextStyle) -> String {
        let shown = TerminalText.safe(name)
        if let error = inspection.readError {
            return VerdictWord.unreadable.styled(style) + " \(shown): \(error.code): \(TerminalText.safe(error.message))\n"
        }
        guard !inspection.isValid else {
            return VerdictWord.valid.styled(style) + " \(shown)" + BindingText.batchNote(inspection.binding, valid: true) + "\n"
        }
        return VerdictWord.invalid.styled(style) + " \(shown): \(Inspection(inspection).codes(.error).joined(separator: ", "))\n"
    }

    /// The findings about the document around the tokens (its unsigned JSON), when there are any.
    static func documentFindings(_ inspection: JWSInspection, style: TextStyle, verbose: Bool) -> String {
        let shown = inspection.findings.filter { verbose || $0.severity != .info }
        guard !shown.isEmpty else { return "" }
        return "\n" + style.bold("document") + style.dim(" (the unsigned JSON around the tokens)") + "\n"
            + DumpText(style: style).findings(shown)
    }

    static func verdictLine(_ inspection: JWSInspection, name: String?, style: TextStyle) -> String {
        let shown = name.map { " " + TerminalText.safe($0) } ?? ""
        if let error = inspection.readError {
            return VerdictWord.unreadable.styled(style, bold: true) + "\(shown): \(TerminalText.safe(error.message)) "
                + style.dim("(\(error.code))") + "\n"
        }
        let tokens = flattened(inspection.tokens)
        let summary = " (\(tokens.count) JWS, \(tokens.filter(\.isValid).count) valid)"
        return VerdictWord(readable: true, valid: inspection.isValid).styled(style, bold: true) + shown
            + summary + "\n"
    }

    static func tokenText(_ verification: JWSVerification, style: TextStyle, verbose: Bool, indent: String,
                          nested: Bool) -> String {
        let token = verification.token
        let renderer = DumpText(style: style)
        let place = verification.path.isEmpty ? "" : " at \(TerminalText.safe(verification.path))"
        var out = "\n" + indent + style.bold((nested ? "Nested JWS" : "Token") + place)
            + "  " + VerdictWord(readable: true, valid: verification.isValid).styled(style)
            + style.dim("  @\(verification.offset)") + "\n"
        for part in JWSToken.Part.allCases {
            guard let range = token.ranges[part] else { continue }
            out += indent + "  " + TextLayout.rightPad(part.rawValue, 10)
                + style.dim("@\(range.lowerBound), \(range.count) characters → \(decodedLength(token, part)) bytes") + "\n"
        }
        if let header = token.header {
            out += indent + style.bold("  Header") + "\n" + claimsText(header, style: style, indent: indent + "    ")
        }
        for (index, entry) in verification.certificates.enumerated() {
            switch entry {
            case .success(let certificate):
                out += indent + "    x5c[\(index)]  " + TerminalText.safe(certificate.subject) + "\n"
                out += indent + "             issuer " + TerminalText.safe(certificate.issuer) + "\n"
                out += indent + "             valid " + ReceiptDate.format(epochSeconds: certificate.notBefore) + " .. "
                    + ReceiptDate.format(epochSeconds: certificate.notAfter) + ", key " + certificate.publicKeyDescription + "\n"
                let markers = appleMarkers(certificate)
                if !markers.isEmpty { out += indent + "             Apple markers " + markers.joined(separator: ", ") + "\n" }
                out += indent + style.dim("             sha256 " + certificate.sha256Fingerprint) + "\n"
            case .failure(let error):
                out += indent + "    x5c[\(index)]  " + style.red("undecodable: ") + TerminalText.safe(error.message) + "\n"
            }
        }
        if let payload = token.payload {
            out += indent + style.bold("  Payload") + "\n" + claimsText(payload, style: style, indent: indent + "    ")
        }
        out += indent + style.bold("  Signature") + "  \(token.signature.count) octets, \(signatureEncoding(token))"
            + (token.signature.count == 64 && ECDSASignature.isHighS(token.signature) ? ", high S" : "") + "\n"
        if let chain = verification.chain { out += renderer.verification(chain).split(separator: "\n").map { indent + $0 + "\n" }.joined() }
        out += renderer.findings(verification.findings).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n")
        for child in verification.nested {
            out += tokenText(child, style: style, verbose: verbose, indent: indent + "    ", nested: true)
        }
        return out
    }

    static func claimsText(_ document: JSONDocument, style: TextStyle, indent: String) -> String {
        let paths = document.paths()
        var out = ""
        for (node, entry) in document.nodes.enumerated() where node != document.root {
            let value: String
            switch entry.kind {
            case .string:
                let text = document.string(node) ?? ""
                value = JWSReader.looksLikeCompactJWS(text.utf8)
                    ? style.dim("(a JWS, \(text.utf8.count) characters: shown below)")
                    : (text.count > 120 ? style.green(TerminalText.quoted(String(text.prefix(100)))) + style.dim("… (\(text.count) characters)")
                        : style.green(TerminalText.quoted(text)))
            case .number:
                value = document.text(node) + (utc(document, node, paths[node]).map { style.dim(" = \($0)") } ?? "")
            case .true: value = "true"
            case .false: value = "false"
            case .null: value = "null"
            case .object: value = style.dim("\(document.children(of: node).count) members")
            case .array: value = style.dim("\(document.children(of: node).count) elements")
            }
            if paths[node].hasPrefix("x5c[") { continue }
            out += indent + TextLayout.rightPad(TerminalText.safe(paths[node]), 34) + " "
                + style.dim(TextLayout.rightPad(typeName(entry.kind), 7)) + " " + value
                + style.dim("  @\(entry.start)") + "\n"
        }
        return out
    }

    // MARK: - Helpers

    /// Each token, then its nested ones, depth first.
    static func flattened(_ tokens: [JWSVerification]) -> [JWSVerification] {
        var out: [JWSVerification] = []
        var stack = Array(tokens.reversed())
        while let next = stack.popLast() {
            out.append(next)
            stack += next.nested.reversed()
        }
        return out
    }

    static func decodedLength(_ token: JWSToken, _ part: JWSToken.Part) -> Int {
        switch part {
        case .header: return token.headerBytes.count
        case .payload: return token.payloadBytes.count
        case .signature: return token.signature.count
        }
    }

    static func signatureEncoding(_ token: JWSToken) -> String {
        if token.signature.count == 64 { return "raw r ‖ s" }
        return ECDSASignature.raw(fromDER: token.signature) != nil ? "DER ECDSA-Sig-Value" : "unknown"
    }

    static func typeName(_ kind: JSONKind) -> String {
        switch kind {
        case .object: return "object"
        case .array: return "array"
        case .string: return "string"
        case .number: return "number"
        case .true, .false: return "boolean"
        case .null: return "null"
        }
    }

    /// A millisecond timestamp claim (a name ending in `Date`) in UTC, to the millisecond.
    static func utc(_ document: JSONDocument, _ node: Int, _ path: String) -> String? {
        guard document.nodes[node].kind == .number, path.hasSuffix("Date") || path.hasSuffix("date"),
              let milliseconds = JWSToken.milliseconds(document.text(node)), milliseconds < 253_402_300_800_000
        else { return nil }
        return MillisecondUTC.text(milliseconds)
    }

    /// Apple's markers a certificate carries: the receipt-signing leaf's and the WWDR intermediate's.
    static func appleMarkers(_ certificate: Certificate) -> [String] {
        let known = ["1.2.840.113635.100.6.11.1": "leaf 1.2.840.113635.100.6.11.1",
                     "1.2.840.113635.100.6.2.1": "intermediate 1.2.840.113635.100.6.2.1"]
        return certificate.extensions.compactMap { known[$0.oid] }
    }
}
