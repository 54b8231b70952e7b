import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases
import ReceiptValidation

/// A JWS input's text report: `dump` (every token, its claims and certificates), `verify` (the verdict and the
/// findings) and a batch line.
extension JWSReport {
    // MARK: - Text

    /// The dump: every token, its parts, header, certificates, claims, signature, verdicts and findings.
    static func dumpText(_ inspection: JWSInspection, name: String, style: TextStyle, verbose: Bool) -> String {
        var out =
            style.bold("JWS") + " \(TerminalText.safe(name))  \(inspection.input.size) bytes, "
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
            out +=
                "\n" + style.red("Unreadable") + ": \(TerminalText.safe(error.message)) "
                + style.dim(codeAndOffset(error))
                + "\n"
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
            out +=
                "\n" + style.bold(token.path.isEmpty ? "token" : "nested \(TerminalText.safe(token.path))")
                + (token.isValid ? style.green(" valid") : style.red(" invalid")) + "\n"
            if let chain = token.chain { out += renderer.verification(chain) }
            out += renderer.findings(token.findings.filter { verbose || $0.severity != .info })
        }
        return out
    }

    /// The findings about the document around the tokens (its unsigned JSON), when there are any.
    static func documentFindings(_ inspection: JWSInspection, style: TextStyle, verbose: Bool) -> String {
        let shown = inspection.findings.filter { verbose || $0.severity != .info }
        guard !shown.isEmpty else { return "" }
        return "\n" + style.bold("document") + style.dim(" (the unsigned JSON around the tokens)") + "\n"
            + DumpText(style: style).findings(shown)
    }

    /// `(jws-part-count at offset 12)`: the error's code, and where in the input it was found when that is known.
    static func codeAndOffset(_ error: CodedError) -> String {
        "(\(error.code)\(error.offset.map { " at offset \($0)" } ?? ""))"
    }

    static func verdictLine(_ inspection: JWSInspection, name: String?, style: TextStyle) -> String {
        let shown = name.map { " " + TerminalText.safe($0) } ?? ""
        if let error = inspection.readError {
            return VerdictWord.unreadable.styled(style, bold: true) + "\(shown): \(TerminalText.safe(error.message)) "
                + style.dim(codeAndOffset(error)) + "\n"
        }
        let tokens = flattened(inspection.tokens)
        let summary = " (\(tokens.count) JWS, \(tokens.filter(\.isValid).count) valid)"
        return VerdictWord(readable: true, valid: inspection.isValid).styled(style, bold: true) + shown
            + summary + "\n"
    }

    static func tokenText(
        _ verification: JWSVerification, style: TextStyle, verbose: Bool, indent: String,
        nested: Bool
    ) -> String {
        let token = verification.token
        let renderer = DumpText(style: style)
        let place = verification.path.isEmpty ? "" : " at \(TerminalText.safe(verification.path))"
        var out =
            "\n" + indent + style.bold((nested ? "Nested JWS" : "Token") + place)
            + "  " + VerdictWord(readable: true, valid: verification.isValid).styled(style)
            + style.dim("  @\(verification.offset)") + "\n"
        for part in JWSToken.Part.allCases {
            guard let range = token.ranges[part] else { continue }
            out +=
                indent + "  " + TextLayout.rightPad(part.rawValue, 10)
                + style.dim("@\(range.lowerBound), \(range.count) characters → \(decodedLength(token, part)) bytes")
                + "\n"
        }
        if let header = token.header {
            out += indent + style.bold("  Header") + "\n" + claimsText(header, style: style, indent: indent + "    ")
        }
        for (index, entry) in verification.certificates.enumerated() {
            switch entry {
            case .success(let certificate):
                out += indent + "    x5c[\(index)]  " + TerminalText.safe(certificate.subject) + "\n"
                out += indent + "             issuer " + TerminalText.safe(certificate.issuer) + "\n"
                out +=
                    indent + "             valid " + ReceiptDate.format(epochSeconds: certificate.notBefore) + " .. "
                    + ReceiptDate.format(epochSeconds: certificate.notAfter) + ", key "
                    + certificate.publicKeyDescription + "\n"
                let markers = appleMarkers(certificate)
                if !markers.isEmpty {
                    out += indent + "             Apple markers " + markers.joined(separator: ", ") + "\n"
                }
                out += indent + style.dim("             sha256 " + certificate.sha256Fingerprint) + "\n"
            case .failure(let error):
                out +=
                    indent + "    x5c[\(index)]  " + style.red("undecodable: ") + TerminalText.safe(error.message)
                    + "\n"
            }
        }
        if let payload = token.payload {
            out += indent + style.bold("  Payload") + "\n" + claimsText(payload, style: style, indent: indent + "    ")
        }
        out +=
            indent + style.bold("  Signature") + "  \(token.signature.count) octets, \(signatureEncoding(token))"
            + (token.signature.count == 64 && ECDSASignature.isHighS(token.signature) ? ", high S" : "") + "\n"
        if let chain = verification.chain {
            out += renderer.verification(chain).split(separator: "\n").map { indent + $0 + "\n" }.joined()
        }
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
                value =
                    JWSReader.looksLikeCompactJWS(text.utf8)
                    ? style.dim("(a JWS, \(text.utf8.count) characters: shown below)")
                    : (text.count > 120
                        ? style.green(TerminalText.quoted(String(text.prefix(100))))
                            + style.dim("… (\(text.count) characters)")
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
            out +=
                indent + TextLayout.rightPad(TerminalText.safe(paths[node]), 34) + " "
                + style.dim(TextLayout.rightPad(typeName(entry.kind), 7)) + " " + value
                + style.dim("  @\(entry.start)") + "\n"
        }
        return out
    }
}
