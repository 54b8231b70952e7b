/// The one word every output opens a document's verdict with: verify's and dump's text, a batch line, the report
/// page. A document that could not be read is `unreadable`, whatever its findings; otherwise `valid` or `invalid`.
enum VerdictWord: String {
    case valid
    case invalid
    case unreadable

    init(readable: Bool, valid: Bool) {
        self = !readable ? .unreadable : valid ? .valid : .invalid
    }

    /// The word in its colour (green when valid, red otherwise), bold when asked.
    func styled(_ style: TextStyle, bold: Bool = false) -> String {
        let word = bold ? style.bold(rawValue) : rawValue
        return self == .valid ? style.green(word) : style.red(word)
    }
}
