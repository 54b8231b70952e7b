import Testing

@testable import ReceiptASN1

/// A message that sets a tag against the one expected names the form when the form is all that differs, so it
/// never reads "expected SET, found SET".
@Suite("Tag names against the expected tag")
struct ASN1TagNameTests {
    @Test func theFormIsNamedWhenItIsAllThatDiffers() {
        let primitiveSet = ASN1Tag(.universal, number: 17, constructed: false)
        #expect(primitiveSet.name(against: .set) == "primitive SET")
        #expect(ASN1Tag.set.name(against: primitiveSet) == "constructed SET")
        let constructedZero = ASN1Tag.context(0, constructed: true)
        #expect(constructedZero.name(against: .context(0, constructed: false)) == "constructed [0]")
        // Tags that differ in class or number keep their short names.
        #expect(ASN1Tag.sequence.name(against: .set) == "SEQUENCE")
        #expect(ASN1Tag.context(1, constructed: true).name(against: .context(0, constructed: false)) == "[1]")
        #expect(ASN1Tag.set.name(against: .set) == "SET")
    }
}
