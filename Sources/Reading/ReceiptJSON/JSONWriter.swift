import ReceiptASN1

/// A streaming JSON writer with a fixed key order (the order calls are made in), so output is stable and diffable.
/// Writes compact or two-space-indented JSON into a byte buffer, handing full chunks to a sink when it has one,
/// so a document larger than memory allows can still be written.
public struct JSONWriter: ~Copyable {
    /// The output not yet handed to the sink: raw storage, written without per-byte bookkeeping.
    var storage: UnsafeMutablePointer<UInt8>
    var count = 0
    var capacity: Int
    let pretty: Bool
    /// How many containers are open, and per open container whether it already holds an element: one bit per
    /// level for the first 64 levels, an array beyond.
    var depth = 0
    var hasElementBits: UInt64 = 0
    var hasElementDeeper: [Bool] = []
    var afterKey = false
    let sink: ((UnsafeBufferPointer<UInt8>) -> Void)?

    /// A writer that keeps the whole document (read it with `bytes`).
    package init(pretty: Bool = true, reservingCapacity capacity: Int = 4096) {
        self.pretty = pretty
        self.sink = nil
        self.capacity = Swift.max(capacity, 64)
        self.storage = .allocate(capacity: self.capacity)
    }

    /// A writer that lends `sink` each chunk (valid only during the call) whenever about `chunkSize` bytes are pending; call `flush()` at the end.
    package init(pretty: Bool = true, chunkSize: Int = 1 << 20, sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.pretty = pretty
        self.sink = sink
        self.capacity = Swift.max(chunkSize, 64)
        self.storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// What has been written and not yet handed to the sink.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// A newline-terminated JSON document that `body` writes, held whole.
    /// `text` as a JSON string literal, quotes included, escaped as this writer escapes every string.
    package static func literal(_ text: String) -> String {
        var json = JSONWriter(pretty: false)
        json.string(text)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    package static func document(
        pretty: Bool, reservingCapacity capacity: Int = 4096,
        _ body: (inout JSONWriter) -> Void
    ) -> [UInt8] {
        var json = JSONWriter(pretty: pretty, reservingCapacity: capacity)
        body(&json)
        json.append(0x0A)
        return json.bytes
    }

    /// A newline-terminated JSON document that `body` writes, handed to `sink` in chunks, never held whole.
    package static func streamDocument(
        pretty: Bool, to sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void,
        _ body: (inout JSONWriter) -> Void
    ) {
        var json = JSONWriter(pretty: pretty, sink: sink)
        body(&json)
        json.append(0x0A)
        json.flush()
    }

    /// Hands everything pending to the sink (no-op without one).
    package mutating func flush() {
        guard let sink, count > 0 else { return }
        sink(UnsafeBufferPointer(start: storage, count: count))
        count = 0
    }

    // MARK: Raw output

    /// Makes room for `needed` more bytes: flushes to the sink when there is one, grows the storage otherwise (or
    /// when one write is larger than a chunk).
    @inline(__always)
    mutating func reserve(_ needed: Int) {
        if capacity &- count < needed { makeRoom(needed) }
    }

    mutating func makeRoom(_ needed: Int) {
        if sink != nil { flush() }
        guard capacity - count < needed else { return }
        let grown = Swift.max(capacity * 2, count + needed)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.initialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity = grown
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ first: UInt8, _ second: UInt8) {
        reserve(2)
        storage[count] = first
        storage[count + 1] = second
        count += 2
    }

    mutating func append(_ raw: UnsafeBufferPointer<UInt8>) {
        guard let base = raw.baseAddress, !raw.isEmpty else { return }
        reserve(raw.count)
        (storage + count).update(from: base, count: raw.count)
        count += raw.count
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    // MARK: Internals

    mutating func open(_ bracket: UInt8) {
        separate()
        append(bracket)
        if depth < 64 {
            hasElementBits &= ~(UInt64(1) << UInt64(depth))
        } else {
            hasElementDeeper.append(false)
        }
        depth += 1
    }

    mutating func close(_ bracket: UInt8) {
        guard depth > 0 else { return append(bracket) }
        depth -= 1
        let hadElements =
            depth < 64
            ? hasElementBits & (UInt64(1) << UInt64(depth)) != 0
            : hasElementDeeper.popLast() ?? false
        if pretty && hadElements { newline() }
        append(bracket)
    }

    /// Writes the comma and indentation owed before a new element (nothing right after a key), in one reservation.
    @inline(__always)
    mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        let level = depth - 1
        let hadElement: Bool
        if level < 64 {
            let bit = UInt64(1) << UInt64(level)
            hadElement = hasElementBits & bit != 0
            hasElementBits |= bit
        } else {
            hadElement = hasElementDeeper[level - 64]
            hasElementDeeper[level - 64] = true
        }
        if pretty {
            lineBreak(comma: hadElement)
        } else if hadElement {
            append(UInt8(ascii: ","))
        }
    }

    /// A line break and two spaces per open container.
    mutating func newline() { lineBreak(comma: false) }

    /// An optional comma, a line break and two spaces per open container, the spaces eight at a time: the first 16
    /// always (two stores, however few are kept), the rest in a loop. (Wrapping arithmetic: the width is at most 256
    /// and the count within the storage.)
    @inline(__always)
    mutating func lineBreak(comma: Bool) {
        let width = Swift.min(depth &* 2, 256)
        reserve(Swift.max(width, 16) &+ 10)
        var out = storage + count
        if comma {
            out[0] = UInt8(ascii: ",")
            out += 1
        }
        out[0] = 0x0A
        let spaces = UnsafeMutableRawPointer(out + 1)
        let eight: UInt64 = 0x2020_2020_2020_2020
        spaces.storeBytes(of: eight, as: UInt64.self)
        spaces.storeBytes(of: eight, toByteOffset: 8, as: UInt64.self)
        if width > 16 { Self.fillSpaces(spaces + 16, width &- 16) }
        count &+= width &+ (comma ? 2 : 1)
    }

    /// Deep indentation, eight spaces a store (kept out of line: the loop would otherwise become a call to memset
    /// on every line).
    @inline(never)
    static func fillSpaces(_ spaces: UnsafeMutableRawPointer, _ width: Int) {
        var written = 0
        while written < width {
            spaces.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: written, as: UInt64.self)
            written &+= 8
        }
    }

    mutating func appendDecimal(_ value: Int64) {
        reserve(21)
        if value < 0 {
            storage[count] = UInt8(ascii: "-")
            count += 1
        }
        count += ASN1Primitives.writeDecimal(value.magnitude, to: storage + count)
    }

    static let hexDigits: StaticString = "0123456789abcdef"

    mutating func appendString(_ value: String) {
        var value = value
        value.withUTF8 { appendUTF8($0) }
    }

    /// Appends `utf8` as a JSON string: copied in the same loop that looks for bytes to escape, and written again
    /// with escapes only when one turns up.
    mutating func appendUTF8(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(utf8.count + 2)
        var position = count
        storage[position] = UInt8(ascii: "\"")
        position += 1
        guard let base = utf8.baseAddress else {
            storage[position] = UInt8(ascii: "\"")
            count = position + 1
            return
        }
        // Eight bytes at a time: one test says whether any of them needs escaping, one store copies them.
        let source = UnsafeRawPointer(base)
        let out = UnsafeMutableRawPointer(storage)
        var index = 0
        while utf8.count &- index >= 8 {
            let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if Self.needsEscape(word) { return appendEscaped(utf8) }
            out.storeBytes(of: word, toByteOffset: position, as: UInt64.self)
            index &+= 8
            position &+= 8
        }
        while index < utf8.count {
            let byte = base[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return appendEscaped(utf8) }
            storage[position] = byte
            index &+= 1
            position &+= 1
        }
        storage[position] = UInt8(ascii: "\"")
        count = position + 1
    }

    /// Whether any of the eight bytes of `word` is one JSON escapes here: below 0x20, a quote, a backslash or DEL. Exact
    /// (the borrow tricks below can only err above a byte that truly matches, which already answers yes).
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        return control || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
            || hasZeroByte(word ^ (ones &* 0x7F))
    }

    /// Appends the concatenation of two UTF-8 buffers as one JSON string.
    mutating func appendUTF8(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) {
        let clean = { (utf8: UnsafeBufferPointer<UInt8>) in
            !utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }
        }
        guard clean(first), clean(second) else {
            var joined = [UInt8](first)
            joined.append(contentsOf: second)
            return joined.withUnsafeBufferPointer { appendUTF8($0) }
        }
        append(UInt8(ascii: "\""))
        append(first)
        append(second)
        append(UInt8(ascii: "\""))
    }

    mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): append(0x5C, 0x22)
            case UInt8(ascii: "\\"): append(0x5C, 0x5C)
            case 0x0A: append(0x5C, UInt8(ascii: "n"))
            case 0x0D: append(0x5C, UInt8(ascii: "r"))
            case 0x09: append(0x5C, UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                append("\\u00")
                JSONWriter.hexDigits.withUTF8Buffer { digits in
                    append(digits[Int(byte >> 4)], digits[Int(byte & 0x0F)])
                }
            default: append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }
}
