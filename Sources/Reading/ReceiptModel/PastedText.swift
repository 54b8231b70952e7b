import ReceiptASN1
import ReceiptDiagnostics

/// What people paste instead of a clean receipt file, recognised before the input is decoded: harmless damage that
/// can be repaired (each repair is reported), and other documents that are named with the next step to take.
enum PastedText {
    /// A repaired text and what was done to it.
    struct Repaired {
        var text: [UInt8]
        var repairs: [String]
        /// Where `text` starts in the text it was taken from (after what `unwrap` trimmed).
        var offset = 0
    }

    /// Removes a UTF-8 byte order mark, surrounding whitespace and one pair of surrounding quotes.
    static func unwrap(_ input: [UInt8]) -> Repaired {
        var text = input[...]
        var repairs: [String] = []
        if text.starts(with: [0xEF, 0xBB, 0xBF]) {
            text = text.dropFirst(3)
            repairs.append("removed a UTF-8 byte order mark")
        }
        if let start = text.firstIndex(where: { !ByteSet.whitespace.contains($0) }),
            let end = text.lastIndex(where: { !ByteSet.whitespace.contains($0) })
        {
            text = text[start...end]
        } else {
            text = text[text.endIndex...]
        }
        if text.count >= 2, let first = text.first, let last = text.last, first == last,
            first == UInt8(ascii: "\"") || first == UInt8(ascii: "'")
        {
            let inner = text.dropFirst().dropLast()
            if !inner.contains(first), inner.allSatisfy(ByteSet.pastedBase64.contains) {
                text = inner
                repairs.append("removed the quotes around the base64")
            }
        }
        return Repaired(text: Array(text), repairs: repairs, offset: text.startIndex)
    }

    /// Base64 damaged on its way through a URL or a form: percent-escapes decoded, and spaces that must have been
    /// `+` (a form-encoded or URL-decoded body) put back, first inside lines only, then also at the starts and ends
    /// of wrapped lines (where a space is indistinguishable from indentation until the bytes add up). The readings
    /// to try, in that order; empty when nothing needed repair.
    static func repairBase64(_ text: [UInt8]) -> [Repaired] {
        var repaired = text
        var repairs: [String] = []
        if let decoded = percentDecoded(repaired) {
            repaired = decoded
            repairs.append("decoded percent-escapes (%2B, %2F, %3D)")
        }
        var readings: [Repaired] = []
        let phrase = "that had become spaces (a form-encoded or URL-decoded body)"
        if let plus = spacesAsPlus(repaired) {
            readings.append(Repaired(text: plus.text, repairs: repairs + ["put back \(plus.count) '+' \(phrase)"]))
        }
        if let plus = everySpaceAsPlus(repaired), plus.text != readings.first?.text {
            readings.append(
                Repaired(
                    text: plus.text,
                    repairs: repairs + ["put back \(plus.count) '+' \(phrase), at the starts and ends of lines too"]))
        }
        if readings.isEmpty, !repairs.isEmpty { readings.append(Repaired(text: repaired, repairs: repairs)) }
        return readings
    }

    /// Every space of a block of wrapped base64 replaced by `+`: a `+` that began or ended a line became a space
    /// there. Nil when the text has no space.
    static func everySpaceAsPlus(_ text: [UInt8]) -> (text: [UInt8], count: Int)? {
        let count = text.count(where: { $0 == 0x20 })
        guard count > 0 else { return nil }
        return (text.map { $0 == 0x20 ? UInt8(ascii: "+") : $0 }, count)
    }

    /// `%XX` escapes of base64 characters decoded, when the text has any and every `%` starts one.
    static func percentDecoded(_ text: [UInt8]) -> [UInt8]? {
        guard text.contains(UInt8(ascii: "%")) else { return nil }
        return EscapedText.decode(text[...], marker: UInt8(ascii: "%")) { index in
            guard let byte = EscapedText.hexByte(text[...], at: index + 1), ByteSet.anyBase64.contains(byte) else {
                return .invalid
            }
            return .decoded([byte], length: 3)
        }
    }

    /// Spaces inside a line of base64 replaced by `+`. Base64 never has a space inside a line: where a form or a URL
    /// decoder turned `+` into a space, the decoded bytes only add up with the `+` put back. A run of spaces (`++`
    /// became two) counts as long as a base64 character stands before it and a base64 character or `=` after it.
    static func spacesAsPlus(_ text: [UInt8]) -> (text: [UInt8], count: Int)? {
        var out = text
        var count = 0
        var index = 1
        while index < text.count {
            guard text[index] == UInt8(ascii: " "), ByteSet.base64Letters.contains(text[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < text.count, text[end] == UInt8(ascii: " ") { end += 1 }
            if end < text.count, ByteSet.anyBase64.contains(text[end]) {
                for position in index..<end { out[position] = UInt8(ascii: "+") }
                count += end - index
            }
            index = end
        }
        return count == 0 ? nil : (out, count)
    }

    /// Whether `bytes` are exactly one DER/BER element by its outer header: a SEQUENCE whose definite length
    /// covers the rest, or an indefinite one. A base64 decode with characters lost or misread fails this.
    static func isWholeElement(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == 0x30, let header = Base64Damage.header(bytes, at: 0) else { return false }
        // An indefinite length ends with its end-of-contents octets.
        guard let length = header.length else { return bytes.count >= 4 && bytes.suffix(2) == [0, 0] }
        return header.contentStart.addingReportingOverflow(length) == (bytes.count, false)
    }

    /// Where the definite-length SEQUENCE that `bytes` start with ends, when it ends within them.
    static func wholeElementEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.first == 0x30, let header = Base64Damage.header(bytes, at: 0), let length = header.length else {
            return nil
        }
        let (end, overflow) = header.contentStart.addingReportingOverflow(length)
        return !overflow && end <= bytes.count ? end : nil
    }

    /// Whether `bytes` start with one whole DER/BER element, a SEQUENCE, whatever follows it: a receipt with bytes
    /// after it is still a receipt (its reader reports the trailing bytes), as the same bytes given raw are.
    static func startsWithWholeElement(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == 0x30, let header = Base64Damage.header(bytes, at: 0) else { return false }
        guard header.length != nil else { return isWholeElement(bytes) }
        return wholeElementEnd(bytes) != nil
    }

    /// What a JSON or text document that is not a receipt is, with what to do instead; nil when it looks like none.
    static func otherDocument(_ text: [UInt8]) -> InputError? {
        if isCompactJWS(text) {
            return InputError(
                .inputIsJWS,
                "this is a JWS (three base64url parts separated by dots, starting eyJ): a StoreKit 2 signed transaction, renewal info or app transaction, not an App Store receipt; rcpt reads PKCS#7 receipts (the app receipt, or verifyReceipt's receipt-data / latest_receipt)"
            )
        }
        return nil
    }

    /// Three non-empty base64url parts separated by dots, the first starting with `eyJ` (`{"` encoded).
    static func isCompactJWS(_ text: [UInt8]) -> Bool {
        guard text.starts(with: Array("eyJ".utf8)) else { return false }
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 3 && parts.prefix(2).allSatisfy { !$0.isEmpty }
            && parts.allSatisfy { $0.allSatisfy(ByteSet.base64Letters.contains) }
    }

    /// Where text that is not base64 starts after a block of base64 lines (a signature, a note), when the block
    /// before it decodes to something that starts like a receipt: the offset of the first line that has a space
    /// or a character outside the standard base64 alphabet.
    static func textAfterBase64(_ text: [UInt8]) -> Int? {
        var lineStart = 0
        while lineStart < text.count {
            let lineEnd = text[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
            let line = text[lineStart..<lineEnd].filter { $0 != UInt8(ascii: "\r") }
            if line.contains(where: { !ByteSet.standardBase64.contains($0) }) {
                guard lineStart > 0, let bytes = Base64.decode(text[..<lineStart]), bytes.first == 0x30,
                    bytes.count >= 64
                else { return nil }
                return lineStart
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

}

extension ByteSet {
    /// The letters of either base64 alphabet, without the `=` padding.
    package static let base64Letters = anyBase64.subtracting(ByteSet("="))
    /// What pasted base64 may hold: either alphabet, padding, white space, and `%` of URL-encoding.
    package static let pastedBase64 = anyBase64.union(whitespace).union(ByteSet("%"))
}
