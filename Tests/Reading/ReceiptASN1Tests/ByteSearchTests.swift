import ReceiptASN1
import Testing

/// The eight-at-a-time search finds exactly what a byte-by-byte one finds: every position, runs of the byte, the
/// bytes on either side of it (a borrow in the word trick), slices that do not start at zero, every length.
@Suite("Byte search")
struct ByteSearchTests {
    static func naive(_ byte: UInt8, _ text: ArraySlice<UInt8>) -> [Int] { text.indices.filter { text[$0] == byte } }

    @Test func findsWhatAByteByByteSearchFinds() {
        var state: UInt64 = 3
        for count in 0..<70 {
            for trial in 0..<20 {
                var text = (0..<count).map { _ -> UInt8 in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    // Mostly the byte's neighbours (0x2D, 0x2E, 0x2F) and zero, so borrows happen often.
                    return [0x2E, 0x2D, 0x2F, 0x00, 0xFF, 0x2E][Int(state >> 61) % 6]
                }
                if trial == 0 { text = [UInt8](repeating: 0x2E, count: count) }
                for start in [0, min(3, count)] {
                    let slice = text[start...]
                    #expect(ByteSearch.indices(of: 0x2E, in: slice) == Self.naive(0x2E, slice), "\(count) \(trial)")
                    #expect(ByteSearch.indices(of: 0x00, in: slice) == Self.naive(0x00, slice), "\(count) \(trial)")
                }
            }
        }
    }
}
