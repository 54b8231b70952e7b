/// What the bytes of a string value are, found in one pass without building a String: the payload's hot path
/// checks text in place and leaves it in the buffer until someone asks for a String.
public struct TextCheck: Sendable, Hashable {
    /// Well-formed UTF-8 (no overlong forms, surrogates, code points above U+10FFFF or cut sequences): exactly
    /// what `String(validating:as: UTF8.self)` accepts.
    @usableFromInline package var isValidUTF8: Bool
    /// Every byte below 0x80.
    public var isASCII: Bool
    /// A 0x00 byte is present (C-string validators see a shorter value).
    @usableFromInline package var containsNUL: Bool

    @inlinable
    public init(isValidUTF8: Bool, isASCII: Bool, containsNUL: Bool) {
        (self.isValidUTF8, self.isASCII, self.containsNUL) = (isValidUTF8, isASCII, containsNUL)
    }

    /// Checks `range` of `buffer` (empty when the range is outside it).
    @inlinable
    package static func of(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> TextCheck {
        guard range.lowerBound >= 0, range.upperBound <= buffer.count else {
            return TextCheck(isValidUTF8: true, isASCII: true, containsNUL: false)
        }
        var index = range.lowerBound
        let end = range.upperBound
        var containsNUL = false
        // ASCII run first: the common case for every receipt string. Eight bytes a test while they last (a word
        // with a byte of 0x80 or above leaves the rest to the byte loop, which finds it), then byte by byte.
        if let base = buffer.baseAddress {
            let raw = UnsafeRawPointer(base)
            while end &- index >= 8 {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                // A zero byte, exactly: no false positives once every byte is below 0x80.
                if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { containsNUL = true }
                index &+= 8
            }
        }
        while index < end {
            let byte = buffer[index]
            if byte >= 0x80 { break }
            if byte == 0 { containsNUL = true }
            index &+= 1
        }
        if index == end { return TextCheck(isValidUTF8: true, isASCII: true, containsNUL: containsNUL) }
        let valid = validateUTF8(buffer, from: index, to: end, containsNUL: &containsNUL)
        return TextCheck(isValidUTF8: valid, isASCII: false, containsNUL: containsNUL)
    }

    /// Validates `start..<end` (which starts at a non-ASCII byte), noting NULs on the way.
    @usableFromInline
    static func validateUTF8(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
        containsNUL: inout Bool
    ) -> Bool {
        var valid = true
        var index = start
        while index < end {
            let lead = buffer[index]
            if lead < 0x80 {
                if lead == 0 { containsNUL = true }
                index &+= 1
                continue
            }
            // The allowed range of the second byte, and how many continuation bytes follow the lead.
            let low: UInt8
            let high: UInt8
            let count: Int
            switch lead {
            case 0xC2...0xDF: (low, high, count) = (0x80, 0xBF, 1)
            case 0xE0: (low, high, count) = (0xA0, 0xBF, 2)
            case 0xE1...0xEC, 0xEE...0xEF: (low, high, count) = (0x80, 0xBF, 2)
            case 0xED: (low, high, count) = (0x80, 0x9F, 2)
            case 0xF0: (low, high, count) = (0x90, 0xBF, 3)
            case 0xF1...0xF3: (low, high, count) = (0x80, 0xBF, 3)
            case 0xF4: (low, high, count) = (0x80, 0x8F, 3)
            default:
                valid = false
                index &+= 1
                continue
            }
            guard end &- index > count, buffer[index &+ 1] >= low, buffer[index &+ 1] <= high else {
                valid = false
                index &+= 1
                continue
            }
            var continuation = 2
            while continuation <= count, buffer[index &+ continuation] & 0xC0 == 0x80 { continuation &+= 1 }
            guard continuation > count else {
                valid = false
                index &+= 1
                continue
            }
            index &+= count &+ 1
        }
        return valid
    }
}

extension TextCheck {
    /// Whether `needle` occurs in `bytes` (a plain scan: first byte, then the rest), without building a String.
    public static func contains<Bytes: Collection>(_ bytes: Bytes, _ needle: String) -> Bool
    where Bytes.Element == UInt8 {
        let pattern = Array(needle.utf8)
        if let found = bytes.withContiguousStorageIfAvailable({ contains($0, pattern) }) { return found }
        return Array(bytes).withUnsafeBufferPointer { contains($0, pattern) }
    }

    /// Whether `pattern` occurs in `buffer`: a plain loop over the buffer (a generic search over any collection
    /// took 5 µs at each occurrence of the pattern's first byte, seconds over a JSON array of a million strings).
    static func contains(_ buffer: UnsafeBufferPointer<UInt8>, _ pattern: [UInt8]) -> Bool {
        guard let first = pattern.first, pattern.count <= buffer.count else { return false }
        let last = buffer.count - pattern.count
        var start = 0
        while start <= last {
            if buffer[start] == first {
                var matched = 1
                while matched < pattern.count, buffer[start + matched] == pattern[matched] { matched += 1 }
                if matched == pattern.count { return true }
            }
            start += 1
        }
        return false
    }
}
