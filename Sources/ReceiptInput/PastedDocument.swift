import ReceiptJSON
import ReceiptJWS

/// One layer people wrap a receipt or a JWS in, taken off: the text inside, what was done, and where.
struct PastedDocument {
    /// The text inside the layer.
    var inner: [UInt8]
    /// What was done, for people.
    var phrase: String
    /// Where the inner text starts in the outer one (for a decoding step, where the decoding started).
    var offset: Int
    /// Whether `inner` is a slice of the outer text (the offsets add up), not a decoding of it.
    var isSlice: Bool

    /// The one layer `text` is wrapped in, in this order: a JSON document holding the document in one string, URL
    /// encoding, a form body, text around the document. Nil when there is none (or more than one candidate).
    static func unwrap(_ text: [UInt8]) -> PastedDocument? {
        let trimmed = trim(text)
        guard !trimmed.isEmpty else { return nil }
        if text[trimmed.lowerBound] == UInt8(ascii: "{") || text[trimmed.lowerBound] == UInt8(ascii: "["),
           let document = try? JSONDocument.read(Array(text[trimmed])) {
            return jsonString(document, base: trimmed.lowerBound)
        }
        if let decoded = percentDecoded(text) {
            return PastedDocument(inner: decoded, phrase: "URL-decoded the input (percent-escapes)", offset: 0,
                                  isSlice: false)
        }
        if let field = formField(text, trimmed) { return field }
        return embedded(text)
    }

    // MARK: - JSON

    /// The one string of a JSON document that holds a document (JSON, a token, a receipt's base64), when the
    /// document is not itself a verifyReceipt body or a notification (those are their readers' to judge).
    static func jsonString(_ document: JSONDocument, base: Int) -> PastedDocument? {
        guard document.nodes.first?.kind == .object || document.nodes.first?.kind == .array else { return nil }
        for name in ["receipt-data", "latest_receipt", "signedPayload"]
        where document.member(name, of: document.root) != nil {
            return nil
        }
        var found: (node: Int, value: [UInt8])?
        for (node, entry) in document.nodes.enumerated() where entry.kind == .string {
            guard let value = document.string(node).map({ Array($0.utf8) }), holdsDocument(value) else { continue }
            if let found, found.value != value { return nil }
            if found == nil { found = (node, value) }
        }
        guard let found else { return nil }
        let path = document.paths()[found.node]
        return PastedDocument(inner: found.value,
                              phrase: "read the JSON string at \(path.isEmpty ? "the top level" : path) (offset \(base + document.nodes[found.node].start)), which holds the document",
                              offset: base + document.nodes[found.node].start + 1, isSlice: false)
    }

    /// Whether a string (a JSON value, a form field) holds a document: JSON, a token, or a receipt's base64.
    static func holdsDocument(_ value: [UInt8]) -> Bool {
        let range = trim(value)
        guard !range.isEmpty else { return false }
        let body = value[range]
        if body.first == UInt8(ascii: "{") || body.first == UInt8(ascii: "[") { return true }
        if JWSText.looksLikeToken(Array(body)) { return true }
        if body.starts(with: Array("%7B".utf8)) || body.starts(with: Array("%7b".utf8)) { return true }
        return body.starts(with: Array("MI".utf8)) && body.count >= 64
            && body.allSatisfy { isBase64($0) || isSpace($0) || $0 == UInt8(ascii: "%") }
    }

    // MARK: - URL-encoding and form bodies

    /// `text` with every `%XX` escape decoded (a `+` stays a `+`: in base64 it is one), when it has any.
    static func percentDecoded(_ text: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = 0
        var changed = false
        while index < text.count {
            if text[index] == UInt8(ascii: "%"), index + 2 < text.count, let high = hex(text[index + 1]),
               let low = hex(text[index + 2]) {
                out.append(high << 4 | low)
                index += 3
                changed = true
            } else {
                out.append(text[index])
                index += 1
            }
        }
        return changed ? out : nil
    }

    /// The one field of a form body (`receipt-data=…&password=…`, `signedPayload=…`) that holds a document.
    static func formField(_ text: [UInt8], _ trimmed: Range<Int>) -> PastedDocument? {
        let body = text[trimmed]
        guard body.contains(UInt8(ascii: "=")), !body.contains(where: isSpace) else { return nil }
        var found: (key: String, start: Int, value: [UInt8])?
        var start = trimmed.lowerBound
        while start < trimmed.upperBound {
            let end = text[start..<trimmed.upperBound].firstIndex(of: UInt8(ascii: "&")) ?? trimmed.upperBound
            let pair = text[start..<end]
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                let key = String(decoding: pair[..<equals], as: UTF8.self)
                let value = Array(pair[(equals + 1)...])
                if holdsDocument(value) {
                    if let found, found.value != value { return nil }
                    if found == nil { found = (key, equals + 1, value) }
                }
            }
            start = end + 1
        }
        guard let found, found.value.count < body.count else { return nil }
        return PastedDocument(inner: found.value, phrase: "read the form field \(found.key) (offset \(found.start))",
                              offset: found.start, isSlice: true)
    }

    // MARK: - Text around the document

    /// The first document in running text: a token (wrapped over lines or not), a JSON object, or a receipt's base64
    /// (wrapped or not, percent-escapes allowed), with the text before and after it left out.
    static func embedded(_ text: [UInt8]) -> PastedDocument? {
        var index = 0
        // Each `{` tried costs a scan to its closing brace: the first few are tried, so the work stays linear.
        var objectsTried = 0
        while index < text.count {
            let byte = text[index]
            let boundary = index == 0 || !isTokenCharacter(text[index - 1])
            // A run that is not the document is skipped whole, so every byte is looked at a bounded number of times.
            if boundary, byte == UInt8(ascii: "e"), text[index...].starts(with: Array("eyJ".utf8)),
               let (inner, end) = run(text, from: index, allowed: isTokenCharacter) {
                if inner.filter({ $0 == 0x2E }).count >= 2 { return found(inner, "a JWS", index, end, text) }
                index = max(index + 1, end)
                continue
            }
            if byte == UInt8(ascii: "{"), objectsTried < 4 {
                objectsTried += 1
                if let end = closingBrace(text, from: index), (try? JSONDocument.read(Array(text[index..<end]))) != nil {
                    return found(Array(text[index..<end]), "a JSON document", index, end, text)
                }
            }
            if boundary, byte == UInt8(ascii: "M"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "I"),
               let (inner, end) = run(text, from: index, allowed: { isBase64($0) || $0 == UInt8(ascii: "%") }) {
                if inner.count >= 64 { return found(inner, "base64", index, end, text) }
                index = max(index + 1, end)
                continue
            }
            index += 1
        }
        return nil
    }

    static func found(_ inner: [UInt8], _ what: String, _ start: Int, _ end: Int, _ text: [UInt8]) -> PastedDocument? {
        // No progress when the document is the whole text: its reader has already said no.
        let trimmed = trim(text)
        guard start > trimmed.lowerBound || end < trimmed.upperBound || inner.count != end - start else { return nil }
        return PastedDocument(inner: inner,
                              phrase: "found \(what) at offset \(start) (\(start) bytes before it and \(text.count - end) after it left out)",
                              offset: start, isSlice: inner.count == end - start)
    }

    /// The characters from `start` that `allowed` takes, across the line breaks of a wrapped block (a token or
    /// base64 wrapped at 64 or 76 columns): the characters without the line breaks, and where the run ends. A line
    /// break continues the run only after a line of at most `widestWrap` characters that is as long as the block's
    /// full lines (the first line may start mid-line, after `token=`); a shorter line, a blank line or a longer one
    /// ends it, so the text after the block (a signature, "Thanks") is never taken in.
    static func run(_ text: [UInt8], from start: Int, allowed: (UInt8) -> Bool) -> ([UInt8], Int)? {
        var out: [UInt8] = []
        var index = start
        var end = start
        var segment = 0
        var width: Int?
        let startsLine = start == 0 || text[start - 1] == 0x0A
        var firstSegment = true
        while index < text.count {
            let byte = text[index]
            if allowed(byte) {
                out.append(byte)
                segment += 1
                index += 1
                end = index
                continue
            }
            guard byte == 0x0A || byte == 0x0D else { break }
            var next = index
            var breaks = 0
            while next < text.count, text[next] == 0x0A || text[next] == 0x0D {
                if text[next] == 0x0A { breaks += 1 }
                next += 1
            }
            guard breaks <= 1, next < text.count, allowed(text[next]), segment <= widestWrap else { break }
            if let width {
                guard segment == width else { break }
            } else if !firstSegment || startsLine {
                width = segment
            }
            firstSegment = false
            segment = 0
            index = next
        }
        return out.isEmpty ? nil : (out, end)
    }

    /// The widest line a wrapped block is taken to have.
    static let widestWrap = 120

    /// The offset past the `}` that closes the object opening at `start`, strings and escapes respected.
    static func closingBrace(_ text: [UInt8], from start: Int) -> Int? {
        var depth = 0
        var inString = false
        var index = start
        while index < text.count {
            let byte = text[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        return nil
    }

    // MARK: - Characters

    static func trim(_ text: [UInt8]) -> Range<Int> {
        var start = 0
        var end = text.count
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < end, isSpace(text[start]) { start += 1 }
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        return start..<end
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
