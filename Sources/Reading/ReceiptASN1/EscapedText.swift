/// The one walk of text in which a marker byte starts an escape (`%XX` of URL-encoding, `=XX` and soft breaks of
/// quoted-printable, `\xXX` of libFuzzer's dictionaries): every other byte is copied, and each marker is handed to
/// the caller's reading of what follows it. Decoders differ only in that reading.
package enum EscapedText {
    /// What one escape reads as.
    package enum Step {
        /// The bytes the escape stands for, and how many bytes of the text it took (the marker included).
        case decoded([UInt8], length: Int)
        /// The marker stands for itself (a lenient decoder's `%` or `=` not followed by an escape).
        case literal
        /// The text is not of this form: nothing is decoded.
        case invalid
    }

    /// `text` with each `marker` and what follows it replaced as `step` reads it at the marker's index; nil when a
    /// step says the text is `invalid`.
    package static func decode(_ text: ArraySlice<UInt8>, marker: UInt8, _ step: (Int) -> Step) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            guard byte == marker else {
                out.append(byte)
                index += 1
                continue
            }
            switch step(index) {
            case .decoded(let bytes, let length):
                out += bytes
                index += max(1, length)
            case .literal:
                out.append(byte)
                index += 1
            case .invalid:
                return nil
            }
        }
        return out
    }

    /// The byte two hexadecimal digits spell at `index` and `index + 1` of `text`, when both are there.
    package static func hexByte(_ text: ArraySlice<UInt8>, at index: Int) -> UInt8? {
        guard index >= text.startIndex, index + 1 < text.endIndex, let high = ASN1Primitives.hexDigit(text[index]),
            let low = ASN1Primitives.hexDigit(text[index + 1])
        else { return nil }
        return high << 4 | low
    }
}
