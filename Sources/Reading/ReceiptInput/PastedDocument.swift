import ReceiptASN1
import ReceiptJSON
import ReceiptJWS
import ReceiptModel

/// One layer people wrap a receipt or a JWS in, taken off: the text inside, what was done, and where.
struct PastedDocument {
    /// The text inside the layer.
    var inner: [UInt8]
    /// What was done, for people.
    var phrase: String
    /// Where the inner text starts in the outer one (for a decoding step, where the decoding started).
    var offset: Int
    /// Whether `inner` is a slice of the outer text (the offsets add up), not a decoding of it.
    var isSlice: Bool

    /// What taking off one layer found.
    enum Outcome {
        case layer(PastedDocument)
        /// More than one document, or copies that readers take differently: rcpt picks none, and says why.
        case ambiguous(String)
        /// A document found too damaged to read (base64 with misread characters), with where.
        case damaged(InputError)
        case none
    }

    /// The one layer `text` is wrapped in, in this order: a JSON document holding the document in one string, a
    /// form body (its fields decoded one by one), quoted-printable (an e-mail's source), URL encoding, text around
    /// the document. `json` is `text` read as
    /// JSON, when it is JSON.
    static func unwrap(_ text: [UInt8], json: JSONDocument?) -> Outcome {
        let trimmed = trim(text)
        guard !trimmed.isEmpty else { return .none }
        if let json { return jsonString(json, base: trimmed.lowerBound) }
        switch formField(text, trimmed) {
        case .none: break
        case let outcome: return outcome
        }
        if let decoded = quotedPrintableDecoded(text) {
            return .layer(
                PastedDocument(
                    inner: decoded.text,
                    phrase:
                        "decoded quoted-printable, an e-mail's source (\(decoded.softBreaks) soft line breaks, \(decoded.escapes) escapes)",
                    offset: 0, isSlice: false))
        }
        if let decoded = percentDecoded(text) {
            return .layer(
                PastedDocument(
                    inner: decoded, phrase: "URL-decoded the input (percent-escapes)", offset: 0,
                    isSlice: false))
        }
        return embedded(text)
    }

    // MARK: - UTF-16

    /// The layer of UTF-16 text (`utf16Decoded`), decoded to UTF-8.
    static func utf16Layer(_ text: [UInt8]) -> PastedDocument? {
        utf16Decoded(text).map {
            PastedDocument(
                inner: $0, phrase: "decoded UTF-16 text (as Windows tools save it) to UTF-8", offset: 0, isSlice: false)
        }
    }

    /// `text` as UTF-8, when it is UTF-16 text: a byte order mark (FF FE, FE FF), or none and every other byte of
    /// its start NUL beside printable ASCII (PowerShell's `>` writes UTF-16; a hostile-bytes trial found the receipt
    /// inside never read). Nil for anything else, or for text that does not decode to printable text.
    static func utf16Decoded(_ text: [UInt8]) -> [UInt8]? {
        guard text.count >= 8, text.count % 2 == 0 else { return nil }
        var littleEndian: Bool
        var start = 0
        if text[0] == 0xFF && text[1] == 0xFE {
            (littleEndian, start) = (true, 2)
        } else if text[0] == 0xFE && text[1] == 0xFF {
            (littleEndian, start) = (false, 2)
        } else if text[1] == 0 || text[0] == 0 {
            // No mark: the first 32 units are ASCII, the NUL on one side (nothing is read of other input: this runs
            // on every document the classifier reads).
            littleEndian = text[1] == 0
            let (zero, letter) = littleEndian ? (1, 0) : (0, 1)
            var unit = 0
            while unit < min(text.count, 64) {
                let byte = text[unit + letter]
                guard text[unit + zero] == 0,
                    byte >= 0x20 && byte < 0x7F || byte == 0x0A || byte == 0x0D || byte == 0x09
                else { return nil }
                unit += 2
            }
        } else {
            return nil
        }
        var units: [UInt16] = []
        units.reserveCapacity((text.count - start) / 2)
        var index = start
        while index + 1 < text.count {
            let (low, high) = littleEndian ? (text[index], text[index + 1]) : (text[index + 1], text[index])
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        var scalars = String.UnicodeScalarView()
        var iterator = units.makeIterator()
        var decoder = UTF16()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                // Text, not binary read as UTF-16: control characters other than white space refuse it.
                guard scalar.value >= 0x20 || scalar == "\n" || scalar == "\r" || scalar == "\t" else { return nil }
                scalars.append(scalar)
            case .emptyInput: break decoding
            case .error: return nil
            }
        }
        return Array(String(scalars).utf8)
    }

    // MARK: - JSON

    /// `text` read as JSON, when it is JSON (after white space and a byte order mark).
    static func jsonDocument(_ text: [UInt8]) -> JSONDocument? {
        let trimmed = trim(text)
        guard !trimmed.isEmpty,
            text[trimmed.lowerBound] == UInt8(ascii: "{") || text[trimmed.lowerBound] == UInt8(ascii: "[")
        else { return nil }
        return try? JSONDocument.read(Array(text[trimmed]))
    }

    /// The one string of a JSON document that holds a document, when the document is not itself a verifyReceipt
    /// body or a notification (those are their readers' to judge). Two strings holding different documents, or a
    /// name given twice, are ambiguous.
    static func jsonString(_ document: JSONDocument, base: Int) -> Outcome {
        guard document.nodes.first?.kind == .object || document.nodes.first?.kind == .array else { return .none }
        for name in ["receipt-data", "latest_receipt", "signedPayload"]
        where document.member(name, of: document.root) != nil {
            return .none
        }
        if let duplicate = document.duplicateKeys.first ?? document.caseFoldedDuplicateKeys.first {
            return .ambiguous(
                "the JSON names \"\(duplicate.name)\" twice (at offset \(base + document.nodes[duplicate.duplicate].start)): readers disagree on which copy counts, so rcpt reads neither"
            )
        }
        var found: (node: Int, value: [UInt8])?
        for (node, entry) in document.nodes.enumerated() where entry.kind == .string {
            // No document is shorter than `shortestDocument` characters: the many short strings cost nothing.
            guard entry.end - entry.start - 2 >= shortestDocument,
                let value = document.string(node).map({ Array($0.utf8) }), holdsDocument(value)
            else { continue }
            if let found, found.value != value {
                let paths = document.paths()
                return .ambiguous(
                    "the JSON holds more than one document (at \(paths[found.node]), at \(paths[node])): paste the one you mean, or give each its own file"
                )
            }
            if found == nil { found = (node, value) }
        }
        guard let found else { return .none }
        let path = document.paths()[found.node]
        return .layer(
            PastedDocument(
                inner: found.value,
                phrase:
                    "read the JSON string at \(path.isEmpty ? "the top level" : path) (offset \(base + document.nodes[found.node].start)), which holds the document",
                offset: base + document.nodes[found.node].start + 1, isSlice: false))
    }

    /// The path of the first string of `document` that is base64 of one whole DER element (a receipt), if any.
    static func receiptString(in document: JSONDocument) -> String? {
        guard let node = document.nodes.indices.first(where: { document.derString($0) != nil }) else { return nil }
        let path = document.paths()[node]
        return path.isEmpty ? "the top level" : path
    }

    /// The fewest characters a document found in a string or a field can have (a token's three parts are longer).
    static let shortestDocument = 16
    /// The most fields a form body people paste has; a longer one is not taken for a form.
    static let mostFormFields = 1_024

    /// The receipt a form field's value is base64 of (percent-escaped or not, `+` turned to spaces or not): the
    /// bytes from its first whole DER element on, when that element is a SEQUENCE; nil for any other value.
    static func receiptBytes(_ value: [UInt8]) -> [UInt8]? {
        let body = Array(value[trim(value)])
        return base64Element(percentDecoded(body) ?? body).flatMap { $0.first == 0x30 ? $0 : nil }
    }

    /// The bytes `text` is base64 of (as it is, then with spaces read as the `+` a form decoder turned into them),
    /// when they start with one whole DER element; nil for shorter text or any other.
    private static func base64Element(_ text: [UInt8]) -> [UInt8]? {
        guard text.count >= 64 else { return nil }
        for candidate in [text, text.map { $0 == 0x20 ? UInt8(ascii: "+") : $0 }] {
            if case .success(let decoded) = Base64Codec.decode(candidate, skippingWhitespace: true),
                InputDecoder.startsWithWholeElement(decoded.bytes)
            {
                return decoded.bytes
            }
        }
        return nil
    }

    /// Whether a string (a JSON value, a form field) holds a document: JSON, a token, a PEM block, or base64 (either
    /// alphabet, wrapped or not, percent-escaped or not) of one whole DER element, whatever bytes follow it (the
    /// receipt reader reports them, as for the same bytes given raw).
    static func holdsDocument(_ value: [UInt8]) -> Bool {
        let range = trim(value)
        guard !range.isEmpty else { return false }
        let body = value[range]
        if body.first == UInt8(ascii: "{") || body.first == UInt8(ascii: "[") { return true }
        if JWSText.looksLikeToken(Array(body)) { return true }
        if body.starts(with: Array("-----BEGIN".utf8)) { return true }
        let decodedText = percentDecoded(Array(body)) ?? Array(body)
        if decodedText.first == UInt8(ascii: "{") || JWSText.looksLikeToken(decodedText) { return true }
        return base64Element(decodedText) != nil
    }

    // MARK: - URL-encoding and form bodies

    /// `text` with every `%XX` escape decoded (a `+` stays a `+`: in base64 it is one), when it has any.
    static func percentDecoded(_ text: [UInt8]) -> [UInt8]? {
        var changed = false
        let out = EscapedText.decode(text[...], marker: UInt8(ascii: "%")) { index in
            guard let byte = EscapedText.hexByte(text[...], at: index + 1) else { return .literal }
            changed = true
            return .decoded([byte], length: 3)
        }
        return changed ? out : nil
    }

    /// `text` decoded as quoted-printable (RFC 2045 §6.7: `=` and a line break is a soft break, `=3D` an escaped byte),
    /// when it has an escape or two soft breaks; any other `=` (a header's `charset=utf-8`, base64's own padding)
    /// stays.
    static func quotedPrintableDecoded(_ text: [UInt8]) -> (text: [UInt8], softBreaks: Int, escapes: Int)? {
        guard text.contains(UInt8(ascii: "=")) else { return nil }
        var softBreaks = 0
        var escapes = 0
        let out = EscapedText.decode(text[...], marker: UInt8(ascii: "=")) { index in
            // A soft break: `=`, white space a mailer may have left, then CRLF or LF, ending a line of at most 76
            // characters (RFC 2045 §6.7 (5)): a longer line ending in `=` is base64's padding.
            let lineStart = text[max(0, index - longestEncodedLine)..<index].lastIndex(of: 0x0A).map { $0 + 1 }
            guard lineStart != nil || index <= longestEncodedLine else { return .literal }
            var next = index + 1
            while next < text.count, next - index <= 8, text[next] == 0x20 || text[next] == 0x09 { next += 1 }
            if next < text.count, text[next] == 0x0D { next += 1 }
            if next < text.count, text[next] == 0x0A {
                guard !endsWrappedBase64(text, equals: index, lineStart: lineStart ?? 0) else { return .literal }
                softBreaks += 1
                return .decoded([], length: next + 1 - index)
            }
            // Any other `=` (a header's `charset=utf-8`) stays as it is, as lenient decoders leave it.
            guard let byte = EscapedText.hexByte(text[...], at: index + 1) else { return .literal }
            escapes += 1
            return .decoded([byte], length: 3)
        }
        // One `=` before a line break is base64's padding ending a line more often than a mailer's soft break.
        guard let out, escapes > 0 || softBreaks > 1 else { return nil }
        return (out, softBreaks, escapes)
    }

    /// Whether the `=` at `equals`, ending a line, is the padding of wrapped base64 rather than a soft break: the
    /// line before is base64 at least as long, without a `=` of its own. A mailer's soft breaks follow one another
    /// (quoted-printable writes a document's `=` as `=3D`), so two wrapped receipts whose short last lines end in
    /// padding are two documents, not one e-mail.
    static func endsWrappedBase64(_ text: [UInt8], equals: Int, lineStart: Int) -> Bool {
        guard lineStart > 0 else { return false }
        var previousEnd = lineStart - 1  // the line feed ending the line before
        if previousEnd > 0, text[previousEnd - 1] == 0x0D { previousEnd -= 1 }
        let previousStart = text[..<previousEnd].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let previous = text[previousStart..<previousEnd]
        return previous.count >= equals - lineStart && previous.last != UInt8(ascii: "=")
            && previous.allSatisfy(ByteSet.standardBase64.contains)
    }

    /// The longest line quoted-printable writes, its soft break's `=` included (RFC 2045 §6.7 (5)).
    static let longestEncodedLine = 76

    /// The fields a server reads a document from: verifyReceipt's and the App Store Server's.
    static func isDocumentField(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["receipt-data", "receipt_data", "receiptdata", "latest_receipt"].contains(lowered)
            || JWSText.isTokenMember(name)
    }

    /// The field of a form body (`receipt-data=…&password=…`, `signedPayload=…`) that holds the document, read on
    /// the raw body (its fields are decoded one by one later, so an escaped `&` or `=` never splits a field). A
    /// field a server reads (`receipt-data`, `signed…`, its name percent-decoded as a server decodes it) is the one
    /// taken; a field given twice with different values, or two fields holding different documents, are ambiguous.
    static func formField(_ text: [UInt8], _ trimmed: Range<Int>) -> Outcome {
        let body = text[trimmed]
        guard body.contains(UInt8(ascii: "=")), !body.contains(0x0A), !body.contains(0x0D),
            body.first.map(ByteSet.formKey.contains) == true
        else { return .none }
        var fields: [(key: String, start: Int, value: [UInt8])] = []
        var start = trimmed.lowerBound
        while start < trimmed.upperBound {
            let end = text[start..<trimmed.upperBound].firstIndex(of: UInt8(ascii: "&")) ?? trimmed.upperBound
            let pair = text[start..<end]
            // Every field is name=value with a plain name; anything else (base64 with its padding, prose with an
            // '=' in it) is not a form.
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")), equals > pair.startIndex,
                pair[..<equals].allSatisfy(ByteSet.formKey.contains)
            else { return .none }
            guard fields.count < mostFormFields else { return .none }
            // The name as a server decodes it (`receipt%2Ddata` is `receipt-data`, `+` a space).
            let name = Array(pair[..<equals]).map { $0 == UInt8(ascii: "+") ? 0x20 : $0 }
            let key = String(decoding: percentDecoded(name) ?? name, as: UTF8.self)
            fields.append((key, equals + 1, Array(pair[(equals + 1)...])))
            start = end + 1
        }
        return decide(fields, body)
    }

    static func decide(_ fields: [(key: String, start: Int, value: [UInt8])], _ body: ArraySlice<UInt8>) -> Outcome {
        guard !fields.isEmpty else { return .none }
        var seen: [String: [UInt8]] = [:]
        for field in fields {
            let key = field.key.lowercased()
            if let earlier = seen[key], earlier != field.value {
                return .ambiguous(
                    "the form gives \(field.key) twice with different values: servers disagree on which counts (PHP, Rails and Express take the last), so rcpt reads neither"
                )
            }
            seen[key] = field.value
        }
        // The field a server reads is the one taken; any other that holds a receipt too must hold the same one (a
        // red team's trial: a second receipt in another field went unread, valid). Only a receipt's base64 counts
        // there, compared decoded: JSON metadata, a login token or the same receipt encoded another way beside it
        // are what real forms carry (a reviewer's trial). Without such a field, the fields holding a document are
        // the candidates below, and differing ones are ambiguous there.
        let served = fields.filter { isDocumentField($0.key) }
        let chosenReceipt = served.first.flatMap { receiptBytes($0.value) }
        let otherReceipt =
            !served.isEmpty
            && fields.contains { field in
                !isDocumentField(field.key) && field.value.count >= shortestDocument
                    && receiptBytes(field.value).map { $0 != chosenReceipt } == true
            }
        if otherReceipt {
            return .ambiguous(
                "the form's fields hold different receipts (\(served.first?.key ?? "receipt-data") and another): paste the one you mean"
            )
        }
        let candidates =
            served.isEmpty
            ? fields.filter { $0.value.count >= shortestDocument && holdsDocument($0.value) } : served
        guard let chosen = candidates.first else { return .none }
        if candidates.contains(where: { $0.value != chosen.value }) {
            return .ambiguous(
                "the form's fields \(candidates.map(\.key).joined(separator: " and ")) hold different documents: paste the one you mean"
            )
        }
        guard chosen.value.count < body.count else { return .none }
        if !holdsDocument(chosen.value) {
            return .ambiguous("the form's \(chosen.key) field, the one a server reads, holds no receipt or JWS")
        }
        return .layer(
            PastedDocument(
                inner: chosen.value, phrase: "read the form field \(chosen.key) (offset \(chosen.start))",
                offset: chosen.start, isSlice: true))
    }

    // MARK: - Characters

    static func trim(_ text: [UInt8]) -> Range<Int> {
        var start = 0
        var end = text.count
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < end, ByteSet.whitespace.contains(text[start]) { start += 1 }
        while end > start, ByteSet.whitespace.contains(text[end - 1]) { end -= 1 }
        return start..<end
    }

}

extension ByteSet {
    /// A form body's key (`receipt-data`, `a[b]`, percent-encoded names).
    static let formKey = ByteSet("A-Za-z0-9_.%[]-")
    /// Standard base64 as a form or query string carries it, percent-encoded or not.
    static let urlEncodedStandardBase64 = standardBase64.union(ByteSet("%"))
}
