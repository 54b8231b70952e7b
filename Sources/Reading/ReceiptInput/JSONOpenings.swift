import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel

/// The openings (`{`, `[`) of running text, each tried as the start of a JSON body that holds a document, so a
/// document inside one is read with the body around it and judged with it, wherever it stands in the text.
///
/// The work stays linear in the text: a JSON value that holds no document holds none inside it either, so no opening
/// inside one is tried again; an opening that closes nowhere costs a scan to the end of the text, and those scans
/// share a budget. An opening left untried once the budget is spent could have started a body, so a document found
/// after it is refused (`checked`), never read bare.
struct JSONOpenings {
    let text: [UInt8]
    /// The bytes the closing-brace scans may still look at.
    private var budget: Int
    /// Openings before this offset lie inside a JSON value already read that holds no document.
    private var readUntil = 0
    /// The first opening left untried once the budget was spent.
    private var untried: Int?

    init(_ text: [UInt8]) {
        self.text = text
        let (scaled, overflow) = text.count.multipliedReportingOverflow(by: 16)
        budget = overflow ? Int.max : scaled + (1 << 20)
    }

    /// The end of the JSON value that opens at `index` when it is, or holds, a document; nil otherwise.
    mutating func document(at index: Int) -> Int? {
        guard index >= readUntil else { return nil }
        guard budget > 0 else {
            if untried == nil { untried = index }
            return nil
        }
        let end = PastedDocument.closingBrace(text, from: index)
        budget -= (end ?? text.count) - index
        guard let end else { return nil }
        let bytes = Array(text[index..<end])
        guard let document = try? JSONDocument.read(bytes) else { return nil }
        if PastedDocument.holdsDocument(json: bytes, document) { return end }
        readUntil = end
        return nil
    }

    /// `found` as found bare, or refused when an opening before it was left untried: the document might stand in a
    /// JSON body whose other members its reader would have judged.
    func checked(_ found: PastedDocument.Found) -> PastedDocument.Found {
        guard found.damage == nil, let untried, untried < found.start else { return found }
        var refused = found
        refused.damage = InputError(
            .inputAmbiguous,
            "the text has more unclosed braces and brackets before the document at offset \(found.start) than rcpt follows, so whether it stands in a JSON body (whose other members count) is not known: paste the document, or its JSON body, alone",
            at: untried)
        return refused
    }
}
