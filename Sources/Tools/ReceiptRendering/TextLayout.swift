/// Small text helpers shared by the text renderings (dump, verify, diff).
package enum TextLayout {
    /// `text` padded with spaces on the left to `width` characters.
    package static func leftPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// `text` padded with spaces on the right to `width` characters.
    package static func rightPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
