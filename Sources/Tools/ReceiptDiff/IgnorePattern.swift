/// A `--ignore` pattern: the changes at a path, and below it, that a diff leaves out.
///
/// Rules (also in `rcpt diff --help`):
/// - A pattern is a path, segments separated by dots: `in_app[*].purchase_date`, `signers[0].signature`.
/// - `*` matches any run of characters (none included) within one name or one selector.
/// - A segment without brackets matches that name whatever its selector: `in_app.purchase_date` is
///   `in_app[*].purchase_date`.
/// - A selector without `#N` matches every occurrence: `attributes[type=12]` is `attributes[type=12#*]`.
/// - A pattern of one segment matches at any depth; a longer one matches from the start of the path.
/// - A path matches when a pattern matches it or any path above it, so `in_app` leaves out every in-app change.
/// - An attribute's field name stands for its `attributes[type=N#k]` segment: `receipt_creation_date`.
/// - A name in double quotes is one segment whatever it holds (`jws.payload."a.b"`), as the diff prints it; `\`
///   escapes a quote or a backslash inside it.
package struct IgnorePattern: Sendable, Hashable, CustomStringConvertible {
    /// One segment of a pattern: a name glob and an optional selector glob.
    struct Segment: Sendable, Hashable {
        var name: [Unicode.Scalar]
        var selector: [Unicode.Scalar]?
    }

    let segments: [Segment]
    /// The pattern as given.
    package let description: String

    /// Why a pattern cannot be parsed.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        package var description: String
    }

    /// Parses a pattern; throws on empty segments and unbalanced brackets or quotes.
    package init(_ text: String) throws(ParseError) {
        description = text
        var segments: [Segment] = []
        var name: [Unicode.Scalar] = []
        var selector: [Unicode.Scalar]?
        var inBrackets = false
        var inQuotes = false
        var escaped = false
        var closed = false
        var inQuotedName = false
        // The segment's name was quoted (it may be empty, and nothing but '.' or '[' may follow it).
        var quotedName = false
        // Inside `\u{…}` of a quoted name: the hex digits so far.
        var unicodeEscape: String?
        func fail(_ why: String) -> ParseError { ParseError(description: "--ignore '\(text)': \(why)") }
        for scalar in text.unicodeScalars {
            if inQuotedName {
                // `\u{…}`: "" after the `u`, then "{" and the hex digits so far.
                if var digits = unicodeEscape {
                    if digits.isEmpty, scalar == "{" {
                        unicodeEscape = "{"
                    } else if !digits.isEmpty, scalar == "}", let value = UInt32(digits.dropFirst(), radix: 16),
                        let decoded = Unicode.Scalar(value)
                    {
                        name.append(decoded)
                        unicodeEscape = nil
                    } else if !digits.isEmpty, digits.count <= 8, scalar.properties.isASCIIHexDigit {
                        digits.unicodeScalars.append(scalar)
                        unicodeEscape = digits
                    } else {
                        throw fail("a \\u escape is \\u{hex}, as the diff prints it")
                    }
                } else if escaped {
                    escaped = false
                    if scalar == "u" { unicodeEscape = "" } else { name.append(scalar) }
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    inQuotedName = false
                } else {
                    name.append(scalar)
                }
                continue
            }
            if inBrackets {
                if inQuotes {
                    if escaped {
                        escaped = false
                    } else if scalar == "\\" {
                        escaped = true
                    } else if scalar == "\"" {
                        inQuotes = false
                    }
                    selector?.append(scalar)
                } else if scalar == "\"" {
                    inQuotes = true
                    selector?.append(scalar)
                } else if scalar == "]" {
                    inBrackets = false
                    closed = true
                } else {
                    selector?.append(scalar)
                }
                continue
            }
            switch scalar {
            case ".":
                guard !name.isEmpty || quotedName else { throw fail("empty segment") }
                segments.append(Segment(name: name, selector: selector))
                name = []
                selector = nil
                closed = false
                quotedName = false
            case "[":
                guard !name.isEmpty || quotedName, !closed else {
                    throw fail("'[' must follow a name, once per segment")
                }
                inBrackets = true
                selector = []
            case "]":
                throw fail("']' without '['")
            case "\"":
                guard name.isEmpty, !closed, !quotedName else { throw fail("a '\"' may only open a segment's name") }
                inQuotedName = true
                quotedName = true
            default:
                guard !closed else { throw fail("text after ']' must start a new segment with '.'") }
                guard !quotedName else { throw fail("text after a quoted name must start a new segment with '.'") }
                name.append(scalar)
            }
        }
        guard !inBrackets else { throw fail("'[' without ']'") }
        guard !inQuotedName else { throw fail("'\"' without a closing '\"'") }
        guard !name.isEmpty || quotedName else { throw fail(text.isEmpty ? "empty pattern" : "empty segment") }
        segments.append(Segment(name: name, selector: selector))
        self.segments = segments
    }

    /// Whether the pattern matches `path` or a path above it.
    package func matches(_ path: DiffPath) -> Bool {
        if segments.count == 1, let only = segments.first {
            return path.segments.contains { Self.matches(only, $0) }
        }
        guard segments.count <= path.segments.count else { return false }
        for (pattern, segment) in zip(segments, path.segments) where !Self.matches(pattern, segment) {
            return false
        }
        return true
    }

    /// Whether one pattern segment matches one path segment (by name or alias, then selector).
    static func matches(_ pattern: Segment, _ segment: DiffPath.Segment) -> Bool {
        let nameMatches =
            glob(pattern.name, Array(segment.name.unicodeScalars))
            || segment.alias.map { glob(pattern.name, Array($0.unicodeScalars)) } == true
        guard nameMatches else { return false }
        guard let wanted = pattern.selector else { return true }
        guard let selector = segment.selector else { return false }
        let actual = Array(selector.unicodeScalars)
        if glob(wanted, actual) { return true }
        return !wanted.contains("#") && glob(wanted, withoutOccurrence(actual))
    }

    /// A selector without its trailing `#N` occurrence number.
    static func withoutOccurrence(_ selector: [Unicode.Scalar]) -> [Unicode.Scalar] {
        guard let hash = selector.lastIndex(of: "#"), hash + 1 < selector.count,
            selector[(hash + 1)...].allSatisfy({ ("0"..."9").contains($0) })
        else { return selector }
        return Array(selector[..<hash])
    }

    /// Glob matching where `*` matches any run of scalars; iterative, with one backtrack point.
    static func glob(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let starIndex = star {
                p = starIndex + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
