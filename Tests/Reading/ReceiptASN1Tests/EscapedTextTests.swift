import ReceiptASN1
import Testing

/// The one escape walk: other bytes copied, each marker read by the caller (decoded, kept, or the whole text
/// refused), slices that do not start at zero, a marker at the very end, hexadecimal digits of either case.
@Suite("Escaped text")
struct EscapedTextTests {
    static func percent(_ text: String) -> String? {
        let bytes = Array(text.utf8)[...]
        return EscapedText.decode(bytes, marker: UInt8(ascii: "%")) { index in
            guard let byte = EscapedText.hexByte(bytes, at: index + 1) else { return .literal }
            return .decoded([byte], length: 3)
        }.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func decodesKeepsAndRefusesAsTheStepSays() {
        #expect(Self.percent("a%2Bb%2fc") == "a+b/c")
        #expect(Self.percent("100%") == "100%")
        #expect(Self.percent("%%41") == "%A")
        #expect(Self.percent("%4") == "%4")
        #expect(Self.percent("") == "")
        let refused = EscapedText.decode(Array("ab\\".utf8)[...], marker: UInt8(ascii: "\\")) { _ in .invalid }
        #expect(refused == nil)
        let dropped = EscapedText.decode(Array("a=\nb".utf8)[...], marker: UInt8(ascii: "=")) { _ in
            .decoded([], length: 2)
        }
        #expect(dropped == Array("ab".utf8))
    }

    @Test func readsASliceWhereItStands() {
        let bytes = Array("xx%41%zz".utf8)
        let slice = bytes[2...]
        let out = EscapedText.decode(slice, marker: UInt8(ascii: "%")) { index in
            guard let byte = EscapedText.hexByte(slice, at: index + 1) else { return .literal }
            return .decoded([byte], length: 3)
        }
        #expect(out == Array("A%zz".utf8))
        #expect(EscapedText.hexByte(slice, at: 7) == nil)
        #expect(EscapedText.hexByte(slice, at: 1) == nil)
        #expect(EscapedText.hexByte(slice, at: 3) == 0x41)
    }
}
