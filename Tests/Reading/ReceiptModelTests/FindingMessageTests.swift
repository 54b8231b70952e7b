import Testing

@testable import ReceiptDiagnostics
@testable import ReceiptModel

/// `FindingMessage` builds a finding's sentence with its own interpolation (storage reserved up front). It must
/// write every value exactly as Swift's default interpolation does, whatever the value's type and length.
@Suite("A finding's message reads as the default string interpolation would write it")
struct FindingMessageTests {
    enum Shape: CustomStringConvertible {
        case tall
        var description: String { "a tall shape" }
    }

    struct Opaque {
        var field = 7
    }

    @Test("Each kind of value, in a short and a long sentence")
    func eachKindOfValue() {
        let number = 1_234_567
        let negative: Int64 = -9_223_372_036_854_775_807
        let text = "com.example.app"
        let long = String(repeating: "Ω-long value ", count: 40)
        let slice = text.dropFirst(4)
        let absent: Int? = nil
        let present: Int? = 5
        let place = AttributeDecoder.AttributePlace(offset: 4321)
        let flag = true
        let octet: UInt8 = 0xFE
        let character: Character = "é"
        let field: StaticString = "version"
        let opaque = Opaque()

        let pairs: [(FindingMessage, String)] = [
            ("plain literal", "plain literal"),
            ("", ""),
            ("\(number)", "\(number)"),
            ("type \(negative) at \(number)", "type \(negative) at \(number)"),
            ("\(text): \(slice) and \(character)", "\(text): \(slice) and \(character)"),
            ("\(place): \(field) is \(Shape.tall), not INTEGER", "\(place): \(field) is \(Shape.tall), not INTEGER"),
            (
                "\(String(describing: absent)) \(String(describing: present))",
                "\(String(describing: absent)) \(String(describing: present))"
            ),
            ("\(flag) \(octet) \(opaque)", "\(flag) \(octet) \(opaque)"),
            ("start \(long) middle \(long) end", "start \(long) middle \(long) end"),
            ("\(long)", long),
        ]
        for (message, expected) in pairs {
            #expect(message.text == expected)
            #expect(Array(message.text.utf8) == Array(expected.utf8))
        }
        #expect(FindingMessage(long).text == long)
    }

    @Test("A finding's message is its sentence, built each time it is read, and takes part in equality")
    func findingMessage() {
        let offset = 17
        let finding = Finding(.attributeMalformed, at: offset, "attribute at offset \(offset): cut short")
        #expect(finding.message == "attribute at offset 17: cut short")
        #expect(finding.message == finding.message)
        let other = Finding(.attributeMalformed, at: offset, "attribute at offset \(offset): cut")
        #expect(finding != other)
        #expect(finding == Finding(.attributeMalformed, at: 17, FindingMessage("attribute at offset 17: cut short")))
    }
}
