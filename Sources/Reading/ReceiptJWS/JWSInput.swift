import ReceiptASN1
import ReceiptDiagnostics
import ReceiptJSON

/// Apple's JWS as users hold them: a compact token (pasted with quotes or white space around it), a server
/// notification body `{"signedPayload": "…"}`, or an App Store Server API response whose strings are JWS
/// (`signedTransactions`, `lastTransactions[].signedTransactionInfo` …). Each token the input holds is read.
public struct JWSInput: Sendable {
    /// What the input was.
    public enum Form: String, Sendable, Hashable {
        /// One compact JWS.
        case compact = "jws"
        /// A JSON document (a notification body, an API response, an array of tokens) whose strings hold JWS.
        case json = "jws-json"
    }

    public var form: Form
    /// The JSON around the tokens, for the JSON form.
    public var json: JSONDocument?
    /// The tokens of the input, in document order: one with path `""` for a compact JWS.
    public var tokens: [NestedJWS]
    /// What was stripped to find the token (quotes, a byte order mark, a Bearer prefix …), one phrase each.
    package var repairs: [String]
    /// What the JSON around the tokens shows (the document is unsigned: whoever handed it over wrote it): token
    /// positions that hold no readable token, tokens with characters around them, duplicate names.
    public var findings: [Finding] = []
    /// Where the JSON starts in the input (after what was stripped), for the JSON form: JSON offsets plus this are
    /// file offsets.
    package var jsonOffset = 0

    /// Whether `bytes` are a JWS input: a compact token (quotes, white space, invisible marks or a Bearer prefix
    /// around it allowed, cut short or not), or a JSON object or array with a token position.
    package static func looksLikeJWS(_ bytes: [UInt8]) -> Bool { recognise(bytes) != nil }

    /// The input read, when `bytes` are a JWS input (nil when they are not one): the classifier's question and the
    /// reader's answer in one pass, so a JSON document is parsed once.
    /// `json`, when given, is the input already read as JSON (white space around it left out).
    package static func recognise(_ bytes: [UInt8], json: JSONDocument? = nil) -> Result<JWSInput, JWSReadError>? {
        let located = JWSText.locate(bytes[...])
        let text = bytes[located.range]
        if text.first == UInt8(ascii: "{") || text.first == UInt8(ascii: "[") {
            guard let document = json ?? (try? JSONDocument.read(Array(text))) else { return nil }
            let positions = JWSPositions.find(in: document)
            // A document is a JWS input when a string in it is a token; one that only hides a token in a JSON string
            // (a JSON log line) is the classifier's to open.
            guard positions.contains(where: { $0.place == .value }) else { return nil }
            return read(document, positions: positions, at: located.range, repairs: located.repairs)
        }
        // A token read whole is a JWS input: reading it checked every character the shape check would (a header
        // starting `eyJ`, two dots, base64url parts), so the common case scans its text once.
        let early = text.starts(with: JWSText.tokenStart) ? read(bytes) : nil
        if case .success? = early { return early }
        // A token cut short (fewer than two dots, as a truncated paste is) is still a JWS, named as one.
        guard
            JWSReader.looksLikeCompactJWS(text)
                || (text.starts(with: JWSText.tokenStart) && text.allSatisfy(ByteSet.wrappedJWS.contains))
        else { return nil }
        return early ?? read(bytes)
    }

    /// Reads every token of the input. A JSON document is read whole: every token position in it is read (none
    /// skipped because it is not exactly a token), and more positions than one document may hold refuse it.
    public static func read(_ bytes: [UInt8]) -> Result<JWSInput, JWSReadError> {
        let located = JWSText.locate(bytes[...])
        let range = located.range
        let repairs = located.repairs
        let text = bytes[range]
        guard !text.isEmpty else { return .failure(JWSReadError(.inputEmpty, "the input is empty")) }
        if text.first != UInt8(ascii: "{") && text.first != UInt8(ascii: "[") {
            return JWSReader.read(text).map { token in
                JWSInput(
                    form: .compact, json: nil, tokens: [NestedJWS(path: "", offset: text.startIndex, token: token)],
                    repairs: repairs)
            }
        }
        let document: JSONDocument
        do {
            document = try JSONDocument.read(Array(text))
        } catch {
            return .failure(
                JWSReadError(
                    .jsonMalformed,
                    "the JSON is malformed at offset \(range.lowerBound + error.offset): \(error.message)",
                    at: range.lowerBound + error.offset))
        }
        return read(document, positions: JWSPositions.find(in: document), at: range, repairs: repairs)
    }

    /// Reads the token positions of a JSON document that stands at `range` of the input.
    static func read(_ document: JSONDocument, positions: [JWSPosition], at range: Range<Int>, repairs: [String])
        -> Result<JWSInput, JWSReadError>
    {
        func fileOffset(_ jsonOffset: Int) -> Int { range.lowerBound + jsonOffset }
        guard positions.count <= JWSReader.maximumNestedPerPayload else {
            return .failure(
                JWSReadError(
                    .jwsTooManyTokens,
                    "the JSON holds \(positions.count) token positions, more than the \(JWSReader.maximumNestedPerPayload) rcpt reads from one document: the document is refused, not half-judged",
                    at: range.lowerBound))
        }
        var tokens: [NestedJWS] = []
        var findings = JWSReader.jsonFindings(document, name: "document", fileOffset: fileOffset)
        var unreadable: [UnreadableJWS] = []
        for content in JWSPositions.read(positions, in: document, depth: 0) {
            switch content {
            case .token(var held, let stripped, let surrounded):
                held.offset = fileOffset(held.offset)
                tokens.append(held)
                if surrounded { findings.append(JWSReader.surroundedFinding(held.path, stripped, at: held.offset)) }
            case .unreadable(let failure):
                unreadable.append(failure)
                findings.append(JWSReader.unreadableFinding(failure, at: fileOffset(failure.offset)))
            }
        }
        guard !tokens.isEmpty else {
            if let first = unreadable.first {
                return .failure(
                    JWSReadError(
                        first.error.kind, "no readable JWS in the JSON: \(first.path): \(first.error.message)",
                        at: fileOffset(first.offset)))
            }
            return .failure(JWSReadError(.jwsNoneInJSON, "the JSON holds no compact JWS string", at: range.lowerBound))
        }
        return .success(
            JWSInput(
                form: .json, json: document, tokens: tokens, repairs: repairs,
                findings: findings.aggregated(), jsonOffset: range.lowerBound))
    }

}

extension ByteSet {
    /// A compact JWS as RFC 7515 §7.1 writes it: base64url segments and their dots.
    package static let compactJWS = base64URL.union(ByteSet("."))
    /// A JWS as people paste it: segments in either base64 alphabet, padded or not, and their dots.
    package static let wrappedJWS = anyBase64.union(ByteSet("."))
}
