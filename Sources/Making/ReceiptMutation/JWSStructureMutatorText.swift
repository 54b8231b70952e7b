import ReceiptASN1

/// How the structure-aware JWS mutator writes what it draws as JSON text.
extension JWSStructureMutator {
    /// The digits of a number hidden in `bytes`: its number characters, or a 4- or 8-byte binary word read as a
    /// little-endian integer.
    static func numberText(_ bytes: [UInt8]) -> [UInt8] {
        let characters = bytes.filter { (0x30...0x39).contains($0) || Array("-+.eE".utf8).contains($0) }
        if !characters.isEmpty, characters.count * 2 >= bytes.count { return characters }
        guard bytes.count == 4 || bytes.count == 8 else { return characters }
        let value = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Array(
            (bytes.count == 4 ? String(Int32(truncatingIfNeeded: value)) : String(Int64(bitPattern: value))).utf8)
    }

    /// `bytes` as a JSON string (`escaped`, in quotes).
    static func quoted(_ bytes: [UInt8]) -> [UInt8] { [UInt8(ascii: "\"")] + escaped(bytes) + [UInt8(ascii: "\"")] }

    /// `bytes` as the inside of a JSON string: an escape the bytes already hold is kept; any other backslash, a quote
    /// and a control character are escaped, so the string still ends where it did.
    static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        let escapes = Array(#""\/bfnrt"#.utf8)
        func isUnicodeEscape(at index: Int) -> Bool {
            index + 6 <= bytes.count && bytes[index + 1] == UInt8(ascii: "u")
                && bytes[index + 2..<index + 6].allSatisfy { ASN1Primitives.hexDigit($0) != nil }
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), isUnicodeEscape(at: index) {
                output += bytes[index..<index + 6]
                index += 6
                continue
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, escapes.contains(bytes[index + 1]) {
                output += [byte, bytes[index + 1]]
                index += 2
                continue
            }
            if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") {
                output += [UInt8(ascii: "\\"), byte]
            } else if byte < 0x20 {
                output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }
}
