import ReceiptASN1
import ReceiptBuilding
import Testing

@testable import ReceiptJSON

/// The writer's word-at-a-time paths (decimal digits in pairs, hex digits from a table, strings copied eight bytes
/// at a time) against plain per-byte reference implementations, at every length and alignment that matters.
@Suite("JSON writer output, byte for byte")
struct JSONWriterTests {
    /// The reference: JSON string escaping one byte at a time, as the writer escapes.
    static func referenceString(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = [0x22]
        for byte in bytes {
            switch byte {
            case 0x22: out += Array("\\\"".utf8)
            case 0x5C: out += Array("\\\\".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0..<0x20, 0x7F:
                let hex = String(byte, radix: 16)
                out += Array(("\\u00" + (hex.count == 1 ? "0" + hex : hex)).utf8)
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    static func written(_ body: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter(pretty: false)
        body(&json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    @Test func decimalsMatchSwiftsOwnAtEveryPowerOfTen() {
        var values: [UInt64] = [0, 1, 9, UInt64.max, UInt64.max - 1, UInt64(Int64.max), UInt64(Int64.max) + 1]
        var power: UInt64 = 1
        for _ in 0..<20 {
            values += [power &- 1, power, power &+ 1]
            if power <= UInt64.max / 10 { power *= 10 } else { break }
        }
        for bits in 0..<64 { values += [UInt64(1) << bits, (UInt64(1) << bits) - 1] }
        var random = SplitMix64(seed: 10)
        for _ in 0..<20_000 { values.append(random.next() >> (random.next() % 64)) }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        defer { buffer.deallocate() }
        for value in values {
            for minimum in [1, 2, 4, 7, 13, 20, 24] {
                buffer.initialize(repeating: 0xEE, count: 64)
                let count = ASN1Primitives.writeDecimal(value, minimumDigits: minimum, to: buffer + 8)
                let digits = String(value)
                let expected = String(repeating: "0", count: max(0, minimum - digits.count)) + digits
                #expect(
                    String(decoding: UnsafeBufferPointer(start: buffer + 8, count: count), as: UTF8.self)
                        == expected, "\(value), at least \(minimum) digits")
                // Nothing written outside the digits.
                #expect(
                    (0..<8).allSatisfy { buffer[$0] == 0xEE } && (8 + count..<64).allSatisfy { buffer[$0] == 0xEE },
                    "\(value) wrote outside its digits")
            }
        }
        for value: Int64 in [0, -1, 7, -7, Int64.min, Int64.max, -1_000_000_000_000] {
            #expect(Self.written { $0.number(value) } == String(value))
        }
    }

    @Test func hexStringsWriteEveryByteValue() {
        let every = (0...255).map { UInt8($0) }
        for count in [0, 1, 2, 7, 8, 9, 255, 256] {
            let bytes = Array(every.prefix(count))
            let expected = "\"" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
            #expect(Self.written { $0.hexString(bytes[...]) } == expected)
        }
    }

    @Test func stringsEscapeEveryByteThatNeedsItAtEveryPosition() {
        let special: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x22, 0x5C, 0x7F]
        let harmless: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x41, 0xC3, 0xA9]
        for length in 0...24 {
            let plain = (0..<length).map { harmless[$0 % harmless.count] }
            #expect(
                Self.written { json in plain.withUnsafeBufferPointer { json.string(utf8: $0) } }
                    == Self.referenceString(plain), "\(length) plain bytes")
            for position in 0..<length {
                for byte in special {
                    var bytes = plain
                    bytes[position] = byte
                    #expect(
                        Self.written { json in bytes.withUnsafeBufferPointer { json.string(utf8: $0) } }
                            == Self.referenceString(bytes), "\(byte) at \(position) of \(length)")
                }
            }
        }
        // Bytes just beside the ones that need escaping pass through.
        let neighbours: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x80, 0xFF]
        for byte in neighbours {
            let bytes = [UInt8](repeating: byte, count: 17)
            #expect(
                Self.written { json in bytes.withUnsafeBufferPointer { json.string(utf8: $0) } }
                    == Self.referenceString(bytes))
        }
    }

    @Test func prettyOutputIndentsByDepth() {
        var json = JSONWriter(pretty: true)
        json.object { json in
            json.member("a", 1 as Int64)
            json.key("b")
            json.array { json in
                json.number(2 as Int64)
                json.object { json in json.member("c", "x\"y") }
            }
        }
        let text = String(decoding: json.bytes, as: UTF8.self)
        #expect(text == "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    {\n      \"c\": \"x\\\"y\"\n    }\n  ]\n}")
    }
}
