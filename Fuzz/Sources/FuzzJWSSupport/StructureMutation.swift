import Foundation
import ReceiptBuilding
import ReceiptMutation

/// libFuzzer's own mutator, which writes into `data` (capacity `maxSize`) and returns the new size.
@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// What the JWS harnesses' `LLVMFuzzerCustomMutator` and `LLVMFuzzerCustomCrossOver` do: edits of a token's meaning
/// (`JWSStructureMutator`: its JSON, nested tokens included, re-signed with `kit` when there is one) most of the
/// time, libFuzzer's byte mutator otherwise, so encoding bugs stay reachable.
public enum StructureMutation {
    /// The share of mutations that edit structure, in percent.
    public static let structuralShare: UInt64 = 70

    /// `data` mutated in place; the new size. `extra` is tried first when given (a harness's own catalogue).
    public static func mutate(
        _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, seed: UInt32, kit: MutationKit?,
        extra: ((inout SplitMix64, [UInt8]) -> [UInt8]?)? = nil
    ) -> Int {
        var random = SplitMix64(seed: UInt64(seed))
        let roll = random.next() % 100
        if size > 0, roll < structuralShare {
            let input = Array(UnsafeBufferPointer(start: data, count: size))
            var output = extra.flatMap { $0(&random, input) }
            if output == nil {
                var mutator = mutator(seed: random.next(), kit: kit)
                output = mutator.mutate(input)
            }
            if let output, write(output, to: data, maxSize: maxSize) { return output.count }
        }
        return libFuzzerMutate(data, size, maxSize)
    }

    /// A member of one input's payload given to the other's; a splice of the two when neither is a token.
    public static func crossover(
        _ first: UnsafePointer<UInt8>, _ firstSize: Int, _ second: UnsafePointer<UInt8>, _ secondSize: Int,
        _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, seed: UInt32, kit: MutationKit?
    ) -> Int {
        let a = Array(UnsafeBufferPointer(start: first, count: firstSize))
        let b = Array(UnsafeBufferPointer(start: second, count: secondSize))
        var mutator = mutator(seed: UInt64(seed), kit: kit)
        if let crossed = mutator.crossover(a, b), write(crossed, to: out, maxSize: maxOutSize) { return crossed.count }
        let cut = a.isEmpty ? 0 : Int(UInt64(seed) % UInt64(a.count))
        let otherCut = b.isEmpty ? 0 : Int(UInt64(seed >> 8) % UInt64(b.count))
        let spliced = Array((a[..<cut] + b[otherCut...]).prefix(maxOutSize))
        _ = write(spliced, to: out, maxSize: maxOutSize)
        return spliced.count
    }

    static func mutator(seed: UInt64, kit: MutationKit?) -> JWSStructureMutator {
        var mutator = kit.map { JWSStructureMutator(seed: seed, resigningWith: $0) } ?? JWSStructureMutator(seed: seed)
        mutator.mutateBytes = libFuzzerBytes
        mutator.words = words
        return mutator
    }

    /// The words of the dictionary libFuzzer was given (`-dict=`: the committed one and the words the harness's code
    /// compares with), read once.
    static let words = JWSStructureMutator.Words(
        LibFuzzerDictionary.entries(arguments: CommandLine.arguments) { path in
            FileManager.default.contents(atPath: path).map { Array($0) }
        })

    /// `bytes` through libFuzzer's own mutator (with room to grow by 16 bytes): what brings the operands of the
    /// code's comparisons into a decoded value.
    static func libFuzzerBytes(_ bytes: [UInt8]) -> [UInt8] {
        var buffer = bytes + [UInt8](repeating: 0, count: 16)
        let size = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return 0 }
            return libFuzzerMutate(base, bytes.count, pointer.count)
        }
        return Array(buffer.prefix(min(size, buffer.count)))
    }

    static func write(_ bytes: [UInt8], to data: UnsafeMutablePointer<UInt8>, maxSize: Int) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maxSize else { return false }
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            data.update(from: base, count: buffer.count)
        }
        return true
    }
}
