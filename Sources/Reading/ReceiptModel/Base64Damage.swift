import ReceiptASN1
import ReceiptDiagnostics

/// Base64 damaged beyond repair on its way to rcpt: a character lost or misread (OCR, a copy by hand, a font that
/// turned `l` into `|`). Nothing rcpt could put back would carry Apple's signature, so the input is refused with where
/// the damage is: the support engineer asks for the document again instead of reporting a broken receipt.
package enum Base64Damage {
    /// The most misread characters named in one message; more make the text no damaged base64 but something else.
    static let mostMisread = 8

    /// Characters no base64 alphabet has, standing between base64 letters in the block of base64 that starts at
    /// `start` (one line, or lines wrapped at any width): where each is and what it is. Empty when the block has none,
    /// has more than `mostMisread`, or is shorter than 64 letters (too short to be a receipt or a token). `quote` is
    /// what begins every line of a quoted block (`> `, `| `), left out after each line break.
    package static func misreadCharacters(
        _ text: [UInt8], from start: Int, quote: ArraySlice<UInt8>? = nil
    ) -> [(offset: Int, character: String)] {
        misreadScan(text, from: start, quote: quote).characters
    }

    /// `misreadCharacters`, and where the block it looked at ends (a later start before it is inside the same block).
    package static func misreadScan(
        _ text: [UInt8], from start: Int, quote: ArraySlice<UInt8>? = nil
    ) -> (characters: [(offset: Int, character: String)], end: Int) {
        // A receipt's base64 starts `MI` (a SEQUENCE with a long length); a token's dots are no damage.
        guard text[start...].starts(with: [UInt8(ascii: "M"), UInt8(ascii: "I")]) else { return ([], start) }
        var found: [(offset: Int, character: String)] = []
        var letters = 0
        var index = start
        while index < text.count {
            let byte = text[index]
            // Percent-escapes (`%2B`) are URL-encoding, not damage.
            if ByteSet.anyBase64.contains(byte) || byte == UInt8(ascii: "%") {
                letters += 1
                index += 1
                continue
            }
            if byte == 0x0A, let quote, !quote.isEmpty, text[(index + 1)...].starts(with: quote) {
                index += 1 + quote.count
                continue
            }
            let tag = HTMLLineBreak.length(text, at: index)
            if tag > 0 {
                // An HTML line break (with the source's own line break after it) continues the block as one does.
                var next = index + tag
                if next < text.count, text[next] == 0x0D { next += 1 }
                if next < text.count, text[next] == 0x0A { next += 1 }
                guard next < text.count, ByteSet.anyBase64.contains(text[next]) else { break }
                index = next
                continue
            }
            // Markup after the block (`</pre>`, `</td>`) ends it: its `<` is no misread letter.
            if HTMLLineBreak.isTag(text, at: index) { break }
            if byte == 0x0A || byte == 0x0D {
                // A line break continues the block when base64 follows it at once (CRLF is one break); a blank
                // line ends it, as it ends a wrapped block (`PastedDocument.run`): what follows is other text.
                guard index + 1 < text.count,
                    ByteSet.anyBase64.contains(text[index + 1]) || (byte == 0x0D && text[index + 1] == 0x0A)
                else { break }
                index += 1
                continue
            }
            // A character outside the alphabet (one UTF-8 sequence) between base64 letters.
            var end = index + 1
            while end < text.count, end - index < 4, text[end] & 0xC0 == 0x80 { end += 1 }
            // Between letters: a letter before it (or a line break after one), a letter after it (or a line break
            // before one).
            func letter(_ at: Int) -> Bool {
                at >= start && at < text.count && ByteSet.base64Letters.contains(text[at])
            }
            func lineBreak(_ at: Int) -> Bool {
                at >= start && at < text.count && (text[at] == 0x0A || text[at] == 0x0D)
            }
            guard byte != 0x20, byte != 0x09, byte != UInt8(ascii: "."), index > start,
                letter(index - 1) || (lineBreak(index - 1) && letter(index - 2)),
                letter(end) || (lineBreak(end) && letter(end + 1))
            else { break }
            guard found.count < mostMisread else { return ([], end) }
            found.append((index, String(decoding: text[index..<end], as: UTF8.self)))
            index = end
        }
        return (letters >= 64 ? found : [], index)
    }

    /// The refusal of base64 with misread characters, naming each (and the letters it may stand for).
    package static func misread(_ characters: [(offset: Int, character: String)]) -> InputError? {
        guard let first = characters.first else { return nil }
        let listed = characters.map { "\"\($0.character)\" at offset \($0.offset)" }
        let hints = Set(characters.compactMap { lookalikes[$0.character] }).sorted()
        let hint = hints.isEmpty ? "" : " (misread for \(hints.joined(separator: "; ")))"
        return InputError(
            .base64Damaged,
            "the base64 has \(listed.joined(separator: " and ")): \(characters.count == 1 ? "a character" : "characters") no base64 alphabet has\(hint); nothing rcpt could put there would carry Apple's signature: correct it from the source, or paste the document again",
            at: first.offset)
    }

    /// Letters a misread character most often stands for.
    static let lookalikes: [String: String] = [
        "|": "l, I or 1", "!": "l, I or 1", "¦": "l, I or 1", "ǀ": "l, I or 1", "ı": "i or 1", "О": "O or 0",
        "о": "o", "\u{2019}": "a letter", "\u{2018}": "a letter", ",": "a letter",
    ]

    /// The refusal of base64 that lost characters: it decodes to bytes that start like a receipt, one or two short of
    /// what their outer DER header says, and stop being DER before their end (a text cut short stays DER to its
    /// end: that is truncation, which the receipt reader reports). `base` is where `text` starts in the input.
    package static func lostCharacters(text: [UInt8], decoded: [UInt8], base: Int) -> InputError? {
        // Without a definite length to fall short of, the sign of a lost character is the text's own length: letters
        // and padding that are no whole number of 4-character groups.
        guard let short = shortfall(decoded), short <= 2, short > 0 || isUneven(text),
            let broken = structuralBreak(decoded), broken < decoded.count - 16
        else { return nil }
        // The letter that decoded to the broken byte, and where it stands in the text.
        let letter = broken / 3 * 4
        var seen = 0
        var offset = text.count
        for (index, byte) in text.enumerated() where ByteSet.anyBase64.contains(byte) {
            if seen == letter {
                offset = index
                break
            }
            seen += 1
        }
        return InputError(
            .base64Damaged,
            "the base64 lost a character: it decodes to bytes \(short == 0 ? "without the end their header calls for" : "\(short) fewer than their header says") that stop being DER at decoded byte \(broken) (near offset \(base + offset)), so a character at or before that point is missing (a copy by hand, OCR); paste the document again from its source",
            at: base + offset)
    }

    /// The bytes of the base64 letters of `text`, its padding and white space left out, a last letter that cannot
    /// stand alone too (a text that lost a character has the wrong padding, or one letter over). Nil when it holds
    /// anything else.
    package static func lettersDecoded(_ text: [UInt8]) -> [UInt8]? {
        var letters = text.filter { $0 != UInt8(ascii: "=") && !ByteSet.whitespace.contains($0) }
        if letters.count % 4 == 1 { letters.removeLast() }
        guard case .success(let decoded) = Base64Codec.decode(letters, skippingWhitespace: false) else { return nil }
        return decoded.bytes
    }

    /// Whether the base64 letters and padding of `text` are no whole number of 4-character groups (as no padded
    /// encoder writes them).
    static func isUneven(_ text: [UInt8]) -> Bool {
        text.count(where: { !ByteSet.whitespace.contains($0) }) % 4 != 0
    }

    /// How many bytes short of its outer header `bytes` are: the definite length's shortfall (nil when they are not
    /// short), or 0 for an indefinite length (whose end-of-contents is what is missing).
    static func shortfall(_ bytes: [UInt8]) -> Int? {
        guard let header = header(bytes, at: 0) else { return nil }
        guard let length = header.length else { return 0 }
        let (claimed, overflow) = header.contentStart.addingReportingOverflow(length)
        guard !overflow, claimed > bytes.count else { return nil }
        return claimed - bytes.count
    }

    /// The offset of the first element that does not fit in the one around it (or whose header does not parse),
    /// when one comes before the bytes run out; nil when every element fits up to the end. An indefinite length
    /// (BER, as Xcode writes) runs to its end-of-contents. OCTET STRINGs that start like DER (a receipt's payload, a
    /// record) are walked into to say where damage starts; one that turns out to hold other bytes is passed over
    /// whole, and its first misfit reported only when the walk breaks after it too. The walk is a loop with its own
    /// stack, bounded in depth and steps.
    static func structuralBreak(_ bytes: [UInt8]) -> Int? {
        guard let outer = header(bytes, at: 0) else { return nil }
        // Each open element's end (Int.max for an indefinite one, closed by its end-of-contents), and whether it is an
        // OCTET STRING walked into on trust.
        var frames: [(end: Int, isOctets: Bool)] = [
            (outer.length.map { outer.contentStart.addingReportingOverflow($0).partialValue } ?? Int.max, false)
        ]
        var index = outer.contentStart
        var firstMisfit: Int?
        var steps = 0
        while index < bytes.count, steps < 1_000_000 {
            steps += 1
            while let frame = frames.last, index >= frame.end, frames.count > 1 { frames.removeLast() }
            guard let parent = frames.last else { return nil }
            var fits = true
            if bytes[index] == 0, index + 1 < bytes.count, bytes[index + 1] == 0 {
                // An end-of-contents closes the innermost indefinite element, and only such an element.
                if parent.end == Int.max {
                    if frames.count > 1 { frames.removeLast() }
                    index += 2
                    continue
                }
                fits = false
            } else if let element = header(bytes, at: index), element.tag != 0 {
                if let length = element.length {
                    let (end, overflow) = element.contentStart.addingReportingOverflow(length)
                    if overflow || end > parent.end {
                        fits = false
                    } else {
                        let holdsDER =
                            element.tag == 0x04 && element.contentStart < bytes.count
                            && (bytes[element.contentStart] == 0x30 || bytes[element.contentStart] == 0x31)
                        if (element.tag & 0x20 != 0 || holdsDER) && frames.count < 64 {
                            frames.append((end, holdsDER))
                            index = element.contentStart
                        } else {
                            index = end
                        }
                        continue
                    }
                } else if element.tag & 0x20 != 0, frames.count < 64 {
                    frames.append((Int.max, false))
                    index = element.contentStart
                    continue
                } else {
                    fits = false
                }
            } else {
                fits = false
            }
            guard !fits else { continue }
            // A misfit inside an OCTET STRING walked into on trust: pass over the string whole.
            guard let octets = frames.lastIndex(where: \.isOctets) else { return firstMisfit ?? index }
            firstMisfit = firstMisfit ?? index
            index = frames[octets].end
            frames.removeSubrange(octets...)
        }
        return nil
    }

    /// A DER header at `index`: the tag's first octet, where the content starts and its length (nil: indefinite).
    /// Nil when the header runs past the bytes or uses a reserved or overlong form.
    static func header(_ bytes: [UInt8], at index: Int) -> (tag: UInt8, contentStart: Int, length: Int?)? {
        guard index < bytes.count else { return nil }
        let tag = bytes[index]
        var cursor = index + 1
        if tag & 0x1F == 0x1F {
            var octets = 0
            while cursor < bytes.count, bytes[cursor] & 0x80 != 0, octets < 4 {
                cursor += 1
                octets += 1
            }
            guard octets < 4 else { return nil }
            cursor += 1
        }
        guard cursor < bytes.count else { return nil }
        let first = bytes[cursor]
        cursor += 1
        if first == 0x80 { return (tag, cursor, nil) }
        if first < 0x80 { return (tag, cursor, Int(first)) }
        let count = Int(first & 0x7F)
        guard count >= 1, count <= 4, cursor + count <= bytes.count else { return nil }
        var length = 0
        for octet in bytes[cursor..<cursor + count] { length = length << 8 | Int(octet) }
        return (tag, cursor + count, length)
    }
}
