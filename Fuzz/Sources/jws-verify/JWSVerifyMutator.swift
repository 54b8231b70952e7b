import FuzzResigningMutator

/// The structure-aware mutator, re-signing, with every kind of edit (`ResigningMutation.Profile.verdicts`).
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    ResigningMutation.mutate(data, size, maxSize, seed: seed, profile: .verdicts)
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func customCrossOver(
    _ first: UnsafePointer<UInt8>, _ firstSize: Int, _ second: UnsafePointer<UInt8>, _ secondSize: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, _ seed: UInt32
) -> Int {
    ResigningMutation.crossover(first, firstSize, second, secondSize, out, maxOutSize, seed: seed, profile: .verdicts)
}
