import ReceiptASN1
import ReceiptJSON

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
    package struct Located: Sendable, Hashable {
        package var range: Range<Int>
        package var repairs: [String]
    }

    /// The part of `text` a consumer would read as the token.
    package static func locate(_ text: ArraySlice<UInt8>) -> Located {
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
                text[start] == UInt8(ascii: "\"") || text[start] == UInt8(ascii: "'")
            {
                start += 1
                end -= 1
                quotesTaken = true
                changed = true
                note("surrounding quotes")
            }
            if !prefixTaken, hasBearerPrefix(text, start, end) {
                start += bearer.count
                while start < end, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
                prefixTaken = true
                changed = true
                note("a Bearer prefix")
            }
            if !changed { break }
        }
        return Located(range: start..<end, repairs: repairs)
    }

    /// Whether a lenient consumer would take `text` for a token: once stripped, it is a compact token's shape
    /// (`hasTokenShape`), or it starts `eyJ` (the encoding of `{"`) and holds a dot. Such a string is a token
    /// position wherever it stands.
    package static func looksLikeToken<Bytes: Collection>(_ text: Bytes) -> Bool
    where
        Bytes.Element == UInt8,
        Bytes.Index == Int
    {
        let slice = ArraySlice(text)
        let body = slice[locate(slice).range]
        if body.starts(with: tokenStart) && body.contains(UInt8(ascii: ".")) { return true }
        return hasTokenShape(body)
    }

    /// Whether `text` has a compact JWS's shape: base64url characters (either alphabet, padding allowed) in two or
    /// more dot-separated parts, the first of which decodes to a JSON object's start (`{`, after JSON white space:
    /// `eyJ` is `{"`, `ewo` is `{` and a line break, `eyAi` is `{ "`; also after a byte order mark, or an array's).
    package static func hasTokenShape<Bytes: Collection>(_ text: Bytes) -> Bool where Bytes.Element == UInt8 {
        let counted = text.withContiguousStorageIfAvailable(dotsIfTokenCharacters) ?? dotsIfTokenCharacters(Array(text))
        guard let (dots, firstDot) = counted, dots >= 2, firstDot >= 2 else { return false }
        let firstPart = Array(text.prefix(min(firstDot, 8)))
        let whole = firstPart.prefix(firstPart.count / 4 * 4 == 0 ? firstPart.count : firstPart.count / 4 * 4)
        guard case .success(let decoded) = Base64Codec.decode(whole, skippingWhitespace: false) else { return false }
        // A byte order mark or an array where the object goes is a token with a header its reader refuses, at an
        // offset (a red team's trial: it was "not a receipt or a JWS").
        let bytes = decoded.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(decoded.bytes.dropFirst(3)) : decoded.bytes
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// `text` cut at every dot (a compact token's parts, empty ones kept), as `split(separator:)` with
    /// `omittingEmptySubsequences: false` would, eight bytes at a time.
    package static func parts(_ text: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var start = text.startIndex
        for dot in ByteSearch.indices(of: UInt8(ascii: "."), in: text) {
            parts.append(text[start..<dot])
            start = dot + 1
        }
        parts.append(text[start...])
        return parts
    }

    /// Whether a JSON member names a token position: any member whose name starts `signed` in any case
    /// (`signedPayload`, `signedTransactionInfo`, `signedTransactions`' elements; `SignedPayload` and
    /// `signed_payload` too: Go and .NET match member names without regard to case) but `signedDate`, a number.
    package static func isTokenMember(_ name: String) -> Bool {
        let lowered = JSONDocument.caseFolded(name)
        return lowered.count > 6 && lowered.hasPrefix("signed") && lowered != "signeddate"
    }

    /// `isTokenMember` of a member name as written in JSON (between its quotes): answered from the bytes when they
    /// are ASCII without an escape (every name Apple writes), else from the name unescaped.
    package static func isTokenMember(written: ArraySlice<UInt8>, unescaped: () -> String?) -> Bool {
        guard written.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\\") }) else {
            return unescaped().map(isTokenMember) ?? false
        }
        func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        guard written.count > 6, zip(written, "signed".utf8).allSatisfy({ lowered($0) == $1 }) else { return false }
        return !(written.count == 10 && zip(written.dropFirst(6), "date".utf8).allSatisfy({ lowered($0) == $1 }))
    }

    /// How many dots `text` holds and how many bytes come before the first (all of them when there is none), when
    /// every byte is a dot or a token character; nil at the first other byte.
    private static func dotsIfTokenCharacters<Bytes: Sequence>(_ text: Bytes) -> (dots: Int, firstDot: Int)?
    where Bytes.Element == UInt8 {
        tokenCharacterClasses.withUnsafeBufferPointer { classes in
            var dots = 0
            var beforeFirstDot = 0
            for byte in text {
                let kind = classes[Int(byte)]
                if kind == 0 { return nil }
                dots &+= Int(kind & 1)
                beforeFirstDot &+= dots == 0 ? 1 : 0
            }
            return (dots, beforeFirstDot)
        }
    }

    /// For each byte: 1 a dot, 2 a character of either base64 alphabet or `=`, 0 anything else.
    static let tokenCharacterClasses: [UInt8] = {
        var classes = [UInt8](repeating: 0, count: 256)
        classes[Int(UInt8(ascii: "."))] = 1
        for character in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=".utf8 {
            classes[Int(character)] = 2
        }
        return classes
    }()

    static let tokenStart = Array("eyJ".utf8)
    static let bearer = Array("bearer".utf8)

    /// `Bearer` (any case) and at least one space or tab.
    static func hasBearerPrefix(_ text: ArraySlice<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start > bearer.count + 1 else { return false }
        for index in 0..<bearer.count where text[start + index] | 0x20 != bearer[index] { return false }
        return text[start + bearer.count] == 0x20 || text[start + bearer.count] == 0x09
    }

    /// Strips white space, control characters, byte order marks and zero-width or direction marks at both ends.
    static func stripSurroundings(
        _ text: ArraySlice<UInt8>, _ start: inout Int, _ end: inout Int,
        _ note: (String) -> Void
    ) {
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

    /// The three-byte UTF-8 characters stripped around a token: U+FEFF, zero-width and direction marks
    /// (U+200B–U+200F, U+2060), and Unicode's white space (U+1680, U+180E, U+2000–U+200A, U+2028, U+2029, U+202F,
    /// U+205F, U+3000), which `trim()` and `strip()` remove in JavaScript, Python and Go.
    static func isMark(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> String? {
        if a == 0xEF, b == 0xBB, c == 0xBF { return "a byte order mark" }
        if a == 0xE2, b == 0x80, (0x8B...0x8F).contains(c) { return "zero-width or direction marks" }
        if a == 0xE2, b == 0x81, c == 0xA0 { return "zero-width or direction marks" }
        if a == 0xE2, b == 0x80, (0x80...0x8A).contains(c) || c == 0xA8 || c == 0xA9 || c == 0xAF {
            return "Unicode white space"
        }
        if (a == 0xE2 && b == 0x81 && c == 0x9F) || (a == 0xE3 && b == 0x80 && c == 0x80)
            || (a == 0xE1 && b == 0x9A && c == 0x80) || (a == 0xE1 && b == 0xA0 && c == 0x8E)
        {
            return "Unicode white space"
        }
        return nil
    }

    /// The two-byte UTF-8 white space stripped around a token: U+00A0 (no-break space) and U+0085 (next line).
    static func isWideSpace(_ a: UInt8, _ b: UInt8) -> Bool { a == 0xC2 && (b == 0xA0 || b == 0x85) }

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
        if end - index >= 2, isWideSpace(text[index], text[index + 1]) { return (2, "Unicode white space") }
        if end - index >= 3, let phrase = isMark(text[index], text[index + 1], text[index + 2]) { return (3, phrase) }
        return nil
    }

    static func junkEnding(_ text: ArraySlice<UInt8>, at end: Int, start: Int) -> (Int, String?)? {
        if let phrase = single(text[end - 1]) { return (1, phrase) }
        if end - start >= 2, isWideSpace(text[end - 2], text[end - 1]) { return (2, "Unicode white space") }
        if end - start >= 3, let phrase = isMark(text[end - 3], text[end - 2], text[end - 1]) { return (3, phrase) }
        return nil
    }
}
