import FuzzResigningMutator

/// The structure-aware mutator, re-signing, keeping documents ones Apple could sign
/// (`ResigningMutation.Profile.meaning`): what a customer owns turns on verified documents only.
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    ResigningMutation.mutate(data, size, maxSize, seed: seed, profile: .meaning)
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func customCrossOver(
    _ first: UnsafePointer<UInt8>, _ firstSize: Int, _ second: UnsafePointer<UInt8>, _ secondSize: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, _ seed: UInt32
) -> Int {
    ResigningMutation.crossover(first, firstSize, second, secondSize, out, maxOutSize, seed: seed, profile: .meaning)
}
