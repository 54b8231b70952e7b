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
}
