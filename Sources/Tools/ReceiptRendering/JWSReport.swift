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
    package static func json(_ inspection: JWSInspection, _ purpose: ReportPurpose, pretty: Bool, file: String? = nil)
        -> [UInt8]
    {
        switch purpose {
        case .dump: return dumpJSON(inspection, pretty: pretty, file: file)
        case .verify: return verifyJSON(inspection, pretty: pretty, file: file)
        }
    }

    /// The text report of a JWS input for `purpose`.
    package static func text(
        _ inspection: JWSInspection, _ purpose: ReportPurpose, name: String, style: TextStyle,
        verbose: Bool
    ) -> String {
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
                DumpJSON.writeHeader(
                    file: file, schema: DumpJSON.schema, kind: "jws", input: inspection.input, to: &json)
                json.array("tokens") { json in
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
                DumpJSON.writeHeader(
                    file: file, schema: VerifyReport.schema, kind: "jws", input: inspection.input, to: &json)
                json.member("valid", inspection.isValid)
                BindingText.write(inspection.binding, to: &json)
                json.objects("tokens", flattened(inspection.tokens)) { token, json in
                    json.member("path", token.path)
                    json.member("valid", token.isValid)
                    DumpJSON.writeVerification(token.chain, to: &json)
                    writeFindings(token.findings, to: &json)
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
        json.array("findings") { json in
            for finding in findings { DumpJSON.writeFinding(finding, to: &json) }
        }
    }

    static func writeToken(_ verification: JWSVerification, to json: inout JSONWriter) {
        let token = verification.token
        json.object { json in
            json.member("path", verification.path)
            json.member("offset", verification.offset)
            PurchaseSummaryText.writeJSON(verification, to: &json)
            json.object("parts") { json in
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
            json.object("header") { json in
                json.member("alg", token.algorithm)
                json.key("members")
                if let header = token.header { writeClaims(header, to: &json) } else { json.null() }
                json.array("x5c") { json in
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
            json.object("payload") { json in
                json.key("text")
                json.string(utf8: token.payloadBytes[...])
                json.key("object")
                if let payload = token.payload {
                    JSONValueWriter.write(payload, payload.root, to: &json)
                } else {
                    json.null()
                }
                json.key("claims")
                if let payload = token.payload { writeClaims(payload, to: &json) } else { json.null() }
            }
            json.object("signature") { json in
                json.member("length", token.signature.count)
                json.member("encoding", signatureEncoding(token))
                json.member("highS", token.signature.count == 64 && ECDSASignature.isHighS(token.signature))
                json.key("value")
                json.hexString(token.signature[...])
            }
            DumpJSON.writeVerification(verification.chain, to: &json)
            writeFindings(verification.findings, to: &json)
            json.array("nested") { json in
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
        guard document.nodes[node].kind == .number, path.hasSuffix("Date") || path.hasSuffix("date") else { return nil }
        return MillisecondUTC.text(ofClaim: document.text(node))
    }

    /// Apple's markers a certificate carries: the receipt-signing leaf's and the WWDR intermediate's.
    static func appleMarkers(_ certificate: Certificate) -> [String] {
        let known = [
            "1.2.840.113635.100.6.11.1": "leaf 1.2.840.113635.100.6.11.1",
            "1.2.840.113635.100.6.2.1": "intermediate 1.2.840.113635.100.6.2.1",
        ]
        return certificate.extensions.compactMap { known[$0.oid] }
    }
}
