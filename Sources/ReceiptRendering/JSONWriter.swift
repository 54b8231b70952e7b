/// A streaming JSON writer with a fixed key order (the order calls are made in), so output is stable and diffable.
/// Writes compact or two-space-indented JSON into a byte buffer, handing full chunks to a sink when it has one,
/// so a document larger than memory allows can still be written.
public struct JSONWriter {
    /// What has been written and not yet handed to the sink.
    public private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    /// Per open container: whether it already holds an element.
    private var hasElement: [Bool] = []
    private var afterKey = false
    private let sink: (([UInt8]) -> Void)?
    private let chunkSize: Int

    /// A writer that keeps the whole document in `bytes`.
    public init(pretty: Bool = true, reservingCapacity capacity: Int = 4096) {
        self.pretty = pretty
        self.sink = nil
        self.chunkSize = Int.max
        bytes.reserveCapacity(capacity)
    }

    /// A writer that hands `sink` a chunk whenever `chunkSize` bytes are pending; call `flush()` at the end.
    public init(pretty: Bool = true, chunkSize: Int = 1 << 20, sink: @escaping ([UInt8]) -> Void) {
        self.pretty = pretty
        self.sink = sink
        self.chunkSize = chunkSize
        bytes.reserveCapacity(chunkSize + 4096)
    }

    /// A newline-terminated JSON document that `body` writes, held whole.
    public static func document(pretty: Bool, reservingCapacity capacity: Int = 4096,
                                _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var json = JSONWriter(pretty: pretty, reservingCapacity: capacity)
        body(&json)
        return json.bytes + [0x0A]
    }

    /// A newline-terminated JSON document that `body` writes, handed to `sink` in chunks, never held whole.
    public static func streamDocument(pretty: Bool, to sink: @escaping ([UInt8]) -> Void,
                                      _ body: (inout JSONWriter) -> Void) {
        var json = JSONWriter(pretty: pretty, sink: sink)
        body(&json)
        json.flush()
        sink([0x0A])
    }

    /// Hands everything pending to the sink (no-op without one).
    public mutating func flush() {
        guard let sink, !bytes.isEmpty else { return }
        sink(bytes)
        bytes.removeAll(keepingCapacity: true)
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
        appendDecimal(value)
    }

    /// Writes `raw` as a string of lowercase hex digits, straight into the buffer.
    public mutating func hexString(_ raw: ArraySlice<UInt8>) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in raw {
            bytes.append(JSONWriter.hexDigits[Int(byte >> 4)])
            bytes.append(JSONWriter.hexDigits[Int(byte & 0x0F)])
        }
        bytes.append(UInt8(ascii: "\""))
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
        if bytes.count >= chunkSize { flush() }
        if afterKey {
            afterKey = false
            return
        }
        guard let last = hasElement.indices.last else { return }
        if hasElement[last] { bytes.append(UInt8(ascii: ",")) }
        hasElement[last] = true
        if pretty { newline() }
    }

    private static let indentation: [UInt8] = [UInt8(ascii: "\n")] + [UInt8](repeating: UInt8(ascii: " "), count: 256)

    private mutating func newline() {
        let width = Swift.min(2 * hasElement.count, 256)
        bytes.append(contentsOf: JSONWriter.indentation[0...width])
    }

    private mutating func appendDecimal(_ value: Int64) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch: enough for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            while magnitude > 0 {
                scratch[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(scratch[index]) }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Fast path: native strings are contiguous UTF-8; copy them whole when nothing needs escaping.
        let copiedWhole: Bool? = value.utf8.withContiguousStorageIfAvailable { utf8 in
            for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copiedWhole == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
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
