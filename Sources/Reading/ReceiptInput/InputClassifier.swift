import ReceiptASN1
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel

/// What one input holds, decided once for every command: an App Store receipt (DER or BER, base64, PEM, a
/// verifyReceipt body) or Apple's JWS (a token, a notification body, an API response, an array of tokens), and the
/// bytes its reader reads: the input itself, or the document found in what people paste around it.
public struct ClassifiedInput: Sendable {
    public var kind: DocumentKind
    /// What the reader of `kind` reads.
    public var bytes: [UInt8]
    /// Where `bytes` start in the input, when they are a slice of it (0 for the input itself; nil when a step
    /// decoded the text, as URL-decoding or a JSON string does).
    public var offset: Int?
    /// How the document was found, one info finding (`input-repaired`) per step, with the offset where the step found
    /// it (in the text that step read).
    public var findings: [Finding]
    /// For a JWS, the input as the JWS reader read it while classifying (nil when forced: the inspector reads it).
    public var jws: Result<JWSInput, JWSReadError>?
    /// Whether a document was found: a JWS, receipt bytes the receipt reader takes, or a document that reader
    /// recognises and refuses on purpose (false when nothing was found, or when the format was forced).
    public var isDocument = false
    /// Why the input is refused before any reader sees it: it holds more than one document, or copies readers take
    /// differently (a form field or JSON name given twice). The input is then unreadable, whatever is in it.
    public var refusal: InputError?

    /// Whether nothing could be read from the input, yet it shows a document's traces: a notification or a token
    /// cut short (a JSON string or text that starts as a token does, `eyJ`), or a verifyReceipt body broken.
    public var showsDamagedDocument = false

    /// Whether the input holds a document to judge: one was found, or several were (refused as ambiguous), or one
    /// damaged (base64 with misread characters, a notification cut short) — each judged unreadable wherever the
    /// input stands: a directory scan never passes over it as holding nothing (a trial's damaged `<pre>`-wrapped
    /// receipt was skipped, exit 0; another's truncated REFUND notification was, and `status` said "owned").
    public var holdsDocuments: Bool {
        isDocument || showsDamagedDocument || refusal?.kind == .inputAmbiguous || refusal?.kind == .base64Damaged
    }
}

/// The one answer to "what is this input?". Each layer people wrap a document in is taken off in turn, at most
/// `maximumLayers` times: a JSON string holding the document (JSON inside JSON, a JSON log line), URL-encoding (once
/// or twice), a form body (`receipt-data=…&password=…`), text before and after it (a log line, a greeting, a
/// signature), a token wrapped over lines. Each step is named with its offset. When nothing is found, the receipt
/// reader says what the input is and what was looked for. A document a reader refuses on purpose (a duplicated or
/// nested receipt-data, a legacy transaction receipt) is never dug into for another, and an input holding two
/// documents, or copies readers take differently, is refused (`refusal`), never half-read.
public enum InputClassifier {
    /// How many layers are taken off at most.
    public static let maximumLayers = 4

    /// Whether decoded base64 is the text of a JWS (`eyJ`, a JSON object's base64url) or of a JSON object, not the
    /// bytes of a receipt.
    static func isEncodedDocumentText(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.firstIndex(where: { !ByteSet.whitespace.contains($0) }) else { return false }
        return bytes[first...].starts(with: Array("eyJ".utf8)) || bytes[first] == UInt8(ascii: "{")
    }

    /// The layer of a token's or a JSON document's text encoded once more in base64 (`decoded`, the text inside).
    static func base64Layer(_ decoded: [UInt8]) -> PastedDocument {
        PastedDocument(
            inner: decoded, phrase: "was base64 of a token's or a JSON document's text (decoded)", offset: 0,
            isSlice: false)
    }

    /// The text inside `text` when `text` is base64 (no dot in it) of a document the JWS reader reads whole (a
    /// token, a notification body, an API response) or of a verifyReceipt body or response.
    static func encodedDocument(_ text: [UInt8]) -> [UInt8]? {
        guard !text.contains(UInt8(ascii: ".")), let decoded = Base64.decode(text), isEncodedDocumentText(decoded)
        else { return nil }
        if case .success? = JWSInput.recognise(decoded) { return decoded }
        // A verifyReceipt body or response (a hostile-bytes trial's base64 of {"receipt-data": …} read as a token
        // cut short).
        let first = decoded.first { !ByteSet.whitespace.contains($0) }
        return first == UInt8(ascii: "{") && mentionsReceiptMember(decoded) ? decoded : nil
    }

    /// Classifies `input`. `forced` is `--input-format`: a receipt format makes it a receipt (unless it is plainly a
    /// JWS, which is said), `jws` a JWS.
    public static func classify(_ input: [UInt8], forced: ForcedFormat? = nil) -> ClassifiedInput {
        if let forced {
            guard let format = forced.receiptFormat else {
                return ClassifiedInput(kind: .jws, bytes: input, offset: 0, findings: [])
            }
            if let read = JWSInput.recognise(input, json: nil) {
                return ClassifiedInput(
                    kind: .jws, bytes: input, offset: 0,
                    findings: [
                        Finding(
                            .inputRepaired, at: 0,
                            "--input-format \(format.rawValue) is for receipts, and the input is a JWS: read as a JWS")
                    ], jws: read)
            }
            // Base64 forced, of a token or a notification body: the wrapping taken off, the JWS read (a trial's
            // `--input-format base64` of a token was "not base64").
            if format == .base64, let inner = Self.encodedDocument(Array(input[PastedDocument.trim(input)])),
                let read = JWSInput.recognise(inner, json: nil)
            {
                return ClassifiedInput(
                    kind: .jws, bytes: inner, offset: nil,
                    findings: [
                        Finding(
                            .inputRepaired, at: 0, "--input-format base64 holds a JWS's text: decoded and read as a JWS"
                        )
                    ], jws: read)
            }
            return ClassifiedInput(kind: .receipt, bytes: input, offset: 0, findings: [])
        }
        if input.first == 0x30 {
            var classified = ClassifiedInput(kind: .receipt, bytes: input, offset: 0, findings: [])
            classified.isDocument = true
            return classified
        }
        var text = input
        var offset: Int? = 0
        var findings: [Finding] = []
        // What the receipt reader said of the input itself: the refusal when nothing is found anywhere in it.
        var firstError: InputError?
        for layer in 0...maximumLayers {
            // JSON is parsed once a layer, for the JWS reader and the search alike.
            let json = PastedDocument.jsonDocument(text)
            let recognised = JWSInput.recognise(text, json: json)
            // Base64 of a notification body or an API response (`{"` encodes to `eyJ`, as a token's header does)
            // reads as a token cut short to one part; the document inside is the next layer.
            if case .failure? = recognised, layer < maximumLayers, let inner = Self.encodedDocument(text) {
                let step = Self.base64Layer(inner)
                findings.append(Finding(.inputRepaired, at: step.offset, FindingMessage(step.phrase)))
                offset = nil
                text = step.inner
                continue
            }
            if let read = recognised {
                // A receipt beside the tokens (`receipt-data` next to `signedPayload`): a server reading receipts
                // takes it, one reading tokens takes them.
                if let json, let path = PastedDocument.receiptString(in: json) {
                    var classified = ClassifiedInput(kind: .receipt, bytes: input, offset: 0, findings: findings)
                    classified.refusal = InputError(
                        .inputAmbiguous,
                        "the JSON holds both JWS and a receipt (base64 at \(path)): readers take either, so rcpt reads neither"
                    )
                    return classified
                }
                var classified = ClassifiedInput(kind: .jws, bytes: text, offset: offset, findings: findings, jws: read)
                classified.isDocument = true
                return classified
            }
            // The layer taken off next: the text after a receipt's base64, when the whole text decoded with it;
            // else what `unwrap` finds.
            var next: PastedDocument.Outcome?
            if json == nil || readerMembers.contains(where: { TextCheck.contains(text, $0) }) {
                let decodedInput = InputDecoder.decode(text, base: offset ?? 0)
                // Base64 with words after it that are base64 letters too ("OK", "user 42", a second copy): the
                // whole text decodes, to the receipt and bytes after it (an indefinite length cannot tell).
                if case .success(let decoded) = decodedInput, decoded.format == .base64, layer < maximumLayers,
                    text[PastedDocument.trim(text)].contains(where: ByteSet.whitespace.contains)
                {
                    switch PastedDocument.blockBeforeText(text) {
                    case .none: break
                    case let found: next = found
                    }
                }
                // Base64 of a token or of JSON (a JWS someone encoded once more): the text inside is the next layer.
                // Text the receipt reader took as a receipt's base64 (DER inside) is not decoded again.
                let receiptInside = (try? decodedInput.get())?.bytes.first == 0x30
                if next == nil, layer < maximumLayers, !receiptInside, text.first != 0x30,
                    let decoded = Base64.decode(text), Self.isEncodedDocumentText(decoded)
                {
                    next = .layer(Self.base64Layer(decoded))
                }
                // Text saved as UTF-16 reads as binary: its UTF-8 is the next layer.
                if next == nil, layer < maximumLayers, let step = PastedDocument.utf16Layer(text) {
                    next = .layer(step)
                }
                if next == nil {
                    switch decodedInput {
                    case .success(let decoded):
                        var classified = ClassifiedInput(
                            kind: .receipt, bytes: text, offset: offset, findings: findings)
                        // Binary that is not DER (an image in a folder) is the receipt reader's to refuse, not a find.
                        classified.isDocument = decoded.format != .binary || text.first == 0x30
                        return classified
                    case .failure(let error) where !isDiggable(error, text, base: offset ?? 0):
                        var classified = ClassifiedInput(
                            kind: .receipt, bytes: text, offset: offset, findings: findings)
                        classified.isDocument = true
                        return classified
                    case .failure(let error):
                        if layer == 0 { firstError = error }
                    }
                }
            }
            guard layer < maximumLayers else { break }
            switch next ?? PastedDocument.unwrap(text, json: json) {
            case .layer(let step):
                findings.append(Finding(.inputRepaired, at: step.offset, FindingMessage(step.phrase)))
                offset = step.isSlice ? offset.map { $0 + step.offset } : nil
                text = step.inner
            case .ambiguous(let reason):
                var classified = ClassifiedInput(kind: .receipt, bytes: input, offset: 0, findings: findings)
                classified.refusal = InputError(.inputAmbiguous, reason + Self.whereOffsetsCount(offset, findings))
                return classified
            case .damaged(var error):
                // Offsets into a decoded layer are no offsets into the input: the message says them, with the steps.
                error.offset = offset.flatMap { base in error.offset.map { base + $0 } }
                if offset == nil {
                    error.message += " (offsets in the text as decoded: \(findings.count) step(s) above)"
                }
                var classified = ClassifiedInput(kind: .receipt, bytes: input, offset: 0, findings: findings)
                classified.refusal = error
                return classified
            case .none:
                return nothingFound(input, firstError)
            }
        }
        return nothingFound(input, firstError)
    }

    /// The refusal of an input in which nothing was found: what the receipt reader said of it, with what was looked
    /// for.
    static func nothingFound(_ input: [UInt8], _ error: InputError?) -> ClassifiedInput {
        // Text that a token position would take for a token (it starts `eyJ`, the encoding of `{"`, and holds a
        // dot) is a damaged JWS, as the same text in a notification's `signedPayload` is: the JWS reader says where
        // it breaks (a character outside base64url, a part cut short).
        if JWSText.looksLikeToken(input) {
            var classified = ClassifiedInput(
                kind: .jws, bytes: input, offset: 0, findings: [], jws: JWSInput.read(input))
            classified.isDocument = true
            return classified
        }
        var classified = ClassifiedInput(kind: .receipt, bytes: input, offset: 0, findings: [])
        classified.showsDamagedDocument = showsDocumentTraces(input)
        let lookedFor =
            "no DER, base64 or PEM receipt, verifyReceipt body, JWS, notification or API response was found in it (nor in its JSON strings, form fields, URL-encoding or the text around them)"
        if let error, error.kind == .notAReceipt {
            let preview = String(decoding: input.prefix(40), as: UTF8.self).filter { !$0.isNewline }
            classified.refusal = InputError(
                error.kind,
                "not a receipt or a JWS: the input is text (\"\(preview)\"), and " + lookedFor + brokenTokenHint(input))
        } else if let error {
            classified.refusal = InputError(error.kind, error.message + "; " + lookedFor, at: error.offset)
        } else {
            classified.refusal = InputError(.jsonNoReceiptData, "the input is JSON, but " + lookedFor)
        }
        return classified
    }

    /// Whether text in which no document could be read still shows one's traces: a JSON string that starts as a
    /// token (`"eyJ`, the encoding of `{"`), a verifyReceipt member, or text that is a token's start alone (`eyJ` and
    /// base64url letters, cut before its first dot).
    static func showsDocumentTraces(_ input: [UInt8]) -> Bool {
        if TextCheck.contains(input, #""eyJ"#) || mentionsReceiptMember(input) { return true }
        let text = input[PastedDocument.trim(input)]
        return text.count >= 16 && text.starts(with: Array("eyJ".utf8)) && text.allSatisfy(ByteSet.base64URL.contains)
    }

    /// What to do when the text holds a token broken over lines at places no wrapping explains (a mail client's,
    /// a chat's): its characters from `eyJ` on, white space left out, have a token's shape (a support engineer's
    /// trial: "not-a-receipt" with no hint).
    static func brokenTokenHint(_ input: [UInt8]) -> String {
        let start = Array("eyJ".utf8)
        guard let at = input.indices.first(where: { input[$0...].starts(with: start) }) else { return "" }
        let joined = input[at...].filter { !ByteSet.whitespace.contains($0) }
        guard input[at...].contains(where: ByteSet.whitespace.contains), JWSText.looksLikeToken(joined) else {
            return ""
        }
        return
            "; from offset \(at) it holds what looks like a token broken over lines: join its lines into one and give that"
    }

    /// The members that make a JSON document the receipt reader's to read or name (a verifyReceipt request or
    /// response, a notification body it names).
    /// Where the offsets a step states count from, when the text it read is not the input: a slice of it (a form
    /// field, text around a document) or a decoding (a JSON string, URL-encoding).
    static func whereOffsetsCount(_ base: Int?, _ steps: [Finding]) -> String {
        guard !steps.isEmpty else { return "" }
        guard let base else { return " (offsets in the text as decoded: \(steps.count) step(s) above)" }
        return base == 0
            ? "" : " (offsets from offset \(base) of the input, where \(steps.count) step(s) above found it)"
    }

    static let readerMembers = [#""receipt-data""#, #""latest_receipt""#, #""status""#, #""signedPayload""#]

    /// Whether the text names a verifyReceipt member (`"receipt-data"`, `"latest_receipt"`): a JSON body with one is
    /// the receipt reader's to judge.
    static func mentionsReceiptMember(_ text: [UInt8]) -> Bool {
        TextCheck.contains(text, #""receipt-data""#) || TextCheck.contains(text, #""latest_receipt""#)
    }

    /// The receipt reader's refusals that mean "no receipt here", after which the text is searched further. Any
    /// other refusal is the reader's judgement of a document it recognised, and stands; so does any refusal of a
    /// text that names a verifyReceipt member (`"receipt-data"`, `"latest_receipt"`): it is a verifyReceipt body,
    /// malformed or not, and its reader judges it.
    static let diggable: Set<ErrorCode> = [.notAReceipt, .base64FollowedByText, .jsonNoReceiptData, .jsonMalformed]

    ///
    /// Text that only starts like JSON is searched all the same: one never read as JSON (`[app] body={…}`), one that
    /// broke before naming any member, and a whole body with text after it (a log line): the body is found in it.
    /// `base` is where `text` starts in the input (the error's offset is the input's).
    static func isDiggable(_ error: InputError, _ text: [UInt8], base: Int) -> Bool {
        guard diggable.contains(error.kind) else { return false }
        let trimmed = PastedDocument.trim(text)
        let startsJSON =
            !trimmed.isEmpty
            && (text[trimmed.lowerBound] == UInt8(ascii: "{") || text[trimmed.lowerBound] == UInt8(ascii: "["))
        guard startsJSON && mentionsReceiptMember(text) else { return true }
        switch error.kind {
        case .notAReceipt:
            return true
        case .jsonMalformed:
            guard let offset = error.offset, offset > base, offset - base <= text.count else { return false }
            let before = Array(text[..<(offset - base)])
            return !mentionsReceiptMember(before) || (try? JSONDocument.read(before)) != nil
        default:
            return false
        }
    }

}

/// `--input-format`, as the classifier takes it.
public enum ForcedFormat: Sendable, Hashable {
    case receipt(InputFormat)
    case jws

    /// The receipt wrapper forced, or nil when the input is forced to be a JWS.
    public var receiptFormat: InputFormat? {
        guard case .receipt(let format) = self else { return nil }
        return format
    }
}
