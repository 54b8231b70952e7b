import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJSON
import ReceiptJWS
import ReceiptValidation

/// `rcpt report`: one self-contained HTML page — inline style and script, no request of any kind — that shows a
/// `ReportDocument`: the structure beside the bytes, the verdict, the findings on their bytes, the certificate chains
/// against the evaluation time, and the purchase timeline.
///
/// Input is data, never code. Everything from the input travels in one `application/json` script element (which no
/// browser runs) with `<`, `>` and `&` escaped, so no string can close it; the page's own script puts it on the page
/// with `textContent` only. A Content-Security-Policy allows exactly the page's own style and script, by their
/// SHA-256, and nothing else: no other script, no style attribute, no connection, no form, no image, no font.
package enum HTMLReport {
    package static let schema = "rcpt.report/1"

    /// The page, handed to `sink` in pieces (each valid only during the call): the data is never held whole, so a
    /// 40 MB receipt's 80 MB page costs one piece at a time.
    package static func write(_ report: ReportDocument, to sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        let style = HTMLReportAssets.style
        let script = HTMLReportAssets.script
        let policy =
            "default-src 'none'; script-src '\(hash(script))'; style-src '\(hash(style))'; "
            + "base-uri 'none'; form-action 'none'"
        func emit(_ text: String) {
            var text = text
            text.withUTF8 { sink($0) }
        }
        emit(
            """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="rcpt">
            <title>rcpt report: \(escaped(report.name))</title>
            <style>\(style)</style>
            </head>
            <body>
            <noscript><p>This report draws itself with the script in this file; allow scripts for this page to see it.</p></noscript>
            <script type="application/json" id="rcpt-data">
            """)
        writeData(report, to: sink)
        emit("</script>\n<script>\(script)</script>\n</body>\n</html>\n")
    }

    /// Whether `space` is the decoding of its source text, and that text is exactly the canonical encoding of it
    /// (the page's own decoder then gives the same bytes).
    static func isCanonicalDecoding(_ space: ReportDocument.Space, in report: ReportDocument) -> Bool {
        guard let source = space.source, source.space >= 0, source.space < report.spaces.count else { return false }
        let text = report.spaces[source.space].bytes
        guard source.start >= 0, source.length >= 0, source.start <= text.count - source.length else { return false }
        let url = source.alphabet == "base64url"
        let encoded = Base64Codec.encode(space.bytes, alphabet: url ? .url : .standard, padded: !url)
        return encoded.utf8.elementsEqual(text[source.start..<(source.start + source.length)])
    }

    /// `'sha256-…'` of a script or style element's text, as a Content-Security-Policy names it.
    static func hash(_ text: String) -> String {
        let digest = (try? Digest.hash(Array(text.utf8), algorithm: .sha256)) ?? []
        return "sha256-" + Base64Codec.encode(digest, alphabet: .standard, padded: true)
    }

    /// Text for HTML content or an attribute value.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Controls and bidirectional overrides are shown as their code, never obeyed.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    || (0x202A...0x202E).contains(scalar.value)
                    || (0x2066...0x2069).contains(scalar.value)
                {
                    let digits = String(scalar.value, radix: 16, uppercase: true)
                    out += "⟨U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "⟩"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// The report's data as JSON (`rcpt.report/1`), with `<`, `>` and `&` escaped (`escapingMarkup`).
    static func writeData(_ report: ReportDocument, to sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var json = JSONWriter(pretty: false, sink: { chunk in escapingMarkup(chunk, to: sink) })
        json.object { json in
            json.member("schema", schema)
            json.member("name", report.name)
            json.member("kind", report.document.kind.rawValue)
            json.member("headline", report.headline)
            json.member("wrapped", report.isWrapped)
            json.object("trust") { json in
                json.member("anchor", report.trust.anchor)
                json.member("customRoots", report.trust.customRoots)
                json.member("evaluatedAt", report.trust.evaluatedAt)
                json.member("evaluatedAtSource", report.trust.evaluatedAtSource)
            }
            let input = report.document.input
            json.object("input") { json in
                json.member("size", input.size)
                json.member("sha256", input.sha256)
                json.member("format", input.format)
            }
            json.object("verdict") { json in
                json.member("valid", report.document.isValid)
                // The word the page shows, as verify's text does.
                json.member(
                    "word",
                    VerdictWord(readable: report.document.readError == nil, valid: report.document.isValid).rawValue)
                json.member("errors", strings: report.document.codes(.error))
                json.member("warnings", strings: report.document.codes(.warning))
                json.key("readError")
                DumpJSON.writeReadErrorValue(report.document.readError, to: &json)
            }
            json.member("labels", strings: report.labels.list)
            json.objects("spaces", report.spaces) { space, json in
                json.member("label", space.label)
                json.member("kind", space.kind.rawValue)
                json.member("size", space.bytes.count)
                // Bytes decoded from base64 text the page already holds are decoded there, when that text is
                // exactly their canonical encoding: every byte is embedded once.
                json.key("bytes")
                if isCanonicalDecoding(space, in: report) {
                    json.null()
                } else {
                    json.base64String(space.bytes[...])
                }
                json.key("source")
                if let source = space.source {
                    json.object { json in
                        json.member("space", source.space)
                        json.member("start", source.start)
                        json.member("length", source.length)
                        json.member("alphabet", source.alphabet)
                    }
                } else {
                    json.null()
                }
                json.member("nodeCount", space.tree.count)
                json.key("nodes")
                json.base64String(space.tree.encoded()[...])
            }
            json.objects("findings", report.marks) { mark, json in
                json.member("severity", mark.severity)
                json.member("code", mark.code)
                json.member("message", mark.message)
                json.member("space", mark.space)
                json.member("offset", mark.offset)
            }
            json.objects("chains", report.chains) { chain, json in
                json.member("title", chain.title)
                json.member("verdict", chain.verdict)
                json.member("evaluatedAt", chain.evaluatedAt)
                json.objects("certificates", chain.certificates) { certificate, json in
                    json.member("subject", certificate.subject)
                    json.member("notBefore", certificate.notBefore)
                    json.member("notAfter", certificate.notAfter)
                    json.member("space", certificate.space)
                    json.member("start", certificate.range.lowerBound)
                    json.member("end", certificate.range.upperBound)
                }
            }
            json.objects("tokens", report.tokens) { token, json in
                json.member("path", token.path)
                json.member("kind", token.kind)
                json.member("holder", token.holder)
                json.member("offset", token.offset)
                for part in JWSToken.Part.allCases {
                    if let space = token.parts[part] {
                        json.key(named: part.rawValue, suffix: "Space")
                        json.number(space)
                    }
                }
            }
            json.member("eventCount", report.eventCount)
            json.objects("events", report.events) { event, json in
                json.member("time", event.time)
                json.member("kind", event.kind)
                json.member("product", event.product)
                json.member("transaction", event.transaction)
                json.member("space", event.space)
                json.member("offset", event.offset)
            }
        }
        json.flush()
    }

    /// `chunk` with `<`, `>` and `&` written as `\u003c`, `\u003e` and `\u0026`: in JSON they occur only inside
    /// strings, where the escapes mean the same, and no text can then close the element that holds the data.
    static func escapingMarkup(_ chunk: UnsafeBufferPointer<UInt8>, to sink: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        for (index, byte) in chunk.enumerated()
        where byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") {
            sink(UnsafeBufferPointer(rebasing: chunk[start..<index]))
            let escape: StaticString =
                byte == UInt8(ascii: "<") ? "\\u003c" : byte == UInt8(ascii: ">") ? "\\u003e" : "\\u0026"
            escape.withUTF8Buffer { sink($0) }
            start = index + 1
        }
        sink(UnsafeBufferPointer(rebasing: chunk[start...]))
    }
}
