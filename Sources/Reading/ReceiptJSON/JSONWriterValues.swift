import ReceiptASN1

/// The values and member shorthands of `JSONWriter`: strings escaped, numbers, hex and base64 written straight into
/// the output buffer.
extension JSONWriter {
    // MARK: Values

    package mutating func string(_ value: String) {
        separate()
        appendString(value)
    }

    package mutating func number(_ value: Int64) {
        separate()
        appendDecimal(value)
    }

    /// Writes a string from the source (a static name).
    package mutating func string(_ value: StaticString) {
        separate()
        value.withUTF8Buffer { appendUTF8($0) }
    }

    /// Writes text already known to be valid UTF-8 (a checked receipt string, still in its buffer) as a string.
    package mutating func string(utf8 text: UnsafeBufferPointer<UInt8>) {
        separate()
        appendUTF8(text)
    }

    /// Writes `raw` as a string of lowercase hex digits, straight into the buffer.
    /// A string of UTF-8 bytes (a slice of the payload), escaped as needed.
    package mutating func string(utf8 text: ArraySlice<UInt8>) {
        text.withUnsafeBufferPointer { string(utf8: $0) }
    }

    package mutating func hexString(_ raw: ArraySlice<UInt8>) {
        raw.withUnsafeBufferPointer { hexString($0) }
    }

    /// Writes `raw` as a string of lowercase hex digits, straight into the buffer.
    package mutating func hexString(_ raw: UnsafeBufferPointer<UInt8>) {
        separate()
        reserve(raw.count * 2 + 2)
        storage[count] = UInt8(ascii: "\"")
        var position = count + 1
        // Each byte's two digits are one 16-bit load from the table of pairs and one store.
        let pairs = UnsafeRawPointer(Self.hexPairs.utf8Start)
        let out = UnsafeMutableRawPointer(storage)
        for byte in raw {
            let digits = pairs.loadUnaligned(fromByteOffset: Int(byte) &* 2, as: UInt16.self)
            out.storeBytes(of: digits, toByteOffset: position, as: UInt16.self)
            position &+= 2
        }
        storage[position] = UInt8(ascii: "\"")
        count = position + 1
    }

    /// "00" "01" … "ff": the two hex digits of every byte, in byte order.
    static let hexPairs: StaticString = """
        000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f\
        303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
        606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f\
        909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef\
        f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
        """

    package mutating func number(_ value: Int) { number(Int64(value)) }

    /// Writes `raw` as a string of standard base64 with its padding, encoded a piece at a time (pieces of a multiple
    /// of three bytes join into the one encoding), so a large buffer never becomes one large String.
    package mutating func base64String(_ raw: ArraySlice<UInt8>) {
        separate()
        append(UInt8(ascii: "\""))
        var start = raw.startIndex
        while start < raw.endIndex {
            let end = raw.index(start, offsetBy: 49_152, limitedBy: raw.endIndex) ?? raw.endIndex
            var piece = Base64Codec.encode(raw[start..<end], alphabet: .standard, padded: true)
            piece.withUTF8 { append($0) }
            start = end
        }
        append(UInt8(ascii: "\""))
    }

    /// Writes a number as a string (`"1580444481000"`), as Apple's verifyReceipt writes its `*_ms` fields.
    package mutating func quotedNumber(_ value: Int64) {
        separate()
        append(UInt8(ascii: "\""))
        appendDecimal(value)
        append(UInt8(ascii: "\""))
    }

    /// Writes a number exactly as a JSON reader found it (`1697679936056.485`, `12345678901234567890123`): the text
    /// must be a JSON number, as `JSONDocument` checks every number it reads.
    package mutating func number(text: String) {
        separate()
        var text = text
        text.withUTF8 { append($0) }
    }

    package mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
    }

    package mutating func null() {
        separate()
        append("null")
    }

    package mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    package mutating func number(_ value: Int64?) {
        if let value { number(value) } else { null() }
    }

    package mutating func number(_ value: Int?) {
        if let value { number(Int64(value)) } else { null() }
    }

    // MARK: Member shorthands

    package mutating func member(_ name: StaticString, _ value: String?) {
        key(name)
        string(value)
    }

    package mutating func member(_ name: StaticString, _ value: Int64?) {
        key(name)
        number(value)
    }

    package mutating func member(_ name: StaticString, _ value: Int?) {
        key(name)
        number(value)
    }

    package mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    package mutating func member(_ name: StaticString, strings: [String]) {
        key(name)
        array { writer in for value in strings { writer.string(value) } }
    }
}
