import ReceiptDiagnostics
import ReceiptJSON

/// Reads compact JWS: splits the parts, decodes each strictly (anomalies as findings with offsets), reads the header
/// and payload with the JSON reader, notes what a validator should know about the header, and reads the JWS held in
/// the payload's strings, to a bounded depth.
public enum JWSReader {
    /// How deep JWS may nest in JWS (a notification holds a transaction: depth 1). Deeper tokens are left as strings.
    public static let maximumNesting = 3
    /// The most JWS read from one payload.
    public static let maximumNestedPerPayload = 64
    /// 2^53: integers beyond it lose precision in JavaScript and any reader into a double.
    static let safeIntegerLimit = "9007199254740992"

    /// Reads `text` (a compact JWS: base64url characters and two dots) at `depth`.
    public static func read(_ text: ArraySlice<UInt8>, depth: Int = 0) -> Result<JWSToken, JWSReadError> {
        var dots: [Int] = []
        for index in text.indices where text[index] == UInt8(ascii: ".") { dots.append(index) }
        guard dots.count == 2 else {
            let parts = dots.count + 1
            let what = parts == 5 ? "five parts: a JWE (an encrypted token), which Apple never sends"
                : "\(parts) part\(parts == 1 ? "" : "s")"
            return .failure(JWSReadError("jws-part-count", "a compact JWS has three parts separated by dots; this has \(what)"))
        }
        var token = JWSToken(text: text, depth: depth)
        token.ranges = [
            .header: text.startIndex..<dots[0],
            .payload: dots[0] + 1..<dots[1],
            .signature: dots[1] + 1..<text.endIndex,
        ]
        var decoded: [JWSToken.Part: [UInt8]] = [:]
        for part in JWSToken.Part.allCases {
            guard let range = token.ranges[part] else { continue }
            switch Base64URL.decode(text[range]) {
            case .failure(let failure):
                return .failure(JWSReadError("jws-invalid-base64url", describe(failure, part: part, start: range.lowerBound)))
            case .success(let (bytes, anomalies)):
                decoded[part] = bytes
                token.findings += findings(anomalies, part: part, start: range.lowerBound)
            }
        }
        token.headerBytes = decoded[.header] ?? []
        token.payloadBytes = decoded[.payload] ?? []
        token.signature = decoded[.signature] ?? []
        do {
            let header = try JSONDocument.read(token.headerBytes)
            guard header.nodes.first?.kind == .object else {
                return .failure(JWSReadError("jws-header-not-object", "the JWS header is JSON but not an object"))
            }
            token.header = header
        } catch {
            return .failure(JWSReadError("jws-header-not-json",
                                         "the JWS header is not JSON: \(error.message) at offset \(error.offset) of the decoded header"))
        }
        do {
            token.payload = try JSONDocument.read(token.payloadBytes)
        } catch {
            return .failure(JWSReadError("jws-payload-not-json",
                                         "the JWS payload is not JSON: \(error.message) at offset \(error.offset) of the decoded payload"))
        }
        if let header = token.header, let start = token.ranges[.header]?.lowerBound {
            token.findings += jsonFindings(header, part: .header, start: start)
            token.findings += headerFindings(header, start: start)
        }
        if let payload = token.payload, let start = token.ranges[.payload]?.lowerBound {
            token.findings += jsonFindings(payload, part: .payload, start: start)
            token.findings += AppleClaims.typeFindings(payload) { start + Base64URL.textOffset(ofDecodedByte: $0) }
            if depth < maximumNesting {
                token.nested = nestedTokens(in: payload, depth: depth + 1)
            }
            let holdsMore = depth >= maximumNesting ? countTokens(in: payload) > 0
                : countTokens(in: payload) > token.nested.count && token.nested.count >= maximumNestedPerPayload
            if holdsMore {
                token.findings.append(Finding(.jwsLimitExceeded, at: start,
                                              depth >= maximumNesting
                                                ? "the payload holds JWS nested deeper than \(maximumNesting) levels: they are not verified"
                                                : "the payload holds more than \(maximumNestedPerPayload) JWS: the ones beyond are not verified"))
            }
        }
        return .success(token)
    }

    /// Whether `text` has the shape of a compact JWS: base64url characters (either alphabet, padding allowed), two
    /// dots, starting `eyJ` (the encoding of `{"`).
    public static func looksLikeCompactJWS<Bytes: Collection>(_ text: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard text.count >= 5, text.starts(with: Array("eyJ".utf8)) else { return false }
        var dots = 0
        for byte in text {
            switch byte {
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"),
                 UInt8(ascii: "/"), UInt8(ascii: "="):
                continue
            default: return false
            }
        }
        return dots == 2 || dots == 4
    }

    // MARK: - Findings

    static func describe(_ failure: Base64URL.Failure, part: JWSToken.Part, start: Int) -> String {
        switch failure {
        case .invalidCharacter(let offset, let byte):
            let shown = (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
            return "the JWS \(part.rawValue) is not base64url: \(shown) at offset \(start + offset)"
        case .impossibleLength:
            return "the JWS \(part.rawValue) is not base64url: its length leaves one character over"
        case .dataAfterPadding(let offset):
            return "the JWS \(part.rawValue) is not base64url: characters after '=' padding at offset \(start + offset)"
        }
    }

    static func findings(_ anomalies: Base64URL.Anomalies, part: JWSToken.Part, start: Int) -> [Finding] {
        var findings: [Finding] = []
        let name = part.rawValue
        if let offset = anomalies.padding {
            findings.append(Finding(.jwsBase64urlPadding, at: start + offset, "the JWS \(name) ends in '=' padding",
                                    fields: [FindingField("part", name)]))
        }
        if let offset = anomalies.standardAlphabet {
            findings.append(Finding(.jwsBase64urlAlphabet, at: start + offset,
                                    "the JWS \(name) uses '+' or '/' (standard base64), not base64url's '-' and '_'",
                                    fields: [FindingField("part", name)]))
        }
        if anomalies.nonZeroTrailingBits {
            findings.append(Finding(.jwsBase64urlTrailingBits, at: start,
                                    "the JWS \(name)'s last character has bits set that decoding drops",
                                    fields: [FindingField("part", name)]))
        }
        return findings
    }

    /// Duplicate names and unsafe integers in a decoded part; offsets point at the base64url character that carries
    /// the JSON byte, with the offset in the decoded JSON as a field.
    static func jsonFindings(_ document: JSONDocument, part: JWSToken.Part, start: Int) -> [Finding] {
        var findings: [Finding] = []
        let name = part.rawValue
        func fileOffset(_ jsonOffset: Int) -> Int { start + Base64URL.textOffset(ofDecodedByte: jsonOffset) }
        var paths: [String]?
        for duplicate in document.duplicateKeys {
            let resolved = paths ?? document.paths()
            paths = resolved
            let jsonOffset = (document.nodes[duplicate.duplicate].keyRange?.lowerBound ?? 1) - 1
            let first = document.text(duplicate.first)
            let later = document.text(duplicate.duplicate)
            let path = resolved[duplicate.duplicate]
            findings.append(Finding(.jsonDuplicateKey, at: fileOffset(jsonOffset),
                                    "the \(name) names \"\(duplicate.name)\" twice (\(path)): \(first) first, \(later) later; JSON.parse, Python and Foundation take the later, some readers the first",
                                    fields: [FindingField("part", name), FindingField("path", path),
                                             FindingField("json_offset", String(jsonOffset))]))
        }
        for (node, entry) in document.nodes.enumerated() where entry.kind == .number {
            let text = document.text(node)
            let digits = text.hasPrefix("-") ? String(text.dropFirst()) : text
            guard digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  digits.count > safeIntegerLimit.count
                    || (digits.count == safeIntegerLimit.count && digits > safeIntegerLimit)
            else { continue }
            let resolved = paths ?? document.paths()
            paths = resolved
            let path = resolved[node]
            findings.append(Finding(.jsonUnsafeInteger, at: fileOffset(entry.start),
                                    "\(path) in the \(name) is \(text), beyond 2^53: a reader into a double (JavaScript) sees another number",
                                    fields: [FindingField("part", name), FindingField("path", path),
                                             FindingField("json_offset", String(entry.start))]))
        }
        return findings
    }

    static func headerFindings(_ header: JSONDocument, start: Int) -> [Finding] {
        var findings: [Finding] = []
        for child in header.children(of: header.root) {
            guard let name = header.key(child) else { continue }
            let offset = start + Base64URL.textOffset(ofDecodedByte: header.nodes[child].start)
            switch name {
            case "crit":
                findings.append(Finding(.jwsCriticalHeader, at: offset,
                                        "the header has crit \(header.text(child)): rcpt understands no JWS extension, so the token cannot be accepted"))
            case "jku", "x5u", "jwk":
                findings.append(Finding(.jwsKeyReferenceHeader, at: offset,
                                        "the header has \(name) (\(header.text(child).prefix(120))): a key from elsewhere, never fetched or used; only x5c is",
                                        fields: [FindingField("member", name)]))
            case "kid":
                findings.append(Finding(.jwsKeyReferenceHeader, severity: .info, at: offset,
                                        "the header has kid \(header.text(child).prefix(120)): a key name, not used; only x5c is",
                                        fields: [FindingField("member", name)]))
            default:
                continue
            }
        }
        return findings
    }

    /// How many of the payload's strings look like compact JWS.
    static func countTokens(in payload: JSONDocument) -> Int {
        payload.nodes.indices.reduce(0) { count, node in
            guard payload.nodes[node].kind == .string, let text = payload.string(node) else { return count }
            return looksLikeCompactJWS(text.utf8) ? count + 1 : count
        }
    }

    /// The JWS held in the payload's string values (`data.signedTransactionInfo`, `signedTransactions[0]` …).
    static func nestedTokens(in payload: JSONDocument, depth: Int) -> [NestedJWS] {
        var nested: [NestedJWS] = []
        var paths: [String]?
        for (node, entry) in payload.nodes.enumerated() where entry.kind == .string {
            guard nested.count < maximumNestedPerPayload, let value = payload.string(node),
                  looksLikeCompactJWS(value.utf8), case .success(let token) = read(Array(value.utf8)[...], depth: depth)
            else { continue }
            let resolved = paths ?? payload.paths()
            paths = resolved
            nested.append(NestedJWS(path: resolved[node], offset: entry.start + 1, token: token))
        }
        return nested
    }
}
