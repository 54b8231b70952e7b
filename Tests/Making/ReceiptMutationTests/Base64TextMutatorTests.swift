import ReceiptASN1
import ReceiptModel
import ReceiptMutation
import ReceiptTestSupport
import Testing

/// The base64 text mutator edits the longest base64 run of a text — its last quantum and padding, line breaks,
/// alphabet — or what it encodes, and leaves the text around it and text without base64 alone.
@Suite("Base64 text mutator")
struct Base64TextMutatorTests {
    static let receipt = Fixtures.realReceipt(Fixtures.xcodeReceipt)
    static let text =
        Array("receipt-data=".utf8) + Array(Base64Codec.encode(receipt, alphabet: .standard, padded: true).utf8)
        + Array("&password=x".utf8)

    static func outputs(_ input: [UInt8], decoded: (@Sendable ([UInt8]) -> [UInt8]?)? = nil) -> [[UInt8]] {
        (0..<2_000).compactMap { seed in
            var mutator = Base64TextMutator(seed: UInt64(seed))
            mutator.mutateDecoded = decoded
            return mutator.mutate(input)
        }
    }

    /// The base64 between the form's `=` and `&`.
    static func run(_ output: [UInt8]) -> [UInt8] {
        Array(output.dropFirst("receipt-data=".utf8.count).dropLast("&password=x".utf8.count))
    }

    @Test("the last quantum is cut to every length and followed by every count of padding, the text around kept")
    func lastQuantumAndPadding() {
        let outputs = Self.outputs(Self.text)
        #expect(outputs.allSatisfy { $0.starts(with: Array("receipt-data=".utf8)) })
        #expect(outputs.allSatisfy { $0.suffix(11).elementsEqual(Array("&password=x".utf8)) })
        for remainder in 0..<4 {
            for padding in 0..<4 {
                #expect(
                    outputs.contains { output in
                        let run = Self.run(output)
                        let letters = run.filter { $0 != UInt8(ascii: "=") && $0 != 0x0A && $0 != 0x0D }
                        return letters.count % 4 == remainder
                            && run.reversed().prefix { $0 == UInt8(ascii: "=") }.count == padding
                            && run.count >= letters.count - 3 + padding
                    }, "remainder \(remainder), padding \(padding)")
            }
        }
    }

    @Test("line breaks go inside, and the run is wrapped at 64 or 76; the other alphabet appears")
    func lineBreaksAndAlphabet() {
        let outputs = Self.outputs(Self.text)
        #expect(outputs.contains { Self.run($0).contains(0x0A) })
        #expect(outputs.contains { Self.run($0).contains([0x0D, 0x0A]) })
        #expect(outputs.contains { Self.run($0).split(separator: 0x0A).first?.count == 76 })
        #expect(
            outputs.contains { Self.run($0).contains(UInt8(ascii: "-")) || Self.run($0).contains(UInt8(ascii: "_")) })
    }

    @Test("what the text encodes is edited and encoded again")
    func decodedEdits() throws {
        let outputs = Self.outputs(Self.text) { bytes in [0x05, 0x00] + bytes.prefix(4) }
        let edited = try #require(outputs.first { Self.run($0).starts(with: Array("BQ".utf8)) })
        let decoded = try #require(Base64.decode(Self.run(edited)))
        #expect(decoded == [0x05, 0x00] + Self.receipt.prefix(4))
    }

    @Test("text without a base64 run of eight characters is left alone")
    func noRun() {
        for text in ["", "hello, world", "a.b.c.d.e", "{\"x\": 1}", "abc def ghi"] {
            var mutator = Base64TextMutator(seed: 3)
            #expect(mutator.mutate(Array(text.utf8)) == nil, "\(text)")
        }
    }
}
