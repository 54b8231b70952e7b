import ReceiptMutation
import Testing

/// The date mutator writes the numbers a parser compares with into the date's fields and offset, keeps the
/// text's shape, and leaves text that is no date to byte mutation.
@Suite("Date text mutator")
struct DateTextMutatorTests {
    static let date = Array("2013-08-01T07:00:00Z".utf8)

    static func outputs(_ input: [UInt8], numbers: [Int], count: Int = 3_000) -> [String] {
        (0..<count).compactMap { seed in
            var mutator = DateTextMutator(seed: UInt64(seed))
            mutator.numbers = numbers
            return mutator.mutate(input).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test("compared numbers reach each field, and as minutes the offset")
    func comparedNumbersReachFields() {
        let outputs = Self.outputs(Self.date, numbers: [2096, 29, -330])
        #expect(outputs.contains("2096-08-01T07:00:00Z"))
        #expect(outputs.contains("2013-08-29T07:00:00Z"))
        #expect(outputs.contains("2013-08-01T07:00:00-05:30"))
        #expect(outputs.contains("2013-02-01T07:00:00Z"))  // a month boundary
        #expect(outputs.contains("2013-08-01t07:00:00Z"))  // a separator variant
    }

    @Test("an offset that is there is replaced, not appended to")
    func offsetReplaced() {
        let outputs = Self.outputs(Array("2013-08-01T07:00:00.123+01:00".utf8), numbers: [-330])
        #expect(outputs.contains("2013-08-01T07:00:00.123-05:30"))
        #expect(!outputs.contains { $0.hasSuffix("+01:00-05:30") })
    }

    @Test("text without a date's shape is left alone")
    func notADate() {
        for text in ["", "hello", "T07:00:00Z", "12-34", "-2013-08-01"] {
            var mutator = DateTextMutator(seed: 1)
            #expect(mutator.mutate(Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("dictionary numbers are the numeric words")
    func dictionaryNumbers() {
        let entries = LibFuzzerDictionary.entries(
            Array("a=\"2096\"\nb=\"-330\"\nc=\"kid\"\nd=\"99999999999999\"\n".utf8))
        #expect(DateTextMutator.numbers(entries) == [2096, -330])
    }
}
