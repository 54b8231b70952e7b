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
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(code))" }
}

/// Unwraps receipt bytes from whatever the user pasted or saved: raw DER/BER, base64 (whitespace allowed), PEM,
/// or a verifyReceipt JSON request body. Auto-detects unless a format is forced.
public enum InputDecoder {
    /// The receipt bytes and the format they were found in.
    public static func decode(_ input: [UInt8], as forced: InputFormat? = nil)
        -> Result<(bytes: [UInt8], format: InputFormat), InputError>
    {
        let format = forced ?? detect(input)
        switch format {
        case .binary:
            guard !input.isEmpty else { return .failure(InputError("input-empty", "the input is empty")) }
            return .success((input, .binary))
        case .base64:
            guard let bytes = Base64.decode(input), bytes.first == 0x30 else {
                return .failure(notAReceipt(input))
            }
            return .success((bytes, .base64))
        case .pem:
            return decodePEM(input).map { ($0, .pem) }
        case .jsonRequest:
            return decodeJSONRequest(input).map { ($0, .jsonRequest) }
        }
    }

    /// The format `input` looks like.
    public static func detect(_ input: [UInt8]) -> InputFormat {
        guard let first = input.first(where: { !isWhitespace($0) }) else { return .binary }
        if input.first == 0x30 { return .binary }
        if first == UInt8(ascii: "{") { return .jsonRequest }
        if first == UInt8(ascii: "-"), startsWith(input.drop(while: isWhitespace), "-----BEGIN") { return .pem }
        if input.allSatisfy({ isBase64Character($0) || isWhitespace($0) }) { return .base64 }
        return .binary
    }

    // MARK: - PEM

    static func decodePEM(_ input: [UInt8]) -> Result<[UInt8], InputError> {
        let text = String(decoding: input, as: UTF8.self)
        var body: [UInt8] = []
        var inside = false
        var found = false
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let trimmed = line.trimmingSpaces()
            if trimmed.hasPrefix("-----BEGIN") {
                guard !found else { break }
                inside = true
                continue
            }
            if trimmed.hasPrefix("-----END") {
                if inside { found = true }
                inside = false
                continue
            }
            if inside && !trimmed.contains(":") { body += Array(trimmed.utf8) }
        }
        guard found else {
            return .failure(InputError("pem-unterminated", "the PEM block has no matching -----END line"))
        }
        guard let bytes = Base64.decode(body), !bytes.isEmpty else {
            return .failure(InputError("pem-invalid-base64", "the PEM block's body is not valid base64"))
        }
        return .success(bytes)
    }

    // MARK: - verifyReceipt JSON

    /// The receipt of a verifyReceipt request body: the string value of its one top-level `receipt-data` member.
    /// A duplicated member, or one only inside a nested object or array, is refused: strict JSON readers disagree
    /// on which copy counts.
    static func decodeJSONRequest(_ input: [UInt8]) -> Result<[UInt8], InputError> {
        let body: JSONRequestBody
        switch JSONRequestBody.scan(input, key: "receipt-data") {
        case .failure(let error):
            if let legacy = legacyTransactionReceipt(input) { return .failure(legacy) }
            return .failure(error)
        case .success(let scanned): body = scanned
        }
        if body.topLevel.count > 1 {
            let offsets = body.topLevel.map { String($0.offset) }.joined(separator: ", ")
            return .failure(InputError("json-duplicate-receipt-data",
                                       "the JSON body has \(body.topLevel.count) top-level \"receipt-data\" members (at offsets \(offsets)): JSON readers disagree on which copy counts, so rcpt reads none"))
        }
        guard let member = body.topLevel.first else {
            if let nested = body.firstNested {
                return .failure(InputError("json-receipt-data-nested",
                                           "\"receipt-data\" appears only inside a nested object or array (at offset \(nested)); a verifyReceipt request has it at the top level, and only that member is read"))
            }
            if let legacy = legacyTransactionReceipt(input) { return .failure(legacy) }
            return .failure(InputError("json-no-receipt-data",
                                       "the input looks like JSON but has no \"receipt-data\" string member"))
        }
        guard let value = member.value else {
            return .failure(InputError("json-no-receipt-data",
                                       "the top-level \"receipt-data\" member at offset \(member.offset) is not a string"))
        }
        guard let bytes = Base64.decode(value), !bytes.isEmpty else {
            return .failure(InputError("json-invalid-base64", "\"receipt-data\" is not valid base64"))
        }
        return .success(bytes)
    }

    /// The error for a legacy iOS 6-style transaction receipt, if `input` is one.
    static func legacyTransactionReceipt(_ input: [UInt8]) -> InputError? {
        let text = String(decoding: input.prefix(4096), as: UTF8.self)
        guard text.contains("\"purchase-info\"") || text.contains("\"signature\" =") else { return nil }
        return InputError("legacy-transaction-receipt",
                          "not an App Store receipt: this is a legacy iOS 6-style transaction receipt (a property list with \"signature\" and \"purchase-info\"), not PKCS#7")
    }

    // MARK: - Helpers

    static func notAReceipt(_ input: [UInt8]) -> InputError {
        let preview = String(decoding: input.prefix(40), as: UTF8.self).filter { !$0.isNewline }
        return InputError("not-a-receipt",
                          "not a receipt: the input is text (\"\(preview)\"), but not base64, PEM or a verifyReceipt JSON body")
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    static func isBase64Character(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
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
