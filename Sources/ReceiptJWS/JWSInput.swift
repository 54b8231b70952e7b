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
        /// A JSON document (a notification body, an API response) whose strings hold JWS.
        case json = "jws-json"
    }

    public var form: Form
    /// The JSON around the tokens, for the JSON form.
    public var json: JSONDocument?
    /// The tokens of the input, in document order: one with path `""` for a compact JWS.
    public var tokens: [NestedJWS]
    /// What was stripped to find the token (quotes, white space), one phrase each.
    public var repairs: [String]

    /// Whether `bytes` look like a JWS input: a compact token (quotes and white space around it allowed), or a JSON
    /// object with a compact JWS string somewhere in it. Cheap: decides which reader a command uses.
    public static func looksLikeJWS(_ bytes: [UInt8]) -> Bool {
        let (range, _) = trimmed(bytes)
        let text = bytes[range]
        if JWSReader.looksLikeCompactJWS(text) { return true }
        // A token cut short (fewer than two dots, as a truncated paste is) is still a JWS, named as one.
        if text.starts(with: Array("eyJ".utf8)), text.allSatisfy(isTokenCharacter) { return true }
        guard text.first == UInt8(ascii: "{"), let document = try? JSONDocument.read(Array(text)) else { return false }
        return document.nodes.indices.contains { node in
            document.nodes[node].kind == .string && JWSReader.looksLikeCompactJWS(
                document.bytes[document.nodes[node].start + 1..<document.nodes[node].end - 1])
        }
    }

    /// Reads every token of the input.
    public static func read(_ bytes: [UInt8]) -> Result<JWSInput, JWSReadError> {
        let (range, repairs) = trimmed(bytes)
        let text = bytes[range]
        guard !text.isEmpty else { return .failure(JWSReadError("input-empty", "the input is empty")) }
        if text.first != UInt8(ascii: "{") {
            return JWSReader.read(text).map { token in
                JWSInput(form: .compact, json: nil, tokens: [NestedJWS(path: "", offset: text.startIndex, token: token)],
                         repairs: repairs)
            }
        }
        let document: JSONDocument
        do {
            document = try JSONDocument.read(Array(text))
        } catch {
            return .failure(JWSReadError("json-malformed",
                                         "the JSON is malformed at offset \(range.lowerBound + error.offset): \(error.message)"))
        }
        var tokens: [NestedJWS] = []
        var failures: [String] = []
        let paths = document.paths()
        for (node, entry) in document.nodes.enumerated() where entry.kind == .string {
            guard let value = document.string(node), JWSReader.looksLikeCompactJWS(value.utf8) else { continue }
            switch JWSReader.read(Array(value.utf8)[...]) {
            case .success(let token):
                tokens.append(NestedJWS(path: paths[node], offset: range.lowerBound + entry.start + 1, token: token))
            case .failure(let error): failures.append("\(paths[node]): \(error.message)")
            }
            if tokens.count > JWSReader.maximumNestedPerPayload {
                return .failure(JWSReadError("jws-too-many-tokens",
                                             "the JSON holds more than \(JWSReader.maximumNestedPerPayload) JWS: rcpt reads at most that many from one document"))
            }
        }
        guard !tokens.isEmpty else {
            return .failure(JWSReadError("jws-none-in-json", failures.first.map { "no readable JWS in the JSON: \($0)" }
                                            ?? "the JSON holds no compact JWS string"))
        }
        return .success(JWSInput(form: .json, json: document, tokens: tokens, repairs: repairs))
    }

    /// A character of a compact JWS: base64url (either alphabet, padding) or a dot.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"),
             UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// The range of `bytes` without surrounding white space and one pair of quotes, and what was stripped.
    static func trimmed(_ bytes: [UInt8]) -> (Range<Int>, [String]) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        var start = 0
        var end = bytes.count
        var repairs: [String] = []
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            start = 3
            repairs.append("a UTF-8 byte order mark")
        }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        if end - start >= 2, bytes[start] == bytes[end - 1],
           bytes[start] == UInt8(ascii: "\"") || bytes[start] == UInt8(ascii: "'") {
            start += 1
            end -= 1
            repairs.append("surrounding quotes")
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        }
        return (start..<end, repairs)
    }
}
