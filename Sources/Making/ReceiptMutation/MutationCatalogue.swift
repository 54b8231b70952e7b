import ReceiptInput
import ReceiptSuite

/// Every named mutation, in a fixed order: the baseline first, then by group.
public enum MutationCatalogue {
    public static let all: [Mutation] =
        [baseline] + EncodingMutations.all + SignatureMutations.all
        + ContainerMutations.all + SignedAttributeMutations.all + ChainMutations.all + StructureMutations.all
        + SemanticMutations.all + DateMutations.all
        + InAppMutations.all + TypeMutations.all

    /// The input re-signed unchanged by the test CA (its hash recomputed for the kit's device): every correct
    /// validator accepts it.
    public static let baseline = Mutation(
        "baseline", .baseline, layer: "none", expected: .accept, finding: nil,
        "the input re-signed unchanged by the test CA, hash computed for the test device"
    ) { _ in }

    /// The entries only a StoreKit-shaped CA (`rcpt ca init --shape storekit`) makes: with Apple's shape they are
    /// not applicable, and another entry covers what they test.
    package static let storeKitOnly: Set<String> = [
        "storekit-signed-production", "storekit-issued-chain-production",
    ]

    /// The receipt mutation named `name`.
    public static func named(_ name: String) -> Mutation? { all.first { $0.name == name } }

    /// The catalogue of a kind of document: the receipt mutations, or the JWS ones (`JWSMutationCatalogue`).
    package static func all(for kind: DocumentKind) -> [Mutation] { kind == .jws ? JWSMutationCatalogue.all : all }

    /// The mutation named `name`, of either catalogue.
    package static func anyNamed(_ name: String) -> Mutation? { named(name) ?? JWSMutationCatalogue.named(name) }
}
