/// Where one byte value stands in a text, found eight bytes at a time: a word with none of it is passed over with
/// one comparison (what matters under a fuzzer's comparison tracing, which otherwise records one per byte), and a
/// word that may hold it is looked at byte by byte, so the answer is exact.
public enum ByteSearch {
    /// The indices of `text` (its own, not counted from zero) that hold `byte`, in order.
    public static func indices(of byte: UInt8, in text: ArraySlice<UInt8>) -> [Int] {
        text.withUnsafeBufferPointer { buffer in
            var found: [Int] = []
            let raw = UnsafeRawBufferPointer(buffer)
            let pattern = 0x0101_0101_0101_0101 &* UInt64(byte)
            var index = 0
            while index &+ 8 <= buffer.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
                // A byte of `word` is zero where the text holds `byte`: this is non-zero then (and, after such a
                // byte, may flag others that are not: each flagged word is checked byte by byte).
                if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 {
                    for offset in index..<index &+ 8 where buffer[offset] == byte {
                        found.append(text.startIndex &+ offset)
                    }
                }
                index &+= 8
            }
            while index < buffer.count {
                if buffer[index] == byte { found.append(text.startIndex &+ index) }
                index &+= 1
            }
            return found
        }
    }

    /// The first index of `text` from `start` whose byte a JSON string's reader must look at — `"`, `\`, a control
    /// character (below 0x20) or a byte above 0x7F — else `text.count`.
    package static func firstNotPlainInString(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let raw = UnsafeRawBufferPointer(text)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = max(start, 0)
        while index &+ 8 <= text.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // A byte's high bit set: a zero byte of `quote` or `backslash`, a byte below 0x20 (`word - 0x20` borrows),
            // or a byte above 0x7F. A flagged word is looked at byte by byte.
            let flagged =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                | word
            if flagged & highs != 0 { break }
            index &+= 8
        }
        while index < text.count {
            let byte = text[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte > 0x7F { return index }
            index &+= 1
        }
        return index
    }
}
