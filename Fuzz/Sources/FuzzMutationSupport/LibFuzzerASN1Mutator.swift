import ReceiptMutation

extension ASN1StructureMutator {
    /// The BER structure mutator as a harness uses it: the numbers and words of libFuzzer's `-dict=`, leaves
    /// through libFuzzer's own byte mutator.
    public static func forLibFuzzer(seed: UInt64) -> ASN1StructureMutator {
        var mutator = ASN1StructureMutator(seed: seed)
        mutator.use(libFuzzerWords)
        mutator.mutateBytes = LibFuzzer.mutateBytes
        return mutator
    }

    /// The dictionary's words sorted once.
    static let libFuzzerWords = words(LibFuzzer.dictionary)
}
