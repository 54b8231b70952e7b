import ReceiptBuilding
import Testing

@testable import ReceiptASN1

/// TextCheck (eight bytes at a time while they are ASCII, then byte by byte) against the plain definitions: Swift's
/// own UTF-8 validation, every byte below 0x80, a zero byte present; on every length and alignment up to 40 bytes.
@Suite("Text checks agree with Swift's UTF-8 validation")
struct TextCheckTests {
    /// `contains` finds a pattern exactly where a plain search does: at the start, at the end, overlapping its own
    /// first bytes, longer than the text, in slices and in arrays.
    @Test func containsAgreesWithAPlainSearch() {
        func plain(_ text: [UInt8], _ needle: [UInt8]) -> Bool {
            !needle.isEmpty && needle.count <= text.count
                && (0...(text.count - needle.count)).contains { Array(text[$0..<($0 + needle.count)]) == needle }
        }
        var random = SplitMix64(seed: 0xC0DE)
        let alphabet = Array("ab\"".utf8)
        for _ in 0..<5_000 {
            let text = (0..<Int(random.next() % 24)).map { _ in alphabet[Int(random.next() % 3)] }
            let needle = (0..<Int(1 + random.next() % 4)).map { _ in alphabet[Int(random.next() % 3)] }
            let pattern = String(decoding: needle, as: UTF8.self)
            #expect(TextCheck.contains(text, pattern) == plain(text, needle), "\(text) \(pattern)")
            #expect(
                TextCheck.contains(text.dropFirst(), pattern) == plain(Array(text.dropFirst()), needle),
                "\(text) \(pattern)")
        }
        #expect(!TextCheck.contains([UInt8](), "a"))
        #expect(!TextCheck.contains(Array("abc".utf8), ""))
    }

    @Test func agreesWithThePlainDefinitionsOnRandomText() {
        var random = SplitMix64(seed: 0x7E47)
        // Bytes drawn mostly from ASCII, with NULs, continuation bytes, lead bytes and valid sequences mixed in.
        let pieces: [[UInt8]] = [
            [0x41], [0x7A], [0x20], [0x00], [0x7F], [0x80], [0xBF], [0xC3, 0xA9], [0xE2, 0x82, 0xAC],
            [0xF0, 0x9F, 0x98, 0x80], [0xC0], [0xED, 0xA0, 0x80], [0xFF], [0xF4, 0x90, 0x80, 0x80],
        ]
        for trial in 0..<20_000 {
            var bytes: [UInt8] = []
            let ascii = trial % 3 == 0
            while bytes.count < Int(random.next() % 41) {
                let piece = pieces[Int(random.next() % UInt64(ascii ? 5 : pieces.count))]
                bytes += piece
            }
            let padding = Int(random.next() % 9)
            let buffer = [UInt8](repeating: 0x80, count: padding) + bytes + [0x80, 0x00]
            let check = buffer.withUnsafeBufferPointer { TextCheck.of($0, padding..<(padding + bytes.count)) }
            #expect(check.isValidUTF8 == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
            #expect(check.isASCII == bytes.allSatisfy { $0 < 0x80 }, "\(bytes)")
            #expect(check.containsNUL == bytes.contains(0), "\(bytes)")
        }
    }

    @Test func findsANulOrAHighByteAtEveryPosition() {
        for length in 1...24 {
            for position in 0..<length {
                var bytes = [UInt8](repeating: 0x61, count: length)
                bytes[position] = 0x00
                let nul = bytes.withUnsafeBufferPointer { TextCheck.of($0, 0..<length) }
                #expect(nul.containsNUL && nul.isASCII && nul.isValidUTF8, "NUL at \(position) of \(length)")
                bytes[position] = 0x80
                let high = bytes.withUnsafeBufferPointer { TextCheck.of($0, 0..<length) }
                #expect(!high.isASCII && !high.isValidUTF8 && !high.containsNUL, "0x80 at \(position) of \(length)")
            }
        }
    }
}
