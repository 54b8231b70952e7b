import ReceiptASN1
import ReceiptDiagnostics
import ReceiptJSON

/// Reads compact JWS: splits the parts, decodes each strictly (anomalies as findings with offsets), reads the header
/// and payload with the JSON reader, notes what a validator should know about the header, and reads the JWS held in
/// the payload's strings, to a bounded depth.
public enum JWSReader {
    /// How deep JWS may nest in JWS (a notification holds a transaction: depth 1). Deeper tokens are left as strings.
    public static let maximumNesting = 3
    /// The most JWS read from one payload.
    package static let maximumNestedPerPayload = 64
    /// 2^53: integers beyond it lose precision in JavaScript and any reader into a double.
    static let safeIntegerLimit = "9007199254740992"

    /// Reads `text` (a compact JWS: base64url characters and two dots) at `depth`.
    public static func read(_ text: ArraySlice<UInt8>, depth: Int = 0) -> Result<JWSToken, JWSReadError> {
        let dots = ByteSearch.indices(of: UInt8(ascii: "."), in: text)
        guard dots.count == 2 else {
            let parts = dots.count + 1
            let what =
                parts == 5
                ? "five parts: a JWE (an encrypted token), which Apple never sends"
                : parts < 3
                    ? "\(parts) part\(parts == 1 ? "" : "s") (a token cut short, as a paste or a log line truncates it, has fewer)"
                    : "\(parts) parts"
            return .failure(
                JWSReadError(
                    .jwsPartCount, "a compact JWS has three parts separated by dots; this has \(what)",
                    at: dots.count > 2 ? dots[2] : text.startIndex))
        }
        var token = JWSToken(text: text, depth: depth)
        token.ranges = [
            .header: text.startIndex..<dots[0],
            .payload: dots[0] + 1..<dots[1],
            .signature: dots[1] + 1..<text.endIndex,
        ]
        let headerText = text[text.startIndex..<dots[0]]
        let knownHeader = JWSHeaderCache.header(headerText)
        var decoded: [JWSToken.Part: [UInt8]] = [:]
        var headerFindingCount = 0
        for part in JWSToken.Part.allCases where part != .header || knownHeader == nil {
            guard let range = token.ranges[part] else { continue }
            switch Base64URL.decode(text[range]) {
            case .failure(let failure):
                return .failure(
                    JWSReadError(
                        .jwsInvalidBase64URL, describe(failure, part: part, start: range.lowerBound),
                        at: offset(of: failure, in: range)))
            case .success(let (bytes, anomalies)):
                decoded[part] = bytes
                let partFindings = findings(anomalies, part: part, start: range.lowerBound)
                if part == .header { headerFindingCount += partFindings.count }
                token.findings += partFindings
            }
        }
        if let knownHeader {
            token.headerBytes = knownHeader.bytes
            token.header = knownHeader.document
        } else {
            token.headerBytes = decoded[.header] ?? []
            switch object(token.headerBytes, part: .header, at: token.ranges[.header]?.lowerBound) {
            case .success(let header): token.header = header
            case .failure(let error): return .failure(error)
            }
        }
        token.payloadBytes = decoded[.payload] ?? []
        token.signature = decoded[.signature] ?? []
        switch object(token.payloadBytes, part: .payload, at: token.ranges[.payload]?.lowerBound) {
        case .success(let payload): token.payload = payload
        case .failure(let error): return .failure(error)
        }
        if knownHeader == nil, let header = token.header, let start = token.ranges[.header]?.lowerBound {
            let headerFindings =
                jsonFindings(header, part: .header, start: start) + headerFindings(header, start: start)
            token.findings += headerFindings
            if headerFindingCount == 0 && headerFindings.isEmpty {
                JWSHeaderCache.keep(headerText, JWSHeaderCache.Header(bytes: token.headerBytes, document: header))
            }
        }
        if let payload = token.payload, let start = token.ranges[.payload]?.lowerBound {
            func fileOffset(_ jsonOffset: Int) -> Int { start + Base64URL.textOffset(ofDecodedByte: jsonOffset) }
            token.findings += jsonFindings(payload, part: .payload, start: start)
            token.findings += AppleClaims.typeFindings(payload, offset: fileOffset)
            let positions = JWSPositions.find(in: payload)
            if !positions.isEmpty, depth >= maximumNesting {
                token.findings.append(
                    Finding(
                        .jwsLimitExceeded, at: start,
                        "the payload holds JWS nested deeper than \(maximumNesting) levels: they are not verified, so the token is refused"
                    ))
            } else if !positions.isEmpty {
                if positions.count > maximumNestedPerPayload {
                    let count = positions.count
                    token.findings.append(
                        Finding(
                            .jwsLimitExceeded, at: start,
                            "the payload holds \(count) token positions, more than \(maximumNestedPerPayload): the ones beyond are not verified, so the token is refused"
                        ))
                }
                let contents = JWSPositions.read(
                    Array(positions.prefix(maximumNestedPerPayload)), in: payload,
                    depth: depth + 1)
                for content in contents {
                    switch content {
                    case .token(let held, let stripped, let surrounded):
                        token.nested.append(held)
                        if surrounded {
                            token.findings.append(surroundedFinding(held.path, stripped, at: fileOffset(held.offset)))
                        }
                    case .unreadable(let unreadable):
                        token.findings.append(unreadableFinding(unreadable, at: fileOffset(unreadable.offset)))
                    }
                }
            }
        }
        token.findings = token.findings.aggregated()
        return .success(token)
    }

    /// Whether `text` has the shape of a compact JWS (`JWSText.hasTokenShape`): base64url characters in dot-separated
    /// parts, the first decoding to a JSON object's start.
    package static func looksLikeCompactJWS<Bytes: Collection>(_ text: Bytes) -> Bool where Bytes.Element == UInt8 {
        JWSText.hasTokenShape(text)
    }

    // MARK: - Findings

    /// A decoded part read as a JSON object, or why it is not one (`offset`: where the part starts in the text).
    static func object(_ bytes: [UInt8], part: JWSToken.Part, at offset: Int?) -> Result<JSONDocument, JWSReadError> {
        let isHeader = part == .header
        do {
            let document = try JSONDocument.read(bytes)
            guard document.nodes.first?.kind == .object else {
                return .failure(
                    JWSReadError(
                        isHeader ? .jwsHeaderNotObject : .jwsPayloadNotObject,
                        isHeader
                            ? "the JWS header is JSON but not an object"
                            : "the JWS payload is JSON but not an object: Apple signs only JSON objects",
                        at: offset))
            }
            return .success(document)
        } catch {
            return .failure(
                JWSReadError(
                    isHeader ? .jwsHeaderNotJSON : .jwsPayloadNotJSON,
                    "the JWS \(part.rawValue) is not JSON: \(error.message) at offset \(error.offset) of the decoded \(part.rawValue)",
                    at: offset))
        }
    }

    /// Where in the text a base64url failure shows: the offending character, or the part's last one when its length
    /// is impossible.
    static func offset(of failure: Base64URL.Failure, in range: Range<Int>) -> Int {
        switch failure {
        case .invalidCharacter(let offset, _), .dataAfterPadding(let offset): return range.lowerBound + offset
        case .impossibleLength: return max(range.lowerBound, range.upperBound - 1)
        }
    }

    static func describe(_ failure: Base64URL.Failure, part: JWSToken.Part, start: Int) -> String {
        switch failure {
        case .invalidCharacter(let offset, let byte):
            let spaces: [UInt8: String] = [
                0x0A: "a line break", 0x0D: "a carriage return", 0x20: "a space", 0x09: "a tab",
            ]
            if let space = spaces[byte] {
                // A token broken by hand: said so, and what to do (a newcomer read "byte 10" as damage).
                return
                    "the JWS \(part.rawValue) is not base64url: \(space) (byte \(byte)) at offset \(start + offset); a token holds no white space: remove it (a token wrapped at one width throughout is joined as pasted)"
            }
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
            // Padding as base64 writes it is read by Apple's libraries (a warning); any other, refused by them, an
            // error (a red team's trial: `=` or `===` after a genuine signature was valid).
            findings.append(
                anomalies.irregularPadding
                    ? Finding(
                        .jwsBase64urlPadding, severity: .error, at: start + offset,
                        "the JWS \(name) ends in padding base64 does not write (the part is not a multiple of four characters with one or two '='): Apple's libraries refuse it",
                        fields: [FindingField("part", name)])
                    : Finding(
                        .jwsBase64urlPadding, at: start + offset, "the JWS \(name) ends in '=' padding",
                        fields: [FindingField("part", name)]))
        }
        if let offset = anomalies.standardAlphabet {
            findings.append(
                Finding(
                    .jwsBase64urlAlphabet, at: start + offset,
                    "the JWS \(name) uses '+' or '/' (standard base64), not base64url's '-' and '_'",
                    fields: [FindingField("part", name)]))
        }
        if anomalies.nonZeroTrailingBits {
            findings.append(
                Finding(
                    .jwsBase64urlTrailingBits, at: start,
                    "the JWS \(name)'s last character has bits set that decoding drops: a second spelling of the same bytes, which Apple's libraries refuse",
                    fields: [FindingField("part", name)]))
        }
        return findings
    }

    /// Duplicate names and unsafe integers in a decoded part; offsets point at the base64url character that carries
    /// the JSON byte, with the offset in the decoded JSON as a field.
    static func jsonFindings(_ document: JSONDocument, part: JWSToken.Part, start: Int) -> [Finding] {
        jsonFindings(document, name: part.rawValue) { start + Base64URL.textOffset(ofDecodedByte: $0) }
    }

    /// Duplicate names and unsafe integers in JSON called `name` (the header, the payload, the document), at the
    /// offsets `fileOffset` gives for its JSON offsets. Past the aggregation limit a duplicate costs no text.
    package static func jsonFindings(_ document: JSONDocument, name: String, fileOffset: (Int) -> Int) -> [Finding] {
        var findings: [Finding] = []
        var paths: [String]?
        let limit = [Finding].aggregationLimit
        // Exact duplicates, then names that differ only in case: Go's encoding/json and .NET match members without
        // regard to case, so `SignedPayload` after `signedPayload` is the copy they read.
        for (duplicates, byCase) in [(document.duplicateKeys, false), (document.caseFoldedDuplicateKeys, true)] {
            for (index, duplicate) in duplicates.enumerated() {
                let jsonOffset = (document.nodes[duplicate.duplicate].keyRange?.lowerBound ?? 1) - 1
                let at = fileOffset(jsonOffset)
                guard index < limit else {
                    // The rest are counted in one finding, as `aggregated()` would, without a finding each.
                    let more = duplicates.count - limit
                    findings.append(
                        Finding(
                            .jsonDuplicateKey, at: at,
                            "\(more) more \(byCase ? "names differing only in case" : "duplicate names") like the \(limit) above (the first at offset \(at))",
                            fields: [FindingField("more", String(more))]))
                    break
                }
                let resolved = paths ?? document.paths()
                paths = resolved
                let path = resolved[duplicate.duplicate]
                let first = byCase ? "\"\(document.key(duplicate.first) ?? "")\"" : document.text(duplicate.first)
                let later = byCase ? "\"\(duplicate.name)\"" : document.text(duplicate.duplicate)
                let why =
                    byCase
                    ? "names differing only in case: Go and .NET readers match names without regard to case and take the later"
                    : "JSON.parse, Python and Foundation take the later, some readers the first"
                findings.append(
                    Finding(
                        .jsonDuplicateKey, at: at,
                        "the \(name) names \"\(duplicate.name)\" twice (\(path)): \(first.prefix(80)) first, \(later.prefix(80)) later; \(why)",
                        fields: [
                            FindingField("part", name), FindingField("path", path),
                            FindingField("json_offset", String(jsonOffset)),
                        ]))
            }
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
            findings.append(
                Finding(
                    .jsonUnsafeInteger, at: fileOffset(entry.start),
                    "\(path) in the \(name) is \(text.prefix(40))\(text.count > 40 ? "…" : ""), beyond 2^53: a reader into a double (JavaScript) sees another number",
                    fields: [
                        FindingField("part", name), FindingField("path", path),
                        FindingField("json_offset", String(entry.start)),
                    ]))
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
                findings.append(
                    Finding(
                        .jwsCriticalHeader, at: offset,
                        "the header has crit \(header.text(child)): rcpt understands no JWS extension, so the token cannot be accepted"
                    ))
            case "jku", "x5u", "jwk":
                findings.append(
                    Finding(
                        .jwsKeyReferenceHeader, at: offset,
                        "the header has \(name) (\(header.text(child).prefix(120))): a key from elsewhere, never fetched or used; only x5c is",
                        fields: [FindingField("member", name)]))
            case "b64", "zip", "enc":
                findings.append(
                    Finding(
                        .jwsHeaderUnsupported, at: offset,
                        "the header has \(name) \(header.text(child).prefix(40)): it changes how the payload is read (RFC 7797, RFC 7516), Apple sends none, and rcpt honours none",
                        fields: [FindingField("member", name)]))
            case "kid":
                findings.append(
                    Finding(
                        .jwsKeyReferenceHeader, severity: .info, at: offset,
                        "the header has kid \(header.text(child).prefix(120)): a key name, not used; only x5c is",
                        fields: [FindingField("member", name)]))
            default:
                continue
            }
        }
        return findings
    }

    /// A token found in JSON with characters around it.
    package static func surroundedFinding(_ path: String, _ stripped: [String], at offset: Int) -> Finding {
        Finding(
            .jwsTokenSurrounded, at: offset,
            "the token at \(path) has characters around it\(stripped.isEmpty ? " (white space)" : ": " + stripped.joined(separator: ", ")): stripped as lenient readers do, and the token verified; Apple sends bare tokens",
            fields: [FindingField("path", path)])
    }

    /// A token position that holds no compact JWS.
    package static func unreadableFinding(_ unreadable: UnreadableJWS, at offset: Int) -> Finding {
        Finding(
            .jwsTokenUnreadable, at: offset,
            "\(unreadable.path) holds no readable JWS: \(unreadable.error.message); a lenient reader may still take an unverified token from it",
            fields: [FindingField("path", unreadable.path), FindingField("reason", unreadable.error.code)])
    }
}
