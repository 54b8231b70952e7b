import ReceiptModel
import ReceiptTestSupport
import Testing

/// The named attribute types are the field table's rows: each case's number has a row in its scope, and the row's
/// JSON name is the case's name in snake case (`bundleID` ↔ `bundle_id`).
@Suite("Attribute types by name")
struct AttributeFieldTests {
    static func snakeCase(_ name: String) -> String {
        var out = ""
        var previous: Character?
        for character in name {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { out += "_" }
            out += character.lowercased()
            previous = character
        }
        return out
    }

    @Test(arguments: ReceiptField.allCases)
    func receiptFieldIsItsTableRow(_ field: ReceiptField) throws {
        let row = try #require(FieldTable.all.first { $0.scope == .receipt && $0.type == field.rawValue })
        #expect(row.name == Self.snakeCase("\(field)"))
    }

    @Test(arguments: InAppField.allCases)
    func inAppFieldIsItsTableRow(_ field: InAppField) throws {
        let row = try #require(FieldTable.all.first { $0.scope == .inApp && $0.type == field.rawValue })
        #expect(row.name == Self.snakeCase("\(field)"))
    }

    /// Every documented row has a name.
    @Test func everyDocumentedRowIsNamed() {
        let named = Set(ReceiptField.allCases.map(\.rawValue)).union(InAppField.allCases.map(\.rawValue))
        for row in FieldTable.all where row.isDocumented {
            #expect(named.contains(row.type), "\(row.name) has no case")
        }
    }

    @Test func aNamedLookupIsTheNumberedOne() throws {
        let receipt = Receipt.read(
            Fixtures.bytes("Corpus/receipts/appreceiptvalidator-hannes_bear_intro_trial.receipt"))
        #expect(receipt.first(.bundleID)?.text == "net.shinyfrog.bear")
        #expect(receipt.first(.bundleID)?.offset == receipt.first(2)?.offset)
        let record = try #require(receipt.inAppRecords.first)
        #expect(record.first(.productID)?.text != nil)
        #expect(record.first(.productID)?.offset == record.first(1702)?.offset)
    }
}
