@testable import ReceiptModel
import Testing

/// Dates in Apple's exact form take `ReceiptDate.parseCanonical`; these tests hold it to the general scanner.
@Suite("The canonical date fast path parses exactly what the scanner does")
struct CanonicalDateTests {
    /// Both paths over `text`: the fast one may decline (nil), but when it answers, the scanner agrees.
    static func expectAgreement(_ text: [UInt8]) {
        text.withUnsafeBufferPointer { buffer in
            let range = 0..<buffer.count
            let scanned = ReceiptDate.scan(buffer, range)
            if let fast = ReceiptDate.parseCanonical(buffer, range) {
                #expect(scanned == .success(fast), "\(String(decoding: text, as: UTF8.self)): \(fast) vs \(scanned)")
            } else if text.count == 20, case .success(let date) = scanned, text.last == UInt8(ascii: "Z"),
                      text[10] == UInt8(ascii: "T") {
                Issue.record("\(String(decoding: text, as: UTF8.self)) is canonical (\(date)) but the fast path declined")
            }
            #expect(ReceiptDate.parse(buffer, range) == (ReceiptDate.parseCanonical(buffer, range).map { .success($0) } ?? scanned))
        }
    }

    @Test func realisticDates() {
        for text in ["2023-10-19T01:45:40Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "2023-02-29T00:00:00Z",
                     "2023-13-01T00:00:00Z", "2023-00-10T00:00:00Z", "2023-01-32T00:00:00Z", "2023-01-01T24:00:00Z",
                     "2023-01-01T00:60:00Z", "2023-01-01T00:00:60Z", "2023-01-01t00:00:00Z", "2023-01-01 00:00:00Z",
                     "2023-01-01T00:00:00z", "20a3-01-01T00:00:00Z", "2023-01-01T00:00:0/Z", "0000-01-01T00:00:00Z"] {
            Self.expectAgreement(Array(text.utf8))
        }
    }

    /// Random digits and separators in the 20-byte shape, so every field crosses its limits.
    @Test func randomCanonicalShapes() {
        var random = SplitMix64(seed: 3339)  // fixed: a failure reproduces
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let alphabet = Array("0123456789-T:Z /".utf8)
        for _ in 0..<20_000 {
            var text = Array("2023-10-19T01:45:40Z".utf8)
            for _ in 0...below(4) {
                text[below(20)] = below(2) == 0 ? alphabet[below(10)] : alphabet[below(alphabet.count)]
            }
            Self.expectAgreement(text)
        }
    }
}

/// `ReceiptDate.format` writes bytes into a fixed buffer; this reference builds the same text with Strings.
@Suite("Formatting dates as RFC 3339 UTC")
struct DateFormattingTests {
    static func reference(_ epochSeconds: Int64, _ nanosecond: Int) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let days = epochSeconds >= 0 ? epochSeconds / 86_400 : (epochSeconds - 86_399) / 86_400
        let second = Int(epochSeconds - days * 86_400)
        let (year, month, day) = ReceiptDate.civilFromDays(days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(second / 3600, 2) + ":"
            + pad(second / 60 % 60, 2) + ":" + pad(second % 60, 2)
        if nanosecond / 1_000_000 > 0 { text += "." + pad(nanosecond / 1_000_000, 3) }
        return text + "Z"
    }

    @Test func matchesTheReferenceAcrossTheRange() {
        var random = SplitMix64(seed: 86_400)  // fixed: a failure reproduces
        var instants: [Int64] = [0, -1, 86_399, 86_400, -62_167_219_200, -62_167_219_201, 253_402_300_799,
                                 253_402_300_800, 1_697_679_940, -1_000_000_000_000, 1_000_000_000_000_000]
        for _ in 0..<5_000 { instants.append(Int64(bitPattern: random.next()) % 400_000_000_000) }
        for instant in instants {
            for nanosecond in [0, 999_999, 1_000_000, 123_456_789, 999_999_999] {
                #expect(ReceiptDate.format(epochSeconds: instant, nanosecond: nanosecond)
                        == Self.reference(instant, nanosecond), "\(instant) \(nanosecond)")
            }
        }
    }
}
