import FuzzMutationSupport
import ReceiptBuilding
import ReceiptMutation

/// What the JWS harnesses' `LLVMFuzzerCustomMutator` and `LLVMFuzzerCustomCrossOver` do: edits of a token's meaning
/// (`JWSStructureMutator`: its JSON, nested tokens included, re-signed with `kit` when there is one) most of the
/// time, libFuzzer's byte mutator otherwise, so encoding bugs stay reachable.
public enum StructureMutation {
    /// The share of mutations that edit structure, in percent.
    public static let structuralShare: UInt64 = 70

    /// `data` mutated in place; the new size. `extra` is tried first when given (a harness's own catalogue).
    /// `percent`: the share of structural edits; `documented`: the structural edits mostly write documented values
    /// (`JWSStructureMutator.prefersDocumentedValues`).
    public static func mutate(
        _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, seed: UInt32, kit: MutationKit?,
        percent: UInt64 = structuralShare, documented: Bool = false,
        extra: ((inout SplitMix64, [UInt8]) -> [UInt8]?)? = nil
    ) -> Int {
        var random = SplitMix64(seed: UInt64(seed))
        return LibFuzzer.customMutate(data, size, maxSize, random: &random, percent: percent) { random, input in
            if let output = extra?(&random, input) { return output }
            var mutator = mutator(seed: random.next(), kit: kit)
            mutator.prefersDocumentedValues = documented
            return mutator.mutate(input)
        }
    }

    /// A member of one input's payload given to the other's; a splice of the two when neither is a token.
    public static func crossover(
        _ first: UnsafePointer<UInt8>, _ firstSize: Int, _ second: UnsafePointer<UInt8>, _ secondSize: Int,
        _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, seed: UInt32, kit: MutationKit?,
        documented: Bool = false
    ) -> Int {
        let a = Array(UnsafeBufferPointer(start: first, count: firstSize))
        let b = Array(UnsafeBufferPointer(start: second, count: secondSize))
        var mutator = mutator(seed: UInt64(seed), kit: kit)
        mutator.prefersDocumentedValues = documented
        // With a custom crossover, libFuzzer picks it for half of all mutations: one time in two it edits the first
        // input instead, so the edits of a token's meaning are not halved.
        // Documented values preferred, a member from the other input takes the place of the one of its name; when it
        // has none to give, the first input is edited (a splice of the bytes would break its signature).
        let crossed =
            seed & 1 == 0
            ? mutator.mutate(a) : mutator.crossover(a, b) ?? (documented ? mutator.mutate(a) : nil)
        if let crossed, LibFuzzer.write(crossed, to: out, maxSize: maxOutSize) {
            return crossed.count
        }
        return LibFuzzer.splice(a, b, into: out, maxSize: maxOutSize, seed: UInt64(seed))
    }

    static func mutator(seed: UInt64, kit: MutationKit?) -> JWSStructureMutator {
        var mutator = kit.map { JWSStructureMutator(seed: seed, resigningWith: $0) } ?? JWSStructureMutator(seed: seed)
        mutator.mutateBytes = LibFuzzer.mutateBytes
        mutator.words = words
        return mutator
    }

    /// The words of the dictionary libFuzzer was given, sorted once by what they can be.
    static let words = JWSStructureMutator.Words(LibFuzzer.dictionary)
}
