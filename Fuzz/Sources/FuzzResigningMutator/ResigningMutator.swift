import FuzzJWSSupport
import ReceiptBuilding
import ReceiptMutation

/// The custom mutator and crossover of the harnesses that verify tokens (`jws-verify`, `status`: a harness that links
/// this target has them), re-signing: one of
/// - a JWS catalogue mutation (`JWSMutationCatalogue.all`), made from the input with the TEST-ONLY kit (rarely: it
///   re-signs the baseline's nested tokens too);
/// - an edit of the token's meaning (`JWSStructureMutator`: members, values, escapes, nested tokens), signed again
///   with the TEST-ONLY EC key, so it reaches the checks after the signature;
/// - libFuzzer's mutator on the whole input, also the fallback when the others cannot apply.
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    let kit = ResigningKit.shared
    return StructureMutation.mutate(data, size, maxSize, seed: seed, kit: kit) { random, input in
        guard let kit, random.next() % 100 < 5 else { return nil }
        let catalogue = JWSMutationCatalogue.all
        return try? catalogue[Int(random.next() % UInt64(catalogue.count))].apply(to: input, kit: kit)
    }
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func customCrossOver(
    _ first: UnsafePointer<UInt8>, _ firstSize: Int, _ second: UnsafePointer<UInt8>, _ secondSize: Int,
    _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, _ seed: UInt32
) -> Int {
    StructureMutation.crossover(
        first, firstSize, second, secondSize, out, maxOutSize, seed: seed, kit: ResigningKit.shared)
}
