import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// Base64 damaged beyond repair (a character lost or misread by OCR or a copy by hand) is refused as damaged, with
/// where, never taken for a truncated or otherwise broken receipt: nothing rcpt could put back carries Apple's
/// signature, and the support engineer needs to ask for the document again.
@Suite("Damaged pastes: a lost or misread base64 character is said for what it is")
struct DamagedPasteTests {
    static func judged(_ text: String) throws -> Inspection {
        let bytes = Array(text.utf8)
        let options = InspectionOptions(anchors: try TrustAnchors.appleRoot(), now: 1_795_000_000)
        return Inspector.inspect(InputClassifier.classify(bytes), input: bytes, options: options)
    }

    static func base64(_ name: String) -> String { Data(Fixtures.realReceipt(name)).base64EncodedString() }

    @Test(arguments: Fixtures.realReceiptNames)
    func aLostCharacterIsDamageNearWhereItWasLost(_ name: String) throws {
        let text = Self.base64(name)
        for fraction in [0.25, 0.5, 0.75] {
            let lost = Int(Double(text.count) * fraction)
            var damaged = Array(text.utf8)
            damaged.remove(at: lost)
            for (shape, pasted, base) in [
                ("one line", String(decoding: damaged, as: UTF8.self), 0),
                ("in a message", "Receipt: " + String(decoding: damaged, as: UTF8.self) + "\nThanks\n", 9),
            ] {
                let judged = try Self.judged(pasted)
                let error = try #require(judged.readError, "\(name) \(shape) \(fraction): read")
                #expect(error.kind == .base64Damaged, "\(name) \(shape) \(fraction): \(error.code) \(error.message)")
                #expect(error.message.contains("lost a character"))
                // Said at or after the lost character: the bytes before it decode as they were.
                if let offset = error.offset {
                    #expect(offset >= base + lost - 4, "\(name) \(shape) \(fraction): \(offset) for \(lost)")
                }
            }
        }
    }

    @Test(arguments: Fixtures.realReceiptNames)
    func aMisreadCharacterIsNamedWhereItStands(_ name: String) throws {
        let text = Self.base64(name)
        let middle = text.index(text.startIndex, offsetBy: text.count / 2)
        let at = try #require(text[middle...].firstIndex(where: { $0 == "l" }))
        let offset = text.distance(from: text.startIndex, to: at)
        let misread = text.replacingCharacters(in: at...at, with: "|")
        for (shape, pasted, base) in [
            ("one line", misread, 0),
            ("wrapped", PastedShapes.wrapped(misread, every: 76) + "\n", offset / 76),
            ("in a message", "Hi, the receipt: " + misread + " thanks", 17),
            // Each line "> " and 76 characters of the base64, the line break after it.
            ("in a mail quote", PastedShapes.quoted(misread, every: 76, with: "> "), offset / 76 * 3 + 2),
        ] {
            let judged = try Self.judged(pasted)
            let error = try #require(judged.readError, "\(name) \(shape)")
            #expect(error.kind == .base64Damaged, "\(name) \(shape): \(error.code) \(error.message)")
            #expect(error.offset == base + offset, "\(name) \(shape)")
            #expect(error.message.contains("\"|\" at offset \(base + offset)"), "\(error.message)")
            #expect(error.message.contains("l, I or 1"))
        }
    }

    /// A lost character in a quoted block is found in the text as unquoted: said there; the error's offset is where
    /// the block starts in the input.
    @Test func aLostCharacterInAQuotedBlockIsDamageToo() throws {
        var text = Array(Self.base64(Fixtures.realReceiptNames[0]).utf8)
        text.remove(at: text.count / 2)
        let quoted = PastedShapes.quoted(String(decoding: text, as: UTF8.self), every: 76, with: "> ")
        let error = try #require(try Self.judged(quoted).readError)
        #expect(error.kind == .base64Damaged, "\(error.message)")
        #expect(error.offset == 2)
        #expect(error.message.contains("as found"), "\(error.message)")
    }

    /// A text cut short stays what it was: truncated, not damaged (the bytes it has are all sound).
    @Test func aCutTextIsStillTruncated() throws {
        let text = Self.base64(Fixtures.realReceiptNames[0])
        for cut in [1, 2, 3, 40] {
            let judged = try Self.judged(String(text.dropLast(cut)))
            #expect(judged.readError?.kind != .base64Damaged, "cut \(cut): \(judged.readError?.message ?? "")")
        }
    }

    /// Prose with a stray character is no damaged base64: too few letters around it.
    @Test func proseWithAPipeIsNoDamage() throws {
        let judged = try Self.judged("MIIB|abc is what the ticket says, nothing more\n")
        #expect(judged.readError?.kind != .base64Damaged)
    }
}
