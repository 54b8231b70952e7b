import FuzzMutationSupport
import ReceiptBuilding
import ReceiptMutation

/// A harness that links this target has its custom mutator and crossover (libFuzzer finds them by name).
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    ASN1Mutation.mutate(data, size, maxSize, seed: seed)
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func customCrossOver(
    _ first: UnsafePointer<UInt8>, _ firstSize: Int, _ second: UnsafePointer<UInt8>, _ secondSize: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, _ seed: UInt32
) -> Int {
    ASN1Mutation.crossover(first, firstSize, second, secondSize, out, maxOutSize, seed: seed)
}

/// What the receipt harnesses' `LLVMFuzzerCustomMutator` and `LLVMFuzzerCustomCrossOver` do: edits of the BER
/// structure and values — or, for input that is not BER, of the longest base64 text in it (`Base64TextMutator`: its
/// padding, last quantum, line breaks and alphabet, or the BER it encodes) — (`ASN1StructureMutator`: INTEGERs set to the numbers the code compares with, lengths in
/// another form, leaves through libFuzzer's mutator with their lengths kept true, elements removed, repeated or
/// grafted, inside OCTET STRINGs too) half the time, libFuzzer's byte mutator otherwise.
public enum ASN1Mutation {
    /// The share of mutations that edit structure, in percent.
    public static let structuralShare: UInt64 = 50

    public static func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, seed: UInt32) -> Int {
        var random = SplitMix64(seed: UInt64(seed))
        return LibFuzzer.customMutate(data, size, maxSize, random: &random, percent: structuralShare) { random, input in
            var mutator = ASN1StructureMutator.forLibFuzzer(seed: random.next())
            if let output = mutator.mutate(input) { return output }
            // Not BER: base64 text (a pasted receipt), its shape or the BER it encodes edited.
            var text = Base64TextMutator(seed: random.next())
            let inner = ASN1StructureMutator.forLibFuzzer(seed: random.next())
            text.mutateDecoded = { bytes in
                var decoded = inner
                return decoded.mutate(bytes)
            }
            return text.mutate(input)
        }
    }

    /// An element of one input replaced by one of the other's; a splice of the two when either is not BER.
    public static func crossover(
        _ first: UnsafePointer<UInt8>, _ firstSize: Int, _ second: UnsafePointer<UInt8>, _ secondSize: Int,
        _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, seed: UInt32
    ) -> Int {
        let a = Array(UnsafeBufferPointer(start: first, count: firstSize))
        let b = Array(UnsafeBufferPointer(start: second, count: secondSize))
        var mutator = ASN1StructureMutator.forLibFuzzer(seed: UInt64(seed))
        // With a custom crossover, libFuzzer picks it for half of all mutations: one time in two it edits the first
        // input instead, so the edits that carry meaning (an INTEGER set to a compared number) are not halved.
        let crossed = seed & 1 == 0 ? mutator.mutate(a) : mutator.crossover(a, b)
        if let crossed, LibFuzzer.write(crossed, to: out, maxSize: maxOutSize) {
            return crossed.count
        }
        return LibFuzzer.splice(a, b, into: out, maxSize: maxOutSize, seed: UInt64(seed))
    }
}
