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

    /// The first byte a JSON string's reader must look at, found eight at a time, is the one a byte-by-byte scan
    /// finds: with quotes, backslashes, control characters, bytes above 0x7F and their neighbours (0x21, 0x23, 0x5B,
    /// 0x5D, 0x1F/0x20, 0x7F/0x80) at every place, from every start.
    @Test func findsTheFirstByteAStringReaderMustLookAt() {
        func naive(_ text: [UInt8], _ start: Int) -> Int {
            text.indices.first {
                $0 >= start && (text[$0] == 0x22 || text[$0] == 0x5C || text[$0] < 0x20 || text[$0] > 0x7F)
            }
                ?? text.count
        }
        let plain: [UInt8] = [0x21, 0x23, 0x5B, 0x5D, 0x20, 0x7F, 0x41]
        let special: [UInt8] = [0x22, 0x5C, 0x1F, 0x00, 0x80, 0xFF]
        for count in 0..<40 {
            for place in 0...count {
                for byte in special {
                    var text = (0..<count).map { plain[$0 % plain.count] }
                    if place < count { text[place] = byte }
                    for start in [0, 1, 5, 9] where start <= count {
                        let found = text.withUnsafeBufferPointer { ByteSearch.firstNotPlainInString($0, from: start) }
                        #expect(found == naive(text, start), "\(count) bytes, 0x\(byte) at \(place), from \(start)")
                    }
                }
            }
        }
    }
}
