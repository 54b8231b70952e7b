import FuzzJWSSupport
import ReceiptBuilding
import ReceiptMutation

/// What the custom mutator and crossover of the harnesses that verify tokens do (each harness declares its
/// `LLVMFuzzerCustomMutator` and `LLVMFuzzerCustomCrossOver` with its profile), re-signing with the TEST-ONLY kit:
/// - a JWS catalogue mutation (`JWSMutationCatalogue.all`), made from the input with the kit (rarely: it re-signs the
///   baseline's nested tokens too);
/// - an edit of the token's meaning (`JWSStructureMutator`: members, values, escapes, nested tokens), signed again
///   with the TEST-ONLY EC key, so it reaches the checks after the signature;
/// - libFuzzer's mutator on the whole input, also the fallback when the others cannot apply.
public enum ResigningMutation {
    /// How a harness weighs the edits.
    public struct Profile: Sendable {
        /// The share of structural edits, in percent (the rest: libFuzzer's byte mutator, whose edits break the
        /// signature and stay in the readers).
        public var structuralShare: UInt64
        /// The share of structural edits that are a catalogue mutation, in percent.
        public var catalogueShare: UInt64
        /// Whether edits mostly write documented values, keeping a document one Apple could sign.
        public var prefersDocumentedValues: Bool

        /// `jws-verify`: verdicts, so every kind of edit, attacks from the catalogue among them.
        public static let verdicts = Profile(structuralShare: 70, catalogueShare: 5, prefersDocumentedValues: false)
        /// `status`: what verified documents mean, so nearly every edit structural, none an attack the verifier
        /// refuses by design, and values mostly documented ones (a refused document is never counted).
        public static let meaning = Profile(structuralShare: 90, catalogueShare: 0, prefersDocumentedValues: true)
    }

    public static func mutate(
        _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, seed: UInt32, profile: Profile
    ) -> Int {
        let kit = ResigningKit.shared
        return StructureMutation.mutate(
            data, size, maxSize, seed: seed, kit: kit, percent: profile.structuralShare,
            documented: profile.prefersDocumentedValues
        ) { random, input in
            guard let kit, random.next() % 100 < profile.catalogueShare else { return nil }
            let catalogue = JWSMutationCatalogue.all
            return try? catalogue[Int(random.next() % UInt64(catalogue.count))].apply(to: input, kit: kit)
        }
    }

    public static func crossover(
        _ first: UnsafePointer<UInt8>, _ firstSize: Int, _ second: UnsafePointer<UInt8>, _ secondSize: Int,
        _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, seed: UInt32, profile: Profile
    ) -> Int {
        StructureMutation.crossover(
            first, firstSize, second, secondSize, out, maxOutSize, seed: seed, kit: ResigningKit.shared,
            documented: profile.prefersDocumentedValues)
    }
}
