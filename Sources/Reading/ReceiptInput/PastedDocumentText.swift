import ReceiptASN1
import ReceiptJSON
import ReceiptJWS
import ReceiptModel

/// The document found in text around it: a log line, a greeting, a signature, a token wrapped over lines.
extension PastedDocument {
    // MARK: - Text around the document

    /// A document found in running text: where it starts and ends, and its characters (line breaks and quoting
    /// taken out for a wrapped block).
    struct Found {
        var inner: [UInt8]
        var what: String
        var start: Int
        var end: Int
        /// Why the document cannot be read as found: its base64 has characters no alphabet has (misread, mistyped).
        var damage: InputError?
        /// Base64 that is a whole block as `run` takes it (no line of it left out) and decodes to one whole element.
        var isWholeBlock = false
    }

    /// The document in running text: a token (wrapped over lines or not), a JSON object, or a receipt's base64
    /// (wrapped or not, percent-escapes allowed), with the text before and after it left out. A second, different
    /// document in the same text is ambiguous: readers take either.
    static func embedded(_ text: [UInt8]) -> Outcome {
        guard let first = find(text, from: 0) else { return .none }
        if let damage = first.damage { return .damaged(damage) }
        // What is left out must hold no other document: the search starts past the separators a token's own parts
        // could continue with (a line break, quoting, `<br>`, a dot), so a token after `A\n.` is found too (a red
        // team's trial: `A\n.B` took A and left out B, a REFUND notification, and status said OWNED).
        if let second = find(text, from: Self.pastSeparators(text, from: first.end)), second.inner != first.inner {
            return .ambiguous(
                "the text holds more than one document (\(first.what) at offset \(first.start), \(second.what) at offset \(second.start)): paste the one you mean, or give each its own file (status and verify take many)"
            )
        }
        // No progress when the document is the whole text: its reader has already said no.
        let trimmed = trim(text)
        guard
            first.start > trimmed.lowerBound || first.end < trimmed.upperBound
                || first.inner.count != first.end - first.start
        else { return .none }
        return .layer(
            PastedDocument(
                inner: first.inner,
                phrase:
                    "found \(first.what) at offset \(first.start) (\(first.start) bytes before it and \(text.count - first.end) after it left out)",
                offset: first.start, isSlice: first.inner.count == first.end - first.start))
    }

    /// Text after a receipt's base64 (a note, a signature, a second copy), when the whole input also decodes as
    /// base64 (its words are base64 letters: "OK", "user 42") to an element with bytes after it: the block, taken as
    /// `run` takes it (a line longer than a wrapped block's, or the wrapped block to its short last line), when it
    /// alone is one whole element; the text after it is left out, as any text around a document is. A second,
    /// different document after it is ambiguous. `.none` when the block itself holds the bytes after the element
    /// (a receipt with trailing bytes, wrapped or not: its reader reports them, as for the same bytes given raw).
    static func blockBeforeText(_ text: [UInt8]) -> Outcome {
        guard let first = find(text, from: 0), first.damage == nil, first.isWholeBlock else { return .none }
        return embedded(text)
    }

    /// The first document in `text` from `start`, or the damage that keeps one from being read.
    static func find(_ text: [UInt8], from start: Int) -> Found? {
        var index = start
        // Every `{` and `[` is tried as the start of a JSON body: a document inside one is read with it, whatever
        // came before (a red team's trial: the fifth object of a log line was never tried, and a response's
        // refusals went unseen). A JSON value that holds no document has none inside either: no opening in it is
        // tried again. An opening that closes nowhere costs a scan to the end: the scans share a budget linear in
        // the text, and a document found after an opening left untried is refused rather than read bare.
        var budget = JSONOpenings(text)
        var misreadLookedAt = start
        while index < text.count {
            let byte = text[index]
            let boundary = index == start || !ByteSet.compactJWS.contains(text[index - 1])
            // A run that is not the document is skipped whole, so every byte is looked at a bounded number of times.
            if boundary, byte == UInt8(ascii: "e"), text[index...].starts(with: Array("eyJ".utf8)) {
                var segments = run(text, from: index, allowed: ByteSet.compactJWS.contains)
                // Cut by a character of the other base64 alphabet: the token is read whole, and its reader names
                // the alphabet (as it does for the same token given alone).
                if let end = segments.last?.end, end < text.count, ByteSet.wrappedJWS.contains(text[end]) {
                    segments = run(text, from: index, allowed: ByteSet.wrappedJWS.contains)
                }
                if let (inner, end) = bestToken(segments) {
                    let quoted = quotePrefix(text, before: index).map {
                        " quoted with \"\(String(decoding: $0, as: UTF8.self))\""
                    }
                    return budget.checked(Found(inner: inner, what: "a JWS" + (quoted ?? ""), start: index, end: end))
                }
                index = max(index + 1, segments.last?.end ?? index + 1)
                continue
            }
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "["), let end = budget.document(at: index) {
                return Found(inner: Array(text[index..<end]), what: "a JSON document", start: index, end: end)
            }
            if boundary, byte == UInt8(ascii: "M"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "I") {
                let segments = run(text, from: index, allowed: ByteSet.urlEncodedStandardBase64.contains)
                // One look a block: a later `MI` inside a block already looked at starts a part of it (short
                // lines of `MI…` each looked to the end of the text, a red team's quadratic trial).
                if index >= misreadLookedAt {
                    let misread = Base64Damage.misreadScan(text, from: index, quote: quotePrefix(text, before: index))
                    misreadLookedAt = misread.end
                    if let damage = Base64Damage.misread(misread.characters), let last = segments.last {
                        return Found(inner: [], what: "base64", start: index, end: last.end, damage: damage)
                    }
                }
                if let (inner, start, end, whole) = bestBase64(segments) {
                    let quoted = quotePrefix(text, before: start).map {
                        " quoted with \"\(String(decoding: $0, as: UTF8.self))\""
                    }
                    var found = Found(inner: inner, what: "base64" + (quoted ?? ""), start: start, end: end)
                    found.isWholeBlock = whole && start == segments.first?.start && end == segments.last?.end
                    return budget.checked(found)
                }
                index = max(index + 1, segments.last?.end ?? index + 1)
                continue
            }
            index += 1
        }
        return nil
    }

    /// The first index from `start` past white space, line breaks, HTML `<br>`, quote marks and dots.
    static func pastSeparators(_ text: [UInt8], from start: Int) -> Int {
        var index = start
        while index < text.count {
            let tag = HTMLLineBreak.length(text, at: index)
            if tag > 0 {
                index += tag
            } else if ByteSet.quoteMark.contains(text[index]) || text[index] == 0x0A || text[index] == 0x0D
                || text[index] == UInt8(ascii: ".")
            {
                index += 1
            } else {
                break
            }
        }
        return index
    }

    /// Whether `bytes`, read as `document`, are JSON that is, or holds, a document: a notification body, an API response, a verifyReceipt
    /// body or response, or JSON with a document in one of its strings. JSON of anything else in the text (a log
    /// line's `{"level":"info"}`, `{"other":1}`) is text around the document, not a second one.
    static func holdsDocument(json bytes: [UInt8], _ document: JSONDocument) -> Bool {
        if JWSInput.recognise(bytes, json: document) != nil { return true }
        if InputClassifier.readerMembers.contains(where: { TextCheck.contains(bytes, $0) }) { return true }
        switch jsonString(document, base: 0) {
        case .none: return false
        case .layer, .ambiguous, .damaged: return true
        }
    }

    /// One line of a wrapped block: its characters, where they start, and where they end.
    struct Segment {
        var bytes: [UInt8]
        var start: Int
        var end: Int
    }

    /// The characters from `start` that `allowed` takes, across the line breaks of a wrapped block (a token or
    /// base64 wrapped at 64 or 76 columns, e-mail quoting `> ` and indentation allowed before each line; an HTML
    /// `<br>` is a line break), one segment a line. A line break continues the block only after a line of at most
    /// `widestWrap` characters that is as long as the block's full lines (the first line may start mid-line, after
    /// `token=`), or at a token's dot (before or after it, whatever the line's length); a shorter line, a blank line
    /// or a longer one ends it. Which lines belong is settled by `bestToken` and `bestBase64`, which drop a first or
    /// last line that does not.
    static func run(_ text: [UInt8], from start: Int, allowed: (UInt8) -> Bool) -> [Segment] {
        var segments: [Segment] = []
        var current = Segment(bytes: [], start: start, end: start)
        var index = start
        var width: Int?
        // A block quoted line by line (`> `, `| `, `# `, `// `) carries the first line's quote on every line.
        let quote = quotePrefix(text, before: start)
        let startsLine = start == 0 || text[start - 1] == 0x0A || quote != nil
        while index < text.count {
            let byte = text[index]
            if allowed(byte) {
                current.bytes.append(byte)
                index += 1
                current.end = index
                continue
            }
            let htmlBreak = HTMLLineBreak.length(text, at: index)
            guard byte == 0x0A || byte == 0x0D || htmlBreak > 0 else { break }
            var next = index + htmlBreak
            var breaks = htmlBreak > 0 ? 1 : 0
            // The source's own line break right after a `<br>` is the same break.
            var tagsNewline = htmlBreak > 0
            while next < text.count, text[next] == 0x0A || text[next] == 0x0D {
                if text[next] == 0x0A {
                    if tagsNewline { tagsNewline = false } else { breaks += 1 }
                }
                next += 1
            }
            // Quoting and indentation before the next line: the first line's quote, else up to 8 spaces, tabs and
            // `>`.
            if let quote {
                guard text[next...].starts(with: quote) else { break }
                next += quote.count
            } else {
                var skipped = 0
                while next < text.count, skipped < 8,
                    text[next] == 0x20 || text[next] == 0x09 || text[next] == UInt8(ascii: ">")
                {
                    next += 1
                    skipped += 1
                }
            }
            let length = current.bytes.count
            guard breaks <= 1, next < text.count, allowed(text[next]) else { break }
            // A token broken at one of its dots (mail and terminals break long words at punctuation): the break
            // continues it whatever the line's length, and sets no width.
            if current.bytes.last == UInt8(ascii: ".") || text[next] == UInt8(ascii: ".") {
                segments.append(current)
                current = Segment(bytes: [], start: next, end: next)
                index = next
                continue
            }
            guard length <= widestWrap else { break }
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

    /// The quote before `start` on its line, when the line starts with one: up to 8 characters of `>`, `|`, `#`, `/`,
    /// `;`, `*`, spaces and tabs, at least one of them not white space (mail, issue trackers, chat, code comments).
    static func quotePrefix(_ text: [UInt8], before start: Int) -> ArraySlice<UInt8>? {
        // Only the 8 bytes before `start` are looked at: a long line is no quote, and the search stays linear.
        let window = text[max(0, start - 9)..<start]
        guard let lineStart = window.lastIndex(of: 0x0A).map({ $0 + 1 }) ?? (start <= 8 ? 0 : nil) else {
            return nil
        }
        let lead = text[lineStart..<start]
        guard !lead.isEmpty, lead.count <= 8, lead.allSatisfy(ByteSet.quoteMark.contains),
            lead.contains(where: { $0 != 0x20 && $0 != 0x09 })
        else { return nil }
        return lead
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
            // Counted once: counting again for every trailing dot dropped was quadratic in a run of dots.
            var dots = inner.reduce(0) { $1 == 0x2E ? $0 + 1 : $0 }
            while dots > 2, inner.last == 0x2E {
                inner.removeLast()
                end -= 1
                dots -= 1
            }
            guard dots >= 2 else { continue }
            if fallback == nil { fallback = (inner, end) }
            if case .success(let token) = JWSReader.read(inner[...]), token.signature.count == 64 {
                return (inner, end)
            }
        }
        return fallback
    }

    /// The lines of `segments` that make a receipt's base64: all of them, else without a short first line (a
    /// word before the block) or the last line or two (text after it); the first that decodes to one whole DER
    /// element (`whole`), else the whole run when it is long enough to be one.
    static func bestBase64(_ segments: [Segment]) -> (inner: [UInt8], start: Int, end: Int, whole: Bool)? {
        guard !segments.isEmpty else { return nil }
        for skip in 0..<min(2, segments.count) {
            for drop in 0..<min(3, segments.count - skip) {
                let kept = segments.dropFirst(skip).dropLast(drop)
                guard let first = kept.first, let last = kept.last else { continue }
                let inner = kept.flatMap(\.bytes)
                guard inner.count >= 64 else { continue }
                let decodedText = percentDecoded(inner) ?? inner
                if case .success(let decoded) = Base64Codec.decode(decodedText, skippingWhitespace: false),
                    InputDecoder.isWholeElement(decoded.bytes)
                {
                    return (inner, first.start, last.end, true)
                }
            }
        }
        let inner = segments.flatMap(\.bytes)
        guard inner.count >= 64, let first = segments.first, let last = segments.last else { return nil }
        return (inner, first.start, last.end, false)
    }

}

extension ByteSet {
    /// What quotes a line in mail, issue trackers, chat and code comments.
    static let quoteMark = ByteSet(">|#/;* \t")
}
