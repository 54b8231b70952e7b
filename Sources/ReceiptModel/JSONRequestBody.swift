/// The members of interest of a JSON body (a verifyReceipt request or response, a notification), read with a
/// bounded, non-recursive scan of the whole JSON text: every member with one of the wanted names is found (names
/// compared after unescaping, as a JSON reader would), at the top level or nested, so a body that strict readers
/// would read differently is refused.
struct JSONRequestBody {
    /// The deepest nesting of objects and arrays scanned.
    static let maximumDepth = 512

    /// A `receipt-data` member: where it is, and its string value (unescaped) if the value is a string.
    struct Member {
        var offset: Int
        var value: [UInt8]?
    }

    /// Wanted members of the top-level object, by name, in order.
    private var topLevelMembers: [String: [Member]] = [:]
    /// The offset of the first wanted member inside a nested object, by name.
    private var nestedOffsets: [String: Int] = [:]

    /// The top-level members named `key`, in order.
    func topLevel(_ key: String) -> [Member] { topLevelMembers[key] ?? [] }

    /// Where the first member named `key` inside a nested object or array is, if there is one.
    func firstNested(_ key: String) -> Int? { nestedOffsets[key] }

    private enum Container { case object, array }

    /// Scans `input`; fails with an offset on malformed JSON or nesting past `maximumDepth`.
    static func scan(_ input: [UInt8], keys: Set<String>) -> Result<JSONRequestBody, InputError> {
        let wanted = Set(keys.map { Array($0.utf8) })
        var body = JSONRequestBody()
        var stack: [Container] = []
        var expectingKey = false
        var pendingKey: (offset: Int, name: String?)?
        var sawRoot = false
        var position = 0
        func failure(_ what: String) -> Result<JSONRequestBody, InputError> {
            .failure(InputError("json-malformed", "the JSON body is malformed at offset \(position): \(what)"))
        }
        while position < input.count {
            let byte = input[position]
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: ":"):
                if byte == UInt8(ascii: ","), stack.last == .object { expectingKey = true }
                position += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard stack.count < maximumDepth else { return failure("nested deeper than \(maximumDepth)") }
                if stack.isEmpty && sawRoot { return failure("a second value after the top-level one") }
                sawRoot = true
                pendingKey = nil
                stack.append(byte == UInt8(ascii: "{") ? .object : .array)
                expectingKey = byte == UInt8(ascii: "{")
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let open = stack.popLast(), (open == .object) == (byte == UInt8(ascii: "}")) else {
                    return failure("unbalanced \(Character(Unicode.Scalar(byte)))")
                }
                expectingKey = false
                pendingKey = nil
                position += 1
            case UInt8(ascii: "\""):
                let start = position
                guard let (text, end) = string(input, from: position) else { return failure("unterminated string") }
                position = end
                if expectingKey, stack.last == .object {
                    expectingKey = false
                    let name = wanted.contains(text) ? String(decoding: text, as: UTF8.self) : nil
                    pendingKey = (start, name)
                    if let name, stack.count > 1, body.nestedOffsets[name] == nil { body.nestedOffsets[name] = start }
                } else {
                    if stack.isEmpty { return failure("the body is a string, not an object") }
                    if let key = pendingKey, let name = key.name, stack.count == 1 {
                        body.topLevelMembers[name, default: []].append(Member(offset: key.offset, value: text))
                    }
                    pendingKey = nil
                }
            default:
                // A number, true, false or null: skip to the next structural byte.
                if stack.isEmpty { return failure("the body is not an object") }
                if let key = pendingKey, let name = key.name, stack.count == 1 {
                    body.topLevelMembers[name, default: []].append(Member(offset: key.offset, value: nil))
                }
                pendingKey = nil
                while position < input.count, !isStructural(input[position]) { position += 1 }
            }
        }
        guard sawRoot, stack.isEmpty else { return failure("the body ends inside an object or array") }
        return .success(body)
    }

    private static func isStructural(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":"), 0x20, 0x0A, 0x0D, 0x09:
            return true
        default:
            return false
        }
    }

    /// The unescaped UTF-8 of the string starting at `start` (a quote) and the offset after its closing quote.
    private static func string(_ input: [UInt8], from start: Int) -> ([UInt8], Int)? {
        var value: [UInt8] = []
        var position = start + 1
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") { return (value, position + 1) }
            guard byte == UInt8(ascii: "\\") else {
                value.append(byte)
                position += 1
                continue
            }
            guard position + 1 < input.count else { return nil }
            let escape = input[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "n"): value.append(0x0A)
            case UInt8(ascii: "r"): value.append(0x0D)
            case UInt8(ascii: "t"): value.append(0x09)
            case UInt8(ascii: "b"): value.append(0x08)
            case UInt8(ascii: "f"): value.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(input, at: position) else { return nil }
                position += 4
                if (0xD800..<0xDC00).contains(scalar), position + 6 <= input.count,
                   input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u"),
                   let low = hex4(input, at: position + 2), (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    position += 6
                }
                value += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default: value.append(escape)
            }
        }
        return nil
    }

    private static func hex4(_ input: [UInt8], at position: Int) -> UInt32? {
        guard position + 4 <= input.count else { return nil }
        var value: UInt32 = 0
        for byte in input[position..<position + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
