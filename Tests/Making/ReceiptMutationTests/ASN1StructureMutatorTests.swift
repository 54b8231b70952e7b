import ReceiptASN1
import ReceiptTestSupport
import Testing

@testable import ReceiptMutation

/// The BER structure mutator reads a buffer as an editable tree that writes back to the same bytes, reaches values
/// inside OCTET STRINGs (an in-app record's attributes inside the SignedData), writes the numbers a reader compares
/// with and lengths in every form, and leaves what is not BER to byte mutation.
@Suite("BER structure mutator")
struct ASN1StructureMutatorTests {
    static let receipt = Fixtures.realReceipt(Fixtures.xcodeReceipt)

    static func outputs(_ input: [UInt8], numbers: [Int64] = [], count: Int = 3_000) -> [[UInt8]] {
        (0..<count).compactMap { seed in
            var mutator = ASN1StructureMutator(seed: UInt64(seed))
            mutator.numbers = numbers
            return mutator.mutate(input)
        }
    }

    /// Whether `bytes` hold an attribute `SEQUENCE { INTEGER type, INTEGER version, OCTET STRING { INTEGER value } }`.
    static func holdsAttribute(_ bytes: [UInt8], type: [UInt8], value: [UInt8]) -> Bool {
        let head: [UInt8] = [0x02, UInt8(type.count)] + type + [0x02, 0x01]
        let tail: [UInt8] = [0x04, UInt8(value.count + 2), 0x02, UInt8(value.count)] + value
        guard bytes.count >= head.count + 1 + tail.count else { return false }
        for start in 0...(bytes.count - head.count - 1 - tail.count)
        where bytes[start..<(start + head.count)].elementsEqual(head)
            && bytes[(start + head.count + 1)..<(start + head.count + 1 + tail.count)].elementsEqual(tail)
        {
            return true
        }
        return false
    }

    @Test("an untouched tree writes the bytes it was read from: BER indefinite lengths, non-minimal long forms")
    func roundTrip() throws {
        let tree = try #require(ASN1EditTree(Self.receipt))
        #expect(tree.encoded() == Self.receipt)
        let nonMinimal: [UInt8] = [
            0x30, 0x83, 0x00, 0x00, 0x05, 0x02, 0x03, 0x01, 0x00, 0x01, 0x31, 0x80, 0x05, 0x00, 0, 0,
        ]
        #expect(ASN1EditTree(nonMinimal)?.encoded() == nonMinimal)
        let nineOctets: [UInt8] = [0x04, 0x89] + [UInt8](repeating: 0, count: 8) + [0x02, 0xAA, 0xBB]
        #expect(ASN1EditTree(nineOctets)?.encoded() == nineOctets, "a length read with nine octets keeps them")
        #expect(Self.receipt.first == 0x30 && Self.receipt[1] == 0x80, "the fixture is BER with an indefinite length")
    }

    @Test("values inside OCTET STRINGs are reached: an in-app record's quantity set to a compared number")
    func reachesRecordValues() throws {
        let tree = try #require(ASN1EditTree(Self.receipt))
        #expect(tree.nodes.count > 200, "the payload inside eContent and the records inside it are opened")
        #expect(Self.holdsAttribute(Self.receipt, type: [0x06, 0xA5], value: [0x01]), "a quantity of 1")
        let outputs = Self.outputs(Self.receipt, numbers: [99])
        #expect(outputs.contains { Self.holdsAttribute($0, type: [0x06, 0xA5], value: [0x63]) })
    }

    @Test("a compared number's neighbours are written too: a range's bound crossed one past it")
    func comparedNeighbours() {
        let outputs = Self.outputs(Self.receipt, numbers: [1000])
        let quantity: [UInt8] = [0x06, 0xA5]
        let written = { (value: [UInt8]) in outputs.filter { Self.holdsAttribute($0, type: quantity, value: value) } }
        #expect(!written([0x03, 0xE8]).isEmpty, "the number itself, 1000")
        #expect(!written([0x03, 0xE9]).isEmpty, "one past it, 1001")
        #expect(!written([0x03, 0xE7]).isEmpty, "one before it, 999")
        #expect(written([0x03, 0xE8]).count > written([0x03, 0xE9]).count, "the number itself most often")
    }

    @Test("lengths are written in long form of one to four octets, and indefinite")
    func lengthForms() {
        let input: [UInt8] = [0x30, 0x07, 0x02, 0x05, 0x01, 0x02, 0x03, 0x04, 0x05]
        let outputs = Self.outputs(input, count: 2_000)
        #expect(outputs.contains { $0.starts(with: [0x30, 0x0A, 0x02, 0x83, 0x00, 0x00, 0x05]) })
        #expect(outputs.contains { $0.starts(with: [0x30, 0x84, 0x00, 0x00, 0x00, 0x07]) })
        #expect(outputs.contains { $0 == [0x30, 0x80] + input[2...] + [0, 0] })
    }

    @Test("a length form's octets: minimal, long with so many octets, padded, indefinite; counted without making them")
    func lengthFormOctets() {
        #expect(ASN1LengthForm.minimal.octets(for: 5, constructed: false) == [0x05])
        #expect(ASN1LengthForm.minimal.octets(for: 300, constructed: false) == [0x82, 0x01, 0x2C])
        #expect(ASN1LengthForm.long(octets: 3).octets(for: 5, constructed: false) == [0x83, 0, 0, 0x05])
        #expect(ASN1LengthForm.long(octets: 1).octets(for: 300, constructed: false) == [0x82, 0x01, 0x2C])
        #expect(ASN1LengthForm.padded(extraOctets: 1).octets(for: 5, constructed: false) == [0x82, 0, 0x05])
        #expect(ASN1LengthForm.padded(extraOctets: 1).octets(for: 300, constructed: true) == [0x83, 0, 0x01, 0x2C])
        #expect(ASN1LengthForm.indefinite.octets(for: 5, constructed: true) == [0x80])
        #expect(ASN1LengthForm.indefinite.octets(for: 5, constructed: false) == [0x05], "a primitive is minimal")
        let forms: [ASN1LengthForm] = [
            .minimal, .indefinite, .long(octets: 1), .long(octets: 4), .long(octets: 200), .padded(extraOctets: 0),
            .padded(extraOctets: 2), .padded(extraOctets: 300),
        ]
        for form in forms {
            for length in [0, 1, 127, 128, 255, 256, 65_535, 65_536, Int(Int32.max), Int.max] {
                for constructed in [false, true] {
                    #expect(
                        form.count(for: length, constructed: constructed)
                            == form.octets(for: length, constructed: constructed).count, "\(form) \(length)")
                }
            }
        }
    }

    @Test("every edit's output stays bounded, and most read as BER again")
    func editsStayBounded() {
        var current = Self.receipt
        var readable = 0
        for seed in 0..<400 {
            var mutator = ASN1StructureMutator(seed: UInt64(seed))
            guard let output = mutator.mutate(current) else {
                current = Self.receipt
                continue
            }
            #expect(output.count <= 4 * Self.receipt.count + 1_024)
            if (try? ASN1Tree.read(output)) != nil { readable += 1 }
            current = output.count > 2 * Self.receipt.count ? Self.receipt : output
        }
        #expect(readable > 200)
    }

    @Test("attribute values are grouped by their attribute's type, in order")
    func valuesByType() throws {
        // SET { SEQ { 1701, 1, OCTET STRING { 1 } }, SEQ { 1702, 1, OCTET STRING { 5 } }, SEQ { 1701, 1, { 2 } } }
        func attribute(_ type: [UInt8], _ value: UInt8) -> [UInt8] {
            [0x30, 0x0C, 0x02, 0x02] + type + [0x02, 0x01, 0x01, 0x04, 0x03, 0x02, 0x01, value]
        }
        let content = attribute([0x06, 0xA5], 1) + attribute([0x06, 0xA6], 5) + attribute([0x06, 0xA5], 2)
        let tree = try #require(ASN1EditTree([0x31, UInt8(content.count)] + content))
        let groups = ASN1StructureMutator.valuesByType(tree)
        #expect(groups.map { $0.map { Array(tree.content($0)) } } == [[[1], [2]], [[5]]])
    }

    @Test("crossover gives one input an element of the other")
    func crossover() {
        let first: [UInt8] = [0x31, 0x06, 0x02, 0x01, 0x07, 0x02, 0x01, 0x08]
        let second: [UInt8] = [0x30, 0x04, 0x0C, 0x02, 0x68, 0x69]
        let crossed = (0..<200).compactMap { seed -> [UInt8]? in
            var mutator = ASN1StructureMutator(seed: UInt64(seed))
            return mutator.crossover(first, second)
        }
        #expect(crossed.contains([0x31, 0x07, 0x02, 0x01, 0x07, 0x0C, 0x02, 0x68, 0x69]))
        #expect(crossed.allSatisfy { (try? ASN1Tree.read($0)) != nil })
    }

    @Test("what is not BER is left to byte mutation")
    func notBER() {
        for input: [UInt8] in [[], [0x30], [0x30, 0x05, 0x02], Array("MIIT".utf8), [0x02, 0x01, 0x05, 0xFF]] {
            var mutator = ASN1StructureMutator(seed: 1)
            #expect(mutator.mutate(input) == nil)
        }
    }

    @Test("INTEGERs are written in their fewest two's complement octets and read back")
    func integers() {
        for value in ASN1StructureMutator.edges + [99, 1701, -330] {
            let octets = ASN1StructureMutator.integerOctets(value)
            #expect(ASN1StructureMutator.integerValue(octets[...]) == value)
            #expect(octets.count == 1 || !(octets[0] == 0 && octets[1] < 0x80), "\(value)")
        }
        #expect(ASN1StructureMutator.integerOctets(128) == [0x00, 0x80])
        #expect(ASN1StructureMutator.integerOctets(-129) == [0xFF, 0x7F])
    }

    @Test("a dictionary's words are sorted into numbers and texts")
    func words() {
        let entries = LibFuzzerDictionary.entries(
            Array("a=\"99\"\nint64_1=\"-5\"\nc=\"quantity\"\nd=\"\\x01\\x02\"\n".utf8))
        let words = ASN1StructureMutator.words(entries)
        #expect(words.numbers == [99, -5])
        #expect(words.integers == [-5])
        #expect(words.texts == [Array("quantity".utf8)])
    }
}
