import ReceiptASN1
import ReceiptJSON
import ReceiptJWS
import ReceiptModel

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

    /// What taking off one layer found.
    enum Outcome {
        case layer(PastedDocument)
        /// More than one document, or copies that readers take differently: rcpt picks none, and says why.
        case ambiguous(String)
        case none
    }

    /// The one layer `text` is wrapped in, in this order: a JSON document holding the document in one string, a
    /// form body (its fields decoded one by one), URL encoding, text around the document. `json` is `text` read as
    /// JSON, when it is JSON.
    static func unwrap(_ text: [UInt8], json: JSONDocument?) -> Outcome {
        let trimmed = trim(text)
        guard !trimmed.isEmpty else { return .none }
        if let json { return jsonString(json, base: trimmed.lowerBound) }
        switch formField(text, trimmed) {
        case .none: break
        case let outcome: return outcome
        }
        if let decoded = percentDecoded(text) {
            return .layer(PastedDocument(inner: decoded, phrase: "URL-decoded the input (percent-escapes)", offset: 0,
                                         isSlice: false))
        }
        return embedded(text)
    }

    // MARK: - JSON

    /// `text` read as JSON, when it is JSON (after white space and a byte order mark).
    static func jsonDocument(_ text: [UInt8]) -> JSONDocument? {
        let trimmed = trim(text)
        guard !trimmed.isEmpty, text[trimmed.lowerBound] == UInt8(ascii: "{") || text[trimmed.lowerBound] == UInt8(ascii: "[")
        else { return nil }
        return try? JSONDocument.read(Array(text[trimmed]))
    }

    /// The one string of a JSON document that holds a document, when the document is not itself a verifyReceipt
    /// body or a notification (those are their readers' to judge). Two strings holding different documents, or a
    /// name given twice, are ambiguous.
    static func jsonString(_ document: JSONDocument, base: Int) -> Outcome {
        guard document.nodes.first?.kind == .object || document.nodes.first?.kind == .array else { return .none }
        for name in ["receipt-data", "latest_receipt", "signedPayload"]
        where document.member(name, of: document.root) != nil {
            return .none
        }
        if let duplicate = document.duplicateKeys.first ?? document.caseFoldedDuplicateKeys.first {
            return .ambiguous("the JSON names \"\(duplicate.name)\" twice (at offset \(base + document.nodes[duplicate.duplicate].start)): readers disagree on which copy counts, so rcpt reads neither")
        }
        var found: (node: Int, value: [UInt8])?
        for (node, entry) in document.nodes.enumerated() where entry.kind == .string {
            // No document is shorter than `shortestDocument` characters: the many short strings cost nothing.
            guard entry.end - entry.start - 2 >= shortestDocument,
                  let value = document.string(node).map({ Array($0.utf8) }), holdsDocument(value) else { continue }
            if let found, found.value != value {
                let paths = document.paths()
                return .ambiguous("the JSON holds two documents, at \(paths[found.node]) and \(paths[node]): paste the one you mean")
            }
            if found == nil { found = (node, value) }
        }
        guard let found else { return .none }
        let path = document.paths()[found.node]
        return .layer(PastedDocument(inner: found.value,
                                     phrase: "read the JSON string at \(path.isEmpty ? "the top level" : path) (offset \(base + document.nodes[found.node].start)), which holds the document",
                                     offset: base + document.nodes[found.node].start + 1, isSlice: false))
    }

    /// The fewest characters a document found in a string or a field can have (a token's three parts are longer).
    static let shortestDocument = 16
    /// The most fields a form body people paste has; a longer one is not taken for a form.
    static let mostFormFields = 1_024

    /// Whether a string (a JSON value, a form field) holds a document: JSON, a token, a PEM block, or base64 (either
    /// alphabet, wrapped or not, percent-escaped or not) of one whole DER element.
    static func holdsDocument(_ value: [UInt8]) -> Bool {
        let range = trim(value)
        guard !range.isEmpty else { return false }
        let body = value[range]
        if body.first == UInt8(ascii: "{") || body.first == UInt8(ascii: "[") { return true }
        if JWSText.looksLikeToken(Array(body)) { return true }
        if body.starts(with: Array("-----BEGIN".utf8)) { return true }
        let decodedText = percentDecoded(Array(body)) ?? Array(body)
        if decodedText.first == UInt8(ascii: "{") || JWSText.looksLikeToken(decodedText) { return true }
        guard decodedText.count >= 64 else { return false }
        // As it is, then with spaces read as the '+' a form decoder turned into them.
        for candidate in [decodedText, decodedText.map { $0 == 0x20 ? UInt8(ascii: "+") : $0 }] {
            if case .success(let decoded) = Base64Codec.decode(candidate, skippingWhitespace: true),
               InputDecoder.isWholeElement(decoded.bytes) {
                return true
            }
        }
        return false
    }

    // MARK: - URL-encoding and form bodies

    /// `text` with every `%XX` escape decoded (a `+` stays a `+`: in base64 it is one), when it has any.
    static func percentDecoded(_ text: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = 0
        var changed = false
        while index < text.count {
            if text[index] == UInt8(ascii: "%"), index + 2 < text.count, let high = ASN1Primitives.hexDigit(text[index + 1]),
               let low = ASN1Primitives.hexDigit(text[index + 2]) {
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

    /// The fields a server reads a document from: verifyReceipt's and the App Store Server's.
    static func isDocumentField(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["receipt-data", "receipt_data", "receiptdata", "latest_receipt"].contains(lowered)
            || JWSText.isTokenMember(name)
    }

    /// The field of a form body (`receipt-data=…&password=…`, `signedPayload=…`) that holds the document, read on
    /// the raw body (its fields are decoded one by one later, so an escaped `&` or `=` never splits a field). A
    /// field a server reads (`receipt-data`, `signed…`) is the one taken, whatever the others hold; a field given
    /// twice with different values, or two fields holding different documents, are ambiguous.
    static func formField(_ text: [UInt8], _ trimmed: Range<Int>) -> Outcome {
        let body = text[trimmed]
        guard body.contains(UInt8(ascii: "=")), !body.contains(0x0A), !body.contains(0x0D),
              body.first.map(ByteSet.formKey.contains) == true else { return .none }
        var fields: [(key: String, start: Int, value: [UInt8])] = []
        var start = trimmed.lowerBound
        while start < trimmed.upperBound {
            let end = text[start..<trimmed.upperBound].firstIndex(of: UInt8(ascii: "&")) ?? trimmed.upperBound
            let pair = text[start..<end]
            // Every field is name=value with a plain name; anything else (base64 with its padding, prose with an
            // '=' in it) is not a form.
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")), equals > pair.startIndex,
                  pair[..<equals].allSatisfy(ByteSet.formKey.contains) else { return .none }
            guard fields.count < mostFormFields else { return .none }
            fields.append((String(decoding: pair[..<equals], as: UTF8.self), equals + 1, Array(pair[(equals + 1)...])))
            start = end + 1
        }
        return decide(fields, body)
    }

    static func decide(_ fields: [(key: String, start: Int, value: [UInt8])], _ body: ArraySlice<UInt8>) -> Outcome {
        guard !fields.isEmpty else { return .none }
        var seen: [String: [UInt8]] = [:]
        for field in fields {
            let key = field.key.lowercased()
            if let earlier = seen[key], earlier != field.value {
                return .ambiguous("the form gives \(field.key) twice with different values: servers disagree on which counts (PHP, Rails and Express take the last), so rcpt reads neither")
            }
            seen[key] = field.value
        }
        let served = fields.filter { isDocumentField($0.key) }
        let candidates = served.isEmpty
            ? fields.filter { $0.value.count >= shortestDocument && holdsDocument($0.value) } : served
        guard let chosen = candidates.first else { return .none }
        if candidates.contains(where: { $0.value != chosen.value }) {
            return .ambiguous("the form's fields \(candidates.map(\.key).joined(separator: " and ")) hold different documents: paste the one you mean")
        }
        guard chosen.value.count < body.count else { return .none }
        if !holdsDocument(chosen.value) {
            return .ambiguous("the form's \(chosen.key) field, the one a server reads, holds no receipt or JWS")
        }
        return .layer(PastedDocument(inner: chosen.value, phrase: "read the form field \(chosen.key) (offset \(chosen.start))",
                                     offset: chosen.start, isSlice: true))
    }


    // MARK: - Text around the document

    /// A document found in running text: where it starts and ends, and its characters (line breaks and quoting
    /// taken out for a wrapped block).
    struct Found {
        var inner: [UInt8]
        var what: String
        var start: Int
        var end: Int
    }

    /// The document in running text: a token (wrapped over lines or not), a JSON object, or a receipt's base64
    /// (wrapped or not, percent-escapes allowed), with the text before and after it left out. A second, different
    /// document in the same text is ambiguous: readers take either.
    static func embedded(_ text: [UInt8]) -> Outcome {
        guard let first = find(text, from: 0) else { return .none }
        if let second = find(text, from: first.end), second.inner != first.inner {
            return .ambiguous("the text holds two documents, \(first.what) at offset \(first.start) and \(second.what) at offset \(second.start): paste the one you mean")
        }
        // No progress when the document is the whole text: its reader has already said no.
        let trimmed = trim(text)
        guard first.start > trimmed.lowerBound || first.end < trimmed.upperBound || first.inner.count != first.end - first.start
        else { return .none }
        return .layer(PastedDocument(inner: first.inner,
                                     phrase: "found \(first.what) at offset \(first.start) (\(first.start) bytes before it and \(text.count - first.end) after it left out)",
                                     offset: first.start, isSlice: first.inner.count == first.end - first.start))
    }

    /// The first document in `text` from `start`.
    static func find(_ text: [UInt8], from start: Int) -> Found? {
        var index = start
        // Each `{` tried costs a scan to its closing brace: the first few are tried, so the work stays linear.
        var objectsTried = 0
        while index < text.count {
            let byte = text[index]
            let boundary = index == 0 || !ByteSet.compactJWS.contains(text[index - 1])
            // A run that is not the document is skipped whole, so every byte is looked at a bounded number of times.
            if boundary, byte == UInt8(ascii: "e"), text[index...].starts(with: Array("eyJ".utf8)) {
                let segments = run(text, from: index, allowed: ByteSet.compactJWS.contains)
                if let (inner, end) = bestToken(segments) { return Found(inner: inner, what: "a JWS", start: index, end: end) }
                index = max(index + 1, segments.last?.end ?? index + 1)
                continue
            }
            if byte == UInt8(ascii: "{"), objectsTried < 4 {
                objectsTried += 1
                if let end = closingBrace(text, from: index), (try? JSONDocument.read(Array(text[index..<end]))) != nil {
                    return Found(inner: Array(text[index..<end]), what: "a JSON document", start: index, end: end)
                }
            }
            if boundary, byte == UInt8(ascii: "M"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "I") {
                let segments = run(text, from: index, allowed: ByteSet.urlEncodedStandardBase64.contains)
                if let (inner, start, end) = bestBase64(segments) {
                    return Found(inner: inner, what: "base64", start: start, end: end)
                }
                index = max(index + 1, segments.last?.end ?? index + 1)
                continue
            }
            index += 1
        }
        return nil
    }

    /// One line of a wrapped block: its characters, where they start, and where they end.
    struct Segment {
        var bytes: [UInt8]
        var start: Int
        var end: Int
    }

    /// The characters from `start` that `allowed` takes, across the line breaks of a wrapped block (a token or
    /// base64 wrapped at 64 or 76 columns, e-mail quoting `> ` and indentation allowed before each line), one
    /// segment a line. A line break continues the block only after a line of at most `widestWrap` characters that
    /// is as long as the block's full lines (the first line may start mid-line, after `token=`); a shorter line, a
    /// blank line or a longer one ends it. Which lines belong is settled by `bestToken` and `bestBase64`, which drop
    /// a first or last line that does not.
    static func run(_ text: [UInt8], from start: Int, allowed: (UInt8) -> Bool) -> [Segment] {
        var segments: [Segment] = []
        var current = Segment(bytes: [], start: start, end: start)
        var index = start
        var width: Int?
        let startsLine = start == 0 || text[start - 1] == 0x0A
        while index < text.count {
            let byte = text[index]
            if allowed(byte) {
                current.bytes.append(byte)
                index += 1
                current.end = index
                continue
            }
            guard byte == 0x0A || byte == 0x0D else { break }
            var next = index
            var breaks = 0
            while next < text.count, text[next] == 0x0A || text[next] == 0x0D {
                if text[next] == 0x0A { breaks += 1 }
                next += 1
            }
            // Quoting and indentation before the next line.
            var skipped = 0
            while next < text.count, skipped < 8, text[next] == 0x20 || text[next] == 0x09 || text[next] == UInt8(ascii: ">") {
                next += 1
                skipped += 1
            }
            let length = current.bytes.count
            guard breaks <= 1, next < text.count, allowed(text[next]), length <= widestWrap else { break }
            if let width {
                guard length == width else { break }
            } else if !segments.isEmpty || startsLine {
                width = length
            }
            segments.append(current)
            current = Segment(bytes: [], start: next, end: next)
            index = next
        }
        if !current.bytes.isEmpty { segments.append(current) }
        return segments
    }

    /// The widest line a wrapped block is taken to have.
    static let widestWrap = 120

    /// The lines of `segments` that make a token: all of them, else without the last line or two (text after a
    /// block whose last line is full), trailing sentence dots dropped; the first that reads with a 64-octet
    /// signature, else the whole run when it has the dots of a token.
    static func bestToken(_ segments: [Segment]) -> ([UInt8], Int)? {
        guard !segments.isEmpty else { return nil }
        var fallback: ([UInt8], Int)?
        for drop in 0..<min(3, segments.count) {
            let kept = segments.dropLast(drop)
            guard let last = kept.last else { break }
            var inner = kept.flatMap(\.bytes)
            var end = last.end
            while inner.filter({ $0 == 0x2E }).count > 2, inner.last == 0x2E {
                inner.removeLast()
                end -= 1
            }
            guard inner.filter({ $0 == 0x2E }).count >= 2 else { continue }
            if fallback == nil { fallback = (inner, end) }
            if case .success(let token) = JWSReader.read(inner[...]), token.signature.count == 64 { return (inner, end) }
        }
        return fallback
    }

    /// The lines of `segments` that make a receipt's base64: all of them, else without a short first line (a
    /// word before the block) or the last line or two (text after it); the first that decodes to one whole DER
    /// element, else the whole run when it is long enough to be one.
    static func bestBase64(_ segments: [Segment]) -> ([UInt8], Int, Int)? {
        guard !segments.isEmpty else { return nil }
        for skip in 0..<min(2, segments.count) {
            for drop in 0..<min(3, segments.count - skip) {
                let kept = segments.dropFirst(skip).dropLast(drop)
                guard let first = kept.first, let last = kept.last else { continue }
                let inner = kept.flatMap(\.bytes)
                guard inner.count >= 64 else { continue }
                let decodedText = percentDecoded(inner) ?? inner
                if case .success(let decoded) = Base64Codec.decode(decodedText, skippingWhitespace: false),
                   InputDecoder.isWholeElement(decoded.bytes) {
                    return (inner, first.start, last.end)
                }
            }
        }
        let inner = segments.flatMap(\.bytes)
        guard inner.count >= 64, let first = segments.first, let last = segments.last else { return nil }
        return (inner, first.start, last.end)
    }

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
        while start < end, ByteSet.whitespace.contains(text[start]) { start += 1 }
        while end > start, ByteSet.whitespace.contains(text[end - 1]) { end -= 1 }
        return start..<end
    }




}

extension ByteSet {
    /// A form body's key (`receipt-data`, `a[b]`, percent-encoded names).
    static let formKey = ByteSet("A-Za-z0-9_.%[]-")
    /// Standard base64 as a form or query string carries it, percent-encoded or not.
    static let urlEncodedStandardBase64 = standardBase64.union(ByteSet("%"))
}
