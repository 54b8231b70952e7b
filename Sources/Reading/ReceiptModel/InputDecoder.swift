import ReceiptASN1
import ReceiptDiagnostics

/// How a receipt was wrapped in the input.
public enum InputFormat: String, Sendable, Hashable, CaseIterable {
    /// Raw binary (DER or BER; which one is told by the container's findings).
    case binary
    case base64
    /// A verifyReceipt request body: `{"receipt-data": "<base64>", …}`.
    case jsonRequest = "json-request"
    case pem
}

/// Why the input holds no receipt bytes at all. Shown to people, so the message says what the input looks like.
public typealias InputError = CodedError

/// The receipt bytes found in an input, the format they were found in, and any harmless damage repaired on the way.
public struct DecodedInput: Sendable, Hashable {
    public var bytes: [UInt8]
    package var format: InputFormat
    /// What was repaired (quotes, a byte order mark, percent-escapes, spaces that were `+` …), one phrase each.
    package var repairs: [String]
    /// A verifyReceipt response's unsigned decoding beside the signed `latest_receipt` these bytes are.
    package var responseDecoding: VerifyReceiptDecoding? = nil
}

/// Unwraps receipt bytes from whatever the user pasted or saved: raw DER/BER, base64 (whitespace allowed), PEM,
/// a verifyReceipt request body, or a verifyReceipt response's `latest_receipt`. Auto-detects unless a format is
/// forced. Harmless damage to pasted text is repaired and reported; other documents (a StoreKit 2 JWS, a server
/// notification) are named, with what to do instead.
public enum InputDecoder {
    /// The receipt bytes and the format they were found in.
    /// `base` is where `input` starts in the text it was found in: the offsets of damaged base64 are given in that
    /// text.
    public static func decode(_ input: [UInt8], as forced: InputFormat? = nil, base: Int = 0) -> Result<
        DecodedInput, InputError
    > {
        if forced == .binary || (forced == nil && input.first == 0x30) {
            guard !input.isEmpty else { return .failure(InputError(.inputEmpty, "the input is empty")) }
            return .success(DecodedInput(bytes: input, format: .binary, repairs: []))
        }
        if forced == nil, !input.isEmpty, input.allSatisfy(ByteSet.whitespace.contains) {
            return .failure(InputError(.inputEmpty, "the input holds only white space (\(input.count) bytes)"))
        }
        let unwrapped = PastedText.unwrap(input)
        let text = unwrapped.text
        func found(_ bytes: [UInt8], _ format: InputFormat, _ more: [String] = []) -> Result<DecodedInput, InputError> {
            .success(DecodedInput(bytes: bytes, format: format, repairs: unwrapped.repairs + more))
        }
        switch forced ?? detect(text) {
        case .binary:
            guard !input.isEmpty else { return .failure(InputError(.inputEmpty, "the input is empty")) }
            if let error = diagnoseText(text, base: base + unwrapped.offset) { return .failure(error) }
            return .success(DecodedInput(bytes: input, format: .binary, repairs: []))
        case .base64:
            // Damaged on the way (percent-escapes, + turned into spaces): base64 has no space inside a line, so
            // the repaired text is tried first, and taken when it decodes to one whole element (a decoder that
            // skips the spaces would read other bytes, which an indefinite length cannot tell apart).
            let readings = PastedText.repairBase64(text)
            for repaired in readings {
                // A repair is taken only when its bytes add up to one element that is DER throughout.
                if let bytes = Base64.decode(repaired.text), PastedText.isWholeElement(bytes),
                    Base64Damage.structuralBreak(bytes) == nil
                {
                    return found(bytes, .base64, repaired.repairs)
                }
            }
            // Or to such an element with bytes after it: a receipt with trailing bytes, judged as the same bytes are
            // raw or in any other wrapping (a trial: the spaces read as gaps gave "truncated" instead).
            for repaired in readings {
                if let bytes = Base64.decode(repaired.text), let end = PastedText.wholeElementEnd(bytes),
                    end < bytes.count, Base64Damage.structuralBreak(Array(bytes[..<end])) == nil
                {
                    return found(bytes, .base64, repaired.repairs)
                }
            }
            let plain = Base64.decode(text)
            // An indefinite length is "whole" by its last two bytes, which a text that lost a character in the middle
            // may still end with: such bytes are checked for damage first.
            let indefinite = plain.map { $0.count > 1 && $0[1] == 0x80 } ?? false
            if let plain, !indefinite, PastedText.isWholeElement(plain) { return found(plain, .base64) }
            if let raw = indefinite ? plain : Base64Damage.lettersDecoded(text),
                let lost = Base64Damage.lostCharacters(text: text, decoded: raw, base: base + unwrapped.offset)
            {
                return .failure(lost)
            }
            if let plain, PastedText.isWholeElement(plain) { return found(plain, .base64) }
            if let plain, plain.first == 0x30 { return found(plain, .base64) }
            // Cut short one character into a 4-character group (a length no base64 text has): the whole groups
            // before it are the receipt's first bytes, and the receipt reader finds them truncated, as it does a
            // text cut anywhere else.
            let diagnosis = diagnoseText(text, base: base + unwrapped.offset) ?? notAReceipt(text)
            if diagnosis.kind == .notAReceipt,
                case .failure(.impossibleLength) = Base64Codec.decode(text, skippingWhitespace: true),
                let cut = withoutLastCharacter(text), let bytes = Base64.decode(cut), bytes.first == 0x30
            {
                return found(
                    bytes, .base64,
                    ["left out the last character of the base64, one into a 4-character group (the text was cut short)"]
                )
            }
            return .failure(diagnosis)
        case .pem:
            return decodePEM(text).flatMap { found($0, .pem) }
        case .jsonRequest:
            // The body's offsets are into `text`: the input's are `base + unwrapped.offset` further on.
            return decodeJSON(text).mapError { error in
                var shifted = error
                shifted.offset = error.offset.flatMap { offset in
                    let (sum, overflow) = offset.addingReportingOverflow(base + unwrapped.offset)
                    return overflow ? nil : sum
                }
                return shifted
            }.flatMap { body in
                found(body.bytes, .jsonRequest, body.repairs).map { decoded in
                    var decoded = decoded
                    decoded.responseDecoding = body.responseDecoding?.shifted(by: base + unwrapped.offset)
                    return decoded
                }
            }
        }
    }

    /// `text` without its last character other than white space, when what is left is a whole number of
    /// 4-character groups (the text was one character longer than that).
    static func withoutLastCharacter(_ text: [UInt8]) -> [UInt8]? {
        guard let last = text.lastIndex(where: { !ByteSet.whitespace.contains($0) }) else { return nil }
        var cut = text
        cut.remove(at: last)
        guard cut.count(where: { !ByteSet.whitespace.contains($0) }) % 4 == 0 else { return nil }
        return cut
    }

    /// Whether `bytes` are exactly one DER/BER element by its outer header (a receipt's bytes, whole).
    package static func isWholeElement(_ bytes: [UInt8]) -> Bool { PastedText.isWholeElement(bytes) }
    package static func startsWithWholeElement(_ bytes: [UInt8]) -> Bool { PastedText.startsWithWholeElement(bytes) }

    /// The format `input` looks like.
    package static func detect(_ input: [UInt8]) -> InputFormat {
        guard let first = input.first(where: { !ByteSet.whitespace.contains($0) }) else { return .binary }
        if input.first == 0x30 { return .binary }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return .jsonRequest }
        if first == UInt8(ascii: "-"), startsWith(input.drop(while: ByteSet.whitespace.contains), "-----BEGIN") {
            return .pem
        }
        if input.allSatisfy(ByteSet.pastedBase64.contains) { return .base64 }
        return .binary
    }

    /// Why a text input is not a receipt, in words: another kind of document, base64 with a misread character, or
    /// base64 with text after it. Nil for input that is not text at all (the container reader says what is wrong with
    /// it). `base` is where `text` starts in the input.
    static func diagnoseText(_ text: [UInt8], base: Int = 0) -> InputError? {
        guard !text.isEmpty else { return nil }
        guard text.allSatisfy({ $0 >= 0x20 || ByteSet.whitespace.contains($0) }),
            String(validatingUTF8: text.map { CChar(bitPattern: $0) } + [0]) != nil
        else { return damagedBase64(text, base: base) }
        if let other = PastedText.otherDocument(text) { return other }
        let misread = Base64Damage.misreadCharacters(text, from: 0).map { (offset: base + $0.offset, $0.character) }
        if let damaged = Base64Damage.misread(misread) { return damaged }
        // Base64 lines followed by other text: a signature or a note pasted with it.
        if let offset = PastedText.textAfterBase64(text) {
            let rest = String(decoding: text[offset...].prefix(40), as: UTF8.self).filter { !$0.isNewline }
            return InputError(
                .base64FollowedByText,
                "the input is base64 followed by other text at offset \(base + offset) (\"\(rest)\"): paste the base64 alone",
                at: base + offset)
        }
        return notAReceipt(text)
    }

    /// A receipt's base64 with a control byte in it or after it (a NUL a C string left, a stray byte): damaged
    /// base64, said where, rather than binary that is no receipt. Nil for anything else.
    static func damagedBase64(_ text: [UInt8], base: Int) -> InputError? {
        guard let start = text.firstIndex(where: { !ByteSet.whitespace.contains($0) }),
            text[start...].starts(with: [UInt8(ascii: "M"), UInt8(ascii: "I")])
        else { return nil }
        let misread = Base64Damage.misreadCharacters(text, from: start).map { (offset: base + $0.offset, $0.character) }
        if let damaged = Base64Damage.misread(misread) { return damaged }
        guard let control = text.firstIndex(where: { $0 < 0x20 && !ByteSet.whitespace.contains($0) }),
            control - start >= 64,
            text[start..<control].allSatisfy({ ByteSet.anyBase64.contains($0) || ByteSet.whitespace.contains($0) })
        else { return nil }
        let byte =
            text[control] < 0x10 ? "0x0" + String(text[control], radix: 16) : "0x" + String(text[control], radix: 16)
        return InputError(
            .base64FollowedByText,
            "the input is base64 followed by the control byte \(byte) at offset \(base + control): paste the base64 alone",
            at: base + control)
    }

    // MARK: - PEM

    /// The bytes of the PEM block in `input`. A second block with other bytes, or base64 of another DER element in
    /// the text around the block, is refused as ambiguous: readers take either.
    static func decodePEM(_ input: [UInt8]) -> Result<[UInt8], InputError> {
        let text = String(decoding: input, as: UTF8.self)
        var blocks: [[UInt8]] = []
        var body: [UInt8] = []
        var outside: [UInt8] = []
        var inside = false
        /// A line outside the blocks that is not all base64: its runs of base64 characters, apart (a label before a
        /// document, `receipt-data: MII…`, keeps the document: a red team's trial had it read past, valid).
        func outsideWords(_ line: Substring) {
            outside.append(UInt8(ascii: " "))
            for byte in line.utf8 { outside.append(ByteSet.pastedBase64.contains(byte) ? byte : UInt8(ascii: " ")) }
            outside.append(UInt8(ascii: " "))
        }
        /// What follows a BEGIN or END marker's closing dashes on its line.
        func afterMarker(_ line: Substring) -> Substring {
            guard let close = line.dropFirst(5).firstRange(of: "-----") else { return "" }
            return line[close.upperBound...]
        }
        // `isNewline`: "\r\n" is one Character, equal to neither "\n" nor "\r" (a hostile-bytes trial's CRLF PEM
        // was "unterminated").
        for line in text.split(whereSeparator: { $0.isNewline }) {
            let trimmed = line.trimmingSpaces()
            if trimmed.hasPrefix("-----BEGIN") {
                inside = true
                body = []
                continue
            }
            if trimmed.hasPrefix("-----END") {
                if inside { blocks.append(body) }
                inside = false
                outsideWords(afterMarker(trimmed))
                continue
            }
            if inside {
                if !trimmed.contains(":") { body += Array(trimmed.utf8) }
            } else if !trimmed.isEmpty, trimmed.utf8.allSatisfy(ByteSet.pastedBase64.contains) {
                outside += Array(trimmed.utf8)
            } else {
                outsideWords(trimmed)
            }
        }
        guard let first = blocks.first else {
            return .failure(InputError(.pemUnterminated, "the PEM block has no matching -----END line"))
        }
        guard let bytes = Base64.decode(first), !bytes.isEmpty else {
            return .failure(InputError(.pemInvalidBase64, "the PEM block's body is not valid base64"))
        }
        if blocks.dropFirst().contains(where: { Base64.decode($0) != bytes }) {
            return .failure(
                InputError(
                    .inputAmbiguous,
                    "the text holds \(blocks.count) PEM blocks with different contents: readers take either, so rcpt reads neither"
                ))
        }
        // Base64 lines around the block, run together (a word of prose breaks the run).
        for run in outside.split(separator: UInt8(ascii: " ")) where run.count >= 16 {
            if let other = Base64.decode(Array(run)), other != bytes, PastedText.isWholeElement(other) {
                return .failure(
                    InputError(
                        .inputAmbiguous,
                        "the text holds a PEM block and, outside it, base64 of another document: readers take either, so rcpt reads neither"
                    ))
            }
        }
        return .success(bytes)
    }

    // MARK: - verifyReceipt JSON

    /// The receipt in a JSON document: the string value of a verifyReceipt request body's one top-level
    /// `receipt-data` member, or of a verifyReceipt response's `latest_receipt` (reported as a repair). A duplicated
    /// member, or one only inside a nested object or array, is refused: strict JSON readers disagree on which copy
    /// counts. A server notification is named.
    static func decodeJSON(_ input: [UInt8]) -> Result<
        (bytes: [UInt8], repairs: [String], responseDecoding: VerifyReceiptDecoding?), InputError
    > {
        let body: JSONRequestBody
        switch JSONRequestBody.scan(input, keys: ["receipt-data", "latest_receipt", "signedPayload", "status"]) {
        case .failure(let error):
            if let legacy = legacyTransactionReceipt(input) { return .failure(legacy) }
            return .failure(error)
        case .success(let scanned): body = scanned
        }
        var key = "receipt-data"
        var repairs: [String] = []
        if body.topLevel(key).isEmpty, body.firstNested(key) == nil, !body.topLevel("latest_receipt").isEmpty {
            key = "latest_receipt"
            repairs.append(
                "read latest_receipt of a verifyReceipt response (Apple's receipt object beside it is its own decoding)"
            )
        }
        let members = body.topLevel(key)
        if members.count > 1 {
            let offsets = members.map { String($0.offset) }.joined(separator: ", ")
            return .failure(
                InputError(
                    .jsonDuplicateReceiptData,
                    "the JSON body has \(members.count) top-level \"\(key)\" members (at offsets \(offsets); names compared without regard to case, as Go and .NET read them): JSON readers disagree on which copy counts, so rcpt reads none"
                ))
        }
        guard let member = members.first else {
            if let nested = body.firstNested("receipt-data") {
                return .failure(
                    InputError(
                        .jsonReceiptDataNested,
                        "\"receipt-data\" appears only inside a nested object or array (at offset \(nested)); a verifyReceipt request has it at the top level, and only that member is read"
                    ))
            }
            if !body.topLevel("signedPayload").isEmpty {
                return .failure(
                    InputError(
                        .inputIsNotification,
                        "this is an App Store Server Notification V2 ({\"signedPayload\": …}, a JWS), not an App Store receipt: its transaction is a StoreKit 2 JWS; rcpt reads PKCS#7 receipts"
                    ))
            }
            if !body.topLevel("status").isEmpty {
                return .failure(
                    InputError(
                        .inputIsVerifyReceiptResponse,
                        "this is a verifyReceipt response without latest_receipt: its receipt object is Apple's decoding, not the signed receipt; pass the receipt-data that was sent, or a response that carries latest_receipt"
                    ))
            }
            if let legacy = legacyTransactionReceipt(input) { return .failure(legacy) }
            return .failure(
                InputError(
                    .jsonNoReceiptData,
                    "the input looks like JSON but has no \"receipt-data\" string member"))
        }
        guard let value = member.value else {
            return .failure(
                InputError(
                    .jsonNoReceiptData,
                    "the top-level \"\(key)\" member at offset \(member.offset) is not a string"))
        }
        guard let bytes = Base64.decode(value), !bytes.isEmpty else {
            return .failure(InputError(.jsonInvalidBase64, "\"\(key)\" is not valid base64"))
        }
        // Another receipt anywhere in the body (latest_receipt beside receipt-data, a copy nested deeper, any other
        // string): a reader of requests, of responses or of the whole body takes another one.
        if let other = body.derStrings.first(where: { $0.bytes != bytes }) {
            return .failure(
                InputError(
                    .inputAmbiguous,
                    "the JSON body holds two different documents, \"\(key)\" at offset \(member.offset) and base64 at offset \(other.offset): readers take either (a request's reader reads receipt-data, a response's latest_receipt), so rcpt reads neither",
                    at: other.offset))
        }
        return .success((bytes, repairs, key == "latest_receipt" ? body.responseDecoding : nil))
    }

    /// The error for a legacy iOS 6-style transaction receipt, if `input` is one.
    static func legacyTransactionReceipt(_ input: [UInt8]) -> InputError? {
        let text = String(decoding: input.prefix(4096), as: UTF8.self)
        guard text.contains("\"purchase-info\"") || text.contains("\"signature\" =") else { return nil }
        return InputError(
            .legacyTransactionReceipt,
            "not an App Store receipt: this is a legacy iOS 6-style transaction receipt (a property list with \"signature\" and \"purchase-info\"), not PKCS#7"
        )
    }

    // MARK: - Helpers

    static func notAReceipt(_ input: [UInt8]) -> InputError {
        let preview = String(decoding: input.prefix(40), as: UTF8.self).filter { !$0.isNewline }
        return InputError(
            .notAReceipt,
            "not a receipt: the input is text (\"\(preview)\"), but not base64, PEM or a verifyReceipt JSON body")
    }

    static func startsWith<Bytes: Collection>(_ bytes: Bytes, _ prefix: String) -> Bool where Bytes.Element == UInt8 {
        bytes.starts(with: prefix.utf8)
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return start }
        }
        return nil
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
