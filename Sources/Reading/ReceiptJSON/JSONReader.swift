import ReceiptASN1
import ReceiptDiagnostics

/// The JSON reader: one pass over the bytes into flat nodes, bounded in depth, nodes and size, every error with its
/// offset; duplicate names kept and reported.
extension JSONDocument {
    // MARK: - The reader

    enum Expect { case value, keyOrClose, key, valueOrClose, afterValue }

    mutating func parse(limits: JSONLimits) throws(JSONError) {
        let count = bytes.count
        guard count <= limits.maximumSize else {
            throw JSONError(.jsonTooLarge, at: 0, "\(count) bytes is more than the limit of \(limits.maximumSize)")
        }
        var stack: [Open] = []
        var expect = Expect.value
        var pendingKey: Range<Int>?
        var position = skipSpace(0)
        guard position < count else { throw JSONError(.jsonEmpty, at: position, "no JSON value, only white space") }
        while true {
            position = skipSpace(position)
            switch expect {
            case .value:
                guard position < count else {
                    throw JSONError(.jsonTruncated, at: position, "the text ends where a value should start")
                }
                guard nodes.count < limits.maximumNodes else {
                    let maximum = limits.maximumNodes
                    throw JSONError(.jsonNodeLimit, at: position, "more than \(maximum) values in one document")
                }
                let byte = bytes[position]
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    guard stack.count < limits.maximumDepth else {
                        let maximum = limits.maximumDepth
                        throw JSONError(
                            .jsonDepthLimit, at: position, "nesting deeper than the limit of \(maximum) levels")
                    }
                    let isObject = byte == UInt8(ascii: "{")
                    noteName(pendingKey, stack: &stack)
                    nodes.append(
                        JSONNode(
                            kind: isObject ? .object : .array, start: position, end: position,
                            depth: stack.count, keyRange: pendingKey, next: 0))
                    stack.append(Open(node: nodes.count - 1, isObject: isObject))
                    pendingKey = nil
                    position += 1
                    expect = isObject ? .keyOrClose : .valueOrClose
                } else {
                    let (kind, end) = try leaf(at: position)
                    noteName(pendingKey, stack: &stack)
                    nodes.append(
                        JSONNode(
                            kind: kind, start: position, end: end, depth: stack.count,
                            keyRange: pendingKey, next: nodes.count + 1))
                    pendingKey = nil
                    position = end
                    expect = .afterValue
                }
            case .keyOrClose, .valueOrClose:
                let closer = expect == .keyOrClose ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if position < count, bytes[position] == closer {
                    close(&stack, at: position)
                    position += 1
                    expect = .afterValue
                } else {
                    expect = expect == .keyOrClose ? .key : .value
                }
            case .key:
                guard position < count else {
                    throw JSONError(.jsonTruncated, at: position, "the text ends where a member name should start")
                }
                guard bytes[position] == UInt8(ascii: "\"") else {
                    throw unexpected(at: position, "a member name in double quotes")
                }
                let end = try stringEnd(from: position)
                pendingKey = position + 1..<end - 1
                if namesArePlain, bytes[position + 1..<end - 1].contains(where: { $0 >= 0x80 || $0 == 0x5C }) {
                    namesArePlain = false
                }
                position = skipSpace(end)
                guard position < count else {
                    throw JSONError(.jsonTruncated, at: position, "the text ends before ':'")
                }
                guard bytes[position] == UInt8(ascii: ":") else {
                    throw unexpected(at: position, "':' after a member name")
                }
                position += 1
                expect = .value
            case .afterValue:
                guard let top = stack.last else {
                    guard position == count else {
                        let extra = count - position
                        throw JSONError(.jsonTrailingBytes, at: position, "\(extra) bytes follow the top-level value")
                    }
                    return
                }
                guard position < count else {
                    let what = top.isObject ? "'}'" : "']'"
                    throw JSONError(.jsonTruncated, at: position, "the text ends before ',' or \(what)")
                }
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    expect = top.isObject ? .key : .value
                } else if byte == (top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    close(&stack, at: position)
                    position += 1
                } else {
                    throw unexpected(at: position, top.isObject ? "',' or '}'" : "',' or ']'")
                }
            }
        }
    }

    mutating func close(_ stack: inout [Open], at position: Int) {
        guard let open = stack.popLast() else { return }
        nodes[open.node].end = position + 1
        nodes[open.node].next = nodes.count
    }

    func unexpected(at position: Int, _ wanted: String) -> JSONError {
        let byte = bytes[position]
        return JSONError(.jsonUnexpectedByte, at: position, "\(JSONDocument.describe(byte)) where \(wanted) should be")
    }

    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(ASN1Primitives.hex([byte]))"
    }

    func skipSpace(_ start: Int) -> Int {
        var position = start
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return position
            }
        }
        return position
    }

    /// A string, number or literal starting at `position`: its kind and where it ends.
    func leaf(at position: Int) throws(JSONError) -> (JSONKind, Int) {
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "\""):
            return (.string, try stringEnd(from: position))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return (.number, try numberEnd(from: position))
        case UInt8(ascii: "t"): return (.true, try literalEnd("true", at: position))
        case UInt8(ascii: "f"): return (.false, try literalEnd("false", at: position))
        case UInt8(ascii: "n"): return (.null, try literalEnd("null", at: position))
        default: throw unexpected(at: position, "a value")
        }
    }

    func literalEnd(_ literal: StaticString, at position: Int) throws(JSONError) -> Int {
        let length = literal.utf8CodeUnitCount
        let word = String(describing: literal)
        guard position + length <= bytes.count else {
            throw JSONError(.jsonTruncated, at: position, "the text ends inside '\(word)'")
        }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: length)
        for index in 0..<length where bytes[position + index] != expected[index] {
            throw JSONError(.jsonUnexpectedByte, at: position + index, "not the literal '\(word)'")
        }
        return position + length
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    func numberEnd(from start: Int) throws(JSONError) -> Int {
        var position = start
        func digits() -> Int {
            let first = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            return position - first
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else {
            throw JSONError(.jsonInvalidNumber, at: start, "a number needs digits after '-'")
        }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw JSONError(.jsonInvalidNumber, at: integerStart, "a number has a leading zero")
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else {
                throw JSONError(.jsonInvalidNumber, at: position, "a number needs digits after '.'")
            }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else {
                throw JSONError(.jsonInvalidNumber, at: position, "a number needs digits in its exponent")
            }
        }
        return position
    }

    /// The offset past the closing quote of the string whose opening quote is at `start`; checks escapes, control
    /// characters and UTF-8.
    func stringEnd(from start: Int) throws(JSONError) -> Int {
        var position = start + 1
        var asciiOnly = true
        while position < bytes.count {
            // Plain characters (nearly all of a token's) are passed over eight at a time.
            position = bytes.withUnsafeBufferPointer { ByteSearch.firstNotPlainInString($0, from: position) }
            guard position < bytes.count else { break }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                if !asciiOnly {
                    let check = bytes.withUnsafeBufferPointer { TextCheck.of($0, start + 1..<position) }
                    guard check.isValidUTF8 else {
                        throw JSONError(.jsonInvalidString, at: start, "the string is not valid UTF-8")
                    }
                }
                return position + 1
            case UInt8(ascii: "\\"):
                guard position + 1 < bytes.count else {
                    position = bytes.count
                    continue
                }
                let escaped = bytes[position + 1]
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 2
                case UInt8(ascii: "u"):
                    guard position + 6 <= bytes.count else {
                        position = bytes.count
                        continue
                    }
                    for index in position + 2..<position + 6 where ASN1Primitives.hexDigit(bytes[index]) == nil {
                        throw JSONError(.jsonInvalidString, at: position, "\\u needs four hexadecimal digits")
                    }
                    position += 6
                default:
                    throw JSONError(
                        .jsonInvalidString, at: position, "\\\(Self.describe(escaped)) is not a JSON escape")
                }
            case 0x00..<0x20:
                throw JSONError(
                    .jsonInvalidString, at: position,
                    "control character 0x\(ASN1Primitives.hex([byte])) inside a string (JSON needs \\u escapes)")
            default:
                if byte >= 0x80 { asciiOnly = false }
                position += 1
            }
        }
        throw JSONError(.jsonTruncated, at: start, "the string starting here has no closing quote")
    }

    /// The text of a checked string body (between its quotes) with escapes resolved; a lone surrogate becomes
    /// U+FFFD, as most readers do.
    static func unescape(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.lowerBound <= range.upperBound else {
            return ""
        }
        if !bytes[range].contains(UInt8(ascii: "\\")) { return String(decoding: bytes[range], as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush() {
            if !raw.isEmpty {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll(keepingCapacity: true)
            }
        }
        var position = range.lowerBound
        func unit(at index: Int) -> UInt32? {
            guard index + 6 <= range.upperBound, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            else { return nil }
            var value: UInt32 = 0
            for offset in 2..<6 {
                guard let digit = ASN1Primitives.hexDigit(bytes[index + offset]).map(UInt32.init) else { return nil }
                value = value << 4 | digit
            }
            return value
        }
        while position < range.upperBound {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\"), position + 1 < range.upperBound else {
                raw.append(byte)
                position += 1
                continue
            }
            flush()
            let escaped = bytes[position + 1]
            position += 2
            switch escaped {
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                guard let high = unit(at: position - 2) else {
                    scalars.append("\u{FFFD}")
                    continue
                }
                position += 4
                if (0xD800...0xDBFF).contains(high), let low = unit(at: position), (0xDC00...0xDFFF).contains(low) {
                    position += 6
                    let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    scalars.append(Unicode.Scalar(combined) ?? "\u{FFFD}")
                } else {
                    scalars.append(Unicode.Scalar(high) ?? "\u{FFFD}")
                }
            default: scalars.append(Unicode.Scalar(escaped))
            }
        }
        flush()
        return String(scalars)
    }
}
