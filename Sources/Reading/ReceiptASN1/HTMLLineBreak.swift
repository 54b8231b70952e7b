/// An HTML line break in pasted text: a block copied from an HTML mail or a web page is wrapped by `<br>` where
/// plain text has a line break.
package enum HTMLLineBreak {
    /// The length of the `<br>`, `<br/>` or `<br />` (any case) at `index`, else 0.
    package static func length(_ text: [UInt8], at index: Int) -> Int {
        guard index >= 0, index + 4 <= text.count, text[index] == UInt8(ascii: "<"),
            text[index + 1] | 0x20 == UInt8(ascii: "b"), text[index + 2] | 0x20 == UInt8(ascii: "r")
        else { return 0 }
        for form in [">", "/>", " />"] where text[(index + 3)...].starts(with: form.utf8) {
            return 3 + form.utf8.count
        }
        return 0
    }

    /// Whether an HTML tag (`</pre>`, `<td class="x">`) starts at `index`: `<`, an optional `/`, a letter, then up
    /// to 64 bytes on the same line to its `>`. Base64 stops there: a `<` before `/pre>` is markup, not a misread
    /// letter.
    package static func isTag(_ text: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index + 2 < text.count, text[index] == UInt8(ascii: "<") else { return false }
        var next = index + 1
        if text[next] == UInt8(ascii: "/") { next += 1 }
        guard next < text.count, (text[next] | 0x20) >= UInt8(ascii: "a"), (text[next] | 0x20) <= UInt8(ascii: "z")
        else { return false }
        let end = min(text.count, next + 64)
        for at in next..<end {
            switch text[at] {
            case UInt8(ascii: ">"): return true
            case UInt8(ascii: "<"), 0x0A, 0x0D: return false
            default: continue
            }
        }
        return false
    }
}
