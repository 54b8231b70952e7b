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
