import Foundation
import ReceiptASN1
import Testing

/// The base64 reader against Foundation's on every length and byte, and the offsets it reports for a character of
/// the other alphabet, padding, white space or a stray byte at every position (its four-at-a-time path and its
/// character-by-character path must tell the same story).
@Suite("Base64 reading")
struct Base64CodecTests {
    /// Deterministic bytes: a linear congruential sequence.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test func everyLengthDecodesAsFoundationDoes() throws {
        for count in 0..<300 {
            let original = Self.bytes(count, seed: UInt64(count))
            let text = Array(Data(original).base64EncodedString().utf8)
            let decoded = try Base64Codec.decode(text, skippingWhitespace: false).get()
            #expect(decoded.bytes == original, "length \(count)")
            #expect(decoded.urlOffset == nil && !decoded.nonZeroTrailingBits)
            #expect(decoded.paddingCount == (3 - count % 3) % 3)
        }
    }

    @Test func everyLengthEncodesAsFoundationDoes() {
        for count in 0..<300 {
            let original = Self.bytes(count, seed: UInt64(count) &+ 77)
            let standard = Data(original).base64EncodedString()
            #expect(Base64Codec.encode(original, alphabet: .standard, padded: true) == standard, "length \(count)")
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let unpadded = String(url.prefix { $0 != "=" })
            #expect(Base64Codec.encode(original, alphabet: .url, padded: false) == unpadded, "length \(count)")
            // A slice that does not start at 0, and a collection that is not contiguous, encode alike.
            let padded = [UInt8](repeating: 0xAA, count: 3) + original
            #expect(Base64Codec.encode(padded[3...], alphabet: .standard, padded: true) == standard)
            #expect(Base64Codec.encode(original.lazy.map { $0 }, alphabet: .standard, padded: true) == standard)
        }
    }

    @Test func aSpecialCharacterIsFoundWhereverItStands() throws {
        // 80 characters, no padding, letters and digits only.
        let text = Array(Data(Self.bytes(60, seed: 9)).base64EncodedString().utf8).map {
            $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") ? UInt8(ascii: "g") : $0
        }
        #expect(text.count == 80)
        for position in 0..<text.count {
            for special in "-_+/".utf8 {
                var edited = text
                edited[position] = special
                let decoded = try Base64Codec.decode(edited, skippingWhitespace: false).get()
                let isURL = special == UInt8(ascii: "-") || special == UInt8(ascii: "_")
                #expect(decoded.urlOffset == (isURL ? position : nil), "\(special) at \(position)")
                #expect(decoded.standardOffset == (isURL ? nil : position), "\(special) at \(position)")
                let standard = edited.map {
                    $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0
                }
                #expect(
                    decoded.bytes == Array(Data(base64Encoded: Data(standard)) ?? Data()), "\(special) at \(position)")
                // Both alphabets in one text: each first place is told.
                var mixed = edited
                let other = (position + 5) % text.count
                mixed[other] = isURL ? UInt8(ascii: "/") : UInt8(ascii: "_")
                let both = try Base64Codec.decode(mixed, skippingWhitespace: false).get()
                #expect(
                    both.urlOffset == (isURL ? position : other) && both.standardOffset == (isURL ? other : position))
            }
            var stray = text
            stray[position] = UInt8(ascii: "*")
            guard
                case .failure(.invalidCharacter(let offset, let byte)) = Base64Codec.decode(
                    stray, skippingWhitespace: false)
            else {
                Issue.record("a stray byte at \(position) was read")
                continue
            }
            #expect(offset == position && byte == UInt8(ascii: "*"))
            var spaced = text
            spaced.insert(UInt8(ascii: "\n"), at: position)
            #expect(
                try Base64Codec.decode(spaced, skippingWhitespace: true).get().bytes
                    == Base64Codec.decode(text, skippingWhitespace: false).get().bytes)
            if case .success = Base64Codec.decode(spaced, skippingWhitespace: false) {
                Issue.record("a line break at \(position) was read without skipping white space")
            }
            var padded = text
            padded.insert(UInt8(ascii: "="), at: position)
            if position % 4 == 0 || position % 4 == 1 {
                // Padding before the last quantum ends: the characters after it are refused, where they stand.
                guard case .failure(let failure) = Base64Codec.decode(padded, skippingWhitespace: false) else {
                    Issue.record("padding at \(position) was read")
                    continue
                }
                #expect(failure == .dataAfterPadding(offset: position + 1), "\(failure)")
            }
        }
    }
}
