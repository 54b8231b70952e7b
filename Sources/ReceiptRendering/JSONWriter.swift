/// A streaming JSON writer with a fixed key order (the order calls are made in), so output is stable and diffable.
/// Writes compact or two-space-indented JSON into a byte buffer.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    /// Per open container: whether it already holds an element.
    private var hasElement: [Bool] = []
    private var afterKey = false

    public init(pretty: Bool = true, reservingCapacity capacity: Int = 4096) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    // MARK: Containers

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        close(UInt8(ascii: "]"))
    }

    /// Writes a member name; the next value call writes its value.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    // MARK: Values

    public mutating func string(_ value: String) {
        separate()
        appendString(value)
    }

    public mutating func number(_ value: Int64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func number(_ value: Int) { number(Int64(value)) }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func number(_ value: Int64?) {
        if let value { number(value) } else { null() }
    }

    public mutating func number(_ value: Int?) {
        if let value { number(Int64(value)) } else { null() }
    }

    // MARK: Member shorthands

    public mutating func member(_ name: String, _ value: String?) {
        key(name)
        string(value)
    }

    public mutating func member(_ name: String, _ value: Int64?) {
        key(name)
        number(value)
    }

    public mutating func member(_ name: String, _ value: Int?) {
        key(name)
        number(value)
    }

    public mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    public mutating func member(_ name: String, strings: [String]) {
        key(name)
        array { writer in for value in strings { writer.string(value) } }
    }

    // MARK: Internals

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        hasElement.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        let hadElements = hasElement.popLast() ?? false
        if pretty && hadElements { newline() }
        bytes.append(bracket)
    }

    /// Writes the comma and indentation owed before a new element (nothing right after a key).
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = hasElement.indices.last else { return }
        if hasElement[last] { bytes.append(UInt8(ascii: ",")) }
        hasElement[last] = true
        if pretty { newline() }
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<hasElement.count {
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: " "))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(JSONWriter.hexDigits[Int(byte >> 4)])
                bytes.append(JSONWriter.hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
