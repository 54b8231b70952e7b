import Foundation
import ReceiptBuilding
import ReceiptMutation

/// libFuzzer's own mutator, which writes into `data` (capacity `maxSize`) and returns the new size.
@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// What every structure-aware harness shares with libFuzzer: its byte mutator, on a whole input or on one value,
/// the dictionary it was given, and the step of a custom mutator that edits structure some of the time and leaves
/// the rest to libFuzzer, so encoding bugs stay reachable.
public enum LibFuzzer {
    /// libFuzzer's byte mutator on `data` in place; the new size.
    public static func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int {
        libFuzzerMutate(data, size, maxSize)
    }

    /// `bytes` through libFuzzer's own mutator (with room to grow by 16 bytes): what brings the operands of the
    /// code's comparisons into a decoded value.
    @Sendable public static func mutateBytes(_ bytes: [UInt8]) -> [UInt8] { mutateBytes(bytes, room: 16) }

    /// `bytes` through libFuzzer's own mutator, free to grow by up to `room` bytes.
    public static func mutateBytes(_ bytes: [UInt8], room: Int) -> [UInt8] {
        let capacity = max(bytes.count + max(room, 0), 1)
        var buffer = bytes + [UInt8](repeating: 0, count: capacity - bytes.count)
        let size = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return 0 }
            return libFuzzerMutate(base, bytes.count, capacity)
        }
        return Array(buffer.prefix(min(size, capacity)))
    }

    /// The entries of the dictionary libFuzzer was given (`-dict=`: the committed one and the words the harness's
    /// code compares with), read once.
    public static let dictionary = LibFuzzerDictionary.entries(arguments: CommandLine.arguments) { path in
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// A custom mutator's step: `percent` times in a hundred `edit` is tried on the input; its result is written
    /// back when it is not empty and fits, else libFuzzer's byte mutator runs.
    public static func customMutate(
        _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, random: inout SplitMix64,
        percent: UInt64, edit: (inout SplitMix64, [UInt8]) -> [UInt8]?
    ) -> Int {
        if size > 0, random.next() % 100 < percent,
            let output = edit(&random, Array(UnsafeBufferPointer(start: data, count: size))),
            write(output, to: data, maxSize: maxSize)
        {
            return output.count
        }
        return libFuzzerMutate(data, size, maxSize)
    }

    /// The head of `a` and the tail of `b`, cut where `seed` says, written to `out`: a crossover of inputs that
    /// have no structure to cross.
    public static func splice(
        _ a: [UInt8], _ b: [UInt8], into out: UnsafeMutablePointer<UInt8>, maxSize: Int, seed: UInt64
    ) -> Int {
        let cut = a.isEmpty ? 0 : Int(seed % UInt64(a.count))
        let otherCut = b.isEmpty ? 0 : Int((seed >> 8) % UInt64(b.count))
        let spliced = Array((a[..<cut] + b[otherCut...]).prefix(maxSize))
        _ = write(spliced, to: out, maxSize: maxSize)
        return spliced.count
    }

    /// `bytes` copied to `data` when they are not empty and fit in `maxSize`.
    public static func write(_ bytes: [UInt8], to data: UnsafeMutablePointer<UInt8>, maxSize: Int) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maxSize else { return false }
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            data.update(from: base, count: buffer.count)
        }
        return true
    }
}
