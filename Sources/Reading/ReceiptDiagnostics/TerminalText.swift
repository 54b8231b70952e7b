/// Text from the input made safe to show: in a terminal, in a diff path, in a finding message. Shared by every
/// rendering, so a name is escaped the same wherever it is printed and a printed name reads back as itself.
package enum TerminalText {
    /// `text` followed by spaces up to `width` characters, for a column of a table; longer text is never cut (a
    /// name cut short reads as another name, and is refused when typed back).
    package static func column(_ text: String, width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// A receipt string in double quotes, with quotes, backslashes and terminal-unsafe characters escaped.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: appendSafely(scalar, to: &out)
            }
        }
        return out + "\""
    }

    /// Text that came from the input (a finding message, a certificate subject, an OpenSSL error naming one) made
    /// safe for a terminal: C0 and C1 controls (ESC, CR, BEL …), DEL, line and paragraph separators and the bidi
    /// controls that reorder what is shown (U+202E and kin) become `\u{…}`, so no receipt can move the cursor,
    /// recolour, or rewrite the verdict line.
    package static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        for scalar in text.unicodeScalars { appendSafely(scalar, to: &out) }
        return out
    }

    /// Whether a scalar can change how a terminal shows what follows it, or shows as nothing: controls, line and
    /// paragraph separators, bidi controls, and the code points Unicode says to show as nothing (zero-width space and
    /// joiners, the soft hyphen, the byte order mark, Hangul fillers …) and the blank braille pattern, so
    /// `com.example.app.pro` followed by U+200B never reads as `com.example.app.pro` (the report marks the same).
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x2800: return true
        case 0x20...0x7E: return false
        default: return scalar.properties.isDefaultIgnorableCodePoint
        }
    }

    private static func appendSafely(_ scalar: Unicode.Scalar, to out: inout String) {
        if isUnsafe(scalar) {
            out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }

}
