/// The one rule for where a compact JWS stands in text someone handed over: a whole input file, or a string in JSON
/// (a notification body's `signedPayload`, an API response's `signedTransactions[3]`, a claim of a payload). The same
/// text gets the same judgement wherever it stands.
///
/// What lenient consumers strip around a token is stripped here too, and named: ASCII white space and control
/// characters (NUL included), a byte order mark, zero-width and direction marks, one pair of quotes, a `Bearer `
/// prefix. What is left must be exactly a compact JWS; anything else in a token position is an unreadable token,
/// never a string to skip.
public enum JWSText {
    /// Where the token is in the text, and what was stripped around it (one phrase each, in the order met).
    public struct Located: Sendable, Hashable {
        public var range: Range<Int>
        public var repairs: [String]
    }

    /// The part of `text` a consumer would read as the token.
    public static func locate(_ text: ArraySlice<UInt8>) -> Located {
        var start = text.startIndex
        var end = text.endIndex
        var repairs: [String] = []
        func note(_ phrase: String) { if !repairs.contains(phrase) { repairs.append(phrase) } }
        // Each round strips what surrounds the token; quotes and the prefix are taken once each, so the rounds are
        // bounded and every byte is looked at a bounded number of times.
        var quotesTaken = false
        var prefixTaken = false
        for _ in 0..<4 {
            stripSurroundings(text, &start, &end, note)
            var changed = false
            if !quotesTaken, end - start >= 2, text[start] == text[end - 1],
               text[start] == UInt8(ascii: "\"") || text[start] == UInt8(ascii: "'") {
                start += 1
                end -= 1
                quotesTaken = true
                changed = true
                note("surrounding quotes")
            }
            if !prefixTaken, hasBearerPrefix(text, start, end) {
                start += bearer.count
                prefixTaken = true
                changed = true
                note("a Bearer prefix")
            }
            if !changed { break }
        }
        return Located(range: start..<end, repairs: repairs)
    }

    /// Whether a lenient consumer would take `text` for a token: once stripped, it starts `eyJ` (the encoding of
    /// `{"`) and holds a dot. Such a string is a token position wherever it stands.
    public static func looksLikeToken<Bytes: Collection>(_ text: Bytes) -> Bool where Bytes.Element == UInt8,
        Bytes.Index == Int
    {
        let slice = ArraySlice(text)
        let located = locate(slice)
        let body = slice[located.range]
        return body.starts(with: tokenStart) && body.contains(UInt8(ascii: "."))
    }

    /// Whether a JSON member names a token position: Apple's `signed…` string members (`signedPayload`,
    /// `signedTransactionInfo`, `signedRenewalInfo`, `signedAppTransactionInfo`, `signedTransactions`' elements …).
    /// `signedDate` is a number, never a token.
    public static func isTokenMember(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        guard utf8.count > 6, utf8.starts(with: signedPrefix), name != "signedDate" else { return false }
        return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(utf8[6])
    }

    static let tokenStart = Array("eyJ".utf8)
    static let signedPrefix = Array("signed".utf8)
    static let bearer = Array("bearer ".utf8)

    static func hasBearerPrefix(_ text: ArraySlice<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start > bearer.count else { return false }
        for index in 0..<bearer.count where text[start + index] | 0x20 != bearer[index] { return false }
        return true
    }

    /// Strips white space, control characters, byte order marks and zero-width or direction marks at both ends.
    static func stripSurroundings(_ text: ArraySlice<UInt8>, _ start: inout Int, _ end: inout Int,
                                  _ note: (String) -> Void) {
        while start < end {
            if let (length, phrase) = junk(text, at: start, end: end) {
                start += length
                if let phrase { note(phrase) }
            } else {
                break
            }
        }
        while end > start {
            if let (length, phrase) = junkEnding(text, at: end, start: start) {
                end -= length
                if let phrase { note(phrase) }
            } else {
                break
            }
        }
    }

    /// The three-byte UTF-8 marks stripped around a token: U+FEFF, U+200B–U+200F, U+2060.
    static func isMark(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> String? {
        if a == 0xEF, b == 0xBB, c == 0xBF { return "a byte order mark" }
        if a == 0xE2, b == 0x80, (0x8B...0x8F).contains(c) { return "zero-width or direction marks" }
        if a == 0xE2, b == 0x81, c == 0xA0 { return "zero-width or direction marks" }
        return nil
    }

    /// A one-byte surrounding: ASCII white space (stripped silently, as a trailing line break is) or another
    /// control character (named).
    static func single(_ byte: UInt8) -> String?? {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D: return .some(nil)
        case 0x00..<0x20, 0x7F: return "control characters"
        default: return nil
        }
    }

    static func junk(_ text: ArraySlice<UInt8>, at index: Int, end: Int) -> (Int, String?)? {
        if let phrase = single(text[index]) { return (1, phrase) }
        if end - index >= 3, let phrase = isMark(text[index], text[index + 1], text[index + 2]) { return (3, phrase) }
        return nil
    }

    static func junkEnding(_ text: ArraySlice<UInt8>, at end: Int, start: Int) -> (Int, String?)? {
        if let phrase = single(text[end - 1]) { return (1, phrase) }
        if end - start >= 3, let phrase = isMark(text[end - 3], text[end - 2], text[end - 1]) { return (3, phrase) }
        return nil
    }
}
