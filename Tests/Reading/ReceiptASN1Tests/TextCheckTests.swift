import ReceiptBuilding
import Testing

@testable import ReceiptASN1

/// TextCheck (eight bytes at a time while they are ASCII, then byte by byte) against the plain definitions: Swift's
/// own UTF-8 validation, every byte below 0x80, a zero byte present; on every length and alignment up to 40 bytes.
@Suite("Text checks agree with Swift's UTF-8 validation")
struct TextCheckTests {
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
