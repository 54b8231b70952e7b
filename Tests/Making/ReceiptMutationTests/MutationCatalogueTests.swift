import ReceiptModel
import ReceiptMutation
import ReceiptSuite
import Testing

@Suite("The mutation catalogue")
struct MutationCatalogueTests {
    @Test func hasAtLeastFortyUniquelyNamedMutationsInEveryGroup() {
        let names = MutationCatalogue.all.map(\.name)
        #expect(names.count >= 40)
        #expect(Set(names).count == names.count, "duplicate names")
        #expect(names.first == "baseline")
        for group in MutationGroup.allCases {
            // Every receipt group holds receipt mutations; the jws group is the JWS catalogue, and only it.
            let catalogue = group == .jws ? JWSMutationCatalogue.all : MutationCatalogue.all
            #expect(catalogue.contains { $0.group == group }, "\(group) is empty")
        }
        #expect(JWSMutationCatalogue.all.allSatisfy { $0.group == .jws })
        #expect(!MutationCatalogue.all.contains { $0.group == .jws })
        for name in names {
            #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(name) is not kebab-case")
        }
    }

    @Test func everyMustRejectMutationNamesTheFindingThatRejectsIt() {
        for mutation in MutationCatalogue.all where mutation.expected == .reject {
            #expect(mutation.finding != nil, "\(mutation.name)")
        }
    }

    @Test func looksUpMutationsByName() {
        #expect(MutationCatalogue.named("foreign-ca")?.group == .chain)
        #expect(MutationCatalogue.named("no-such-mutation") == nil)
    }
}
