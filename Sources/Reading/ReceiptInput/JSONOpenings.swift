import ReceiptASN1
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel

/// The openings (`{`, `[`) of running text, each tried as the start of a JSON body that holds a document, so a
/// document inside one is read with the body around it and judged with it, wherever it stands in the text.
///
/// The work stays linear in the text for what people paste. One scan from an opening finds where it and every opening
/// it passes close, or that they do not (a raw line break in a string ends a scan: JSON strings hold none, so a log
/// line cut short costs its own line); a JSON value that holds no document holds none inside it either, so no opening
/// inside one is tried again. Scans that other scans could not settle share a budget, and an opening left untried
/// once it is spent could have started a body: a document found after it is refused (`checked`), never read bare.
struct JSONOpenings {
    let text: [UInt8]
    /// The bytes fresh scans may still look at.
    private var budget: Int
    /// Where each opening a scan passed ends (the offset after its close), or nil when it closes nowhere.
    private var settled: [Int: Int?] = [:]
    /// Openings before this offset lie inside a JSON value already read that holds no document.
    private var readUntil = 0
    /// The first opening left untried once the budget was spent.
    private var untried: Int?

    init(_ text: [UInt8]) {
        self.text = text
        let (scaled, overflow) = text.count.multipliedReportingOverflow(by: 16)
        budget = overflow ? Int.max : scaled + (1 << 20)
    }

    /// The end of the JSON value that opens at `index` when it is, or holds, a document (or is past the JSON reader's
    /// limits, so what it holds is unknown: its reader refuses it); nil otherwise.
    mutating func document(at index: Int) -> Int? {
        guard index >= readUntil else { return nil }
        if settled[index] == nil {
            guard budget > 0 else {
                if untried == nil { untried = index }
                return nil
            }
            budget -= scan(from: index)
        }
        guard let closed = settled[index], let end = closed, startsLikeJSON(at: index) else { return nil }
        // Reading costs the value's length, from the same budget: values nested in values that are not JSON are
        // read one by one.
        guard budget > 0 else {
            if untried == nil { untried = index }
            return nil
        }
        budget -= end - index
        let bytes = Array(text[index..<end])
        let document: JSONDocument
        do {
            document = try JSONDocument.read(bytes)
        } catch {
            // Nested past the reader's limits (a reviewer's trial: a response 130 deep before its latest_receipt was
            // read for the bare receipt): another reader reads it, so it is a document, which its reader refuses.
            return JSONLimits.exceeded.contains(error.kind) ? end : nil
        }
        if PastedDocument.holdsDocument(json: bytes, document) { return end }
        readUntil = end
        return nil
    }

    /// Whether the value opening at `index` starts as JSON does: an object's first member name or its close, an
    /// array's first value or its close (`[INFO]`, `{a` and the braces of code are no JSON, and cost no read).
    private func startsLikeJSON(at index: Int) -> Bool {
        var next = index + 1
        while next < text.count, ByteSet.whitespace.contains(text[next]) { next += 1 }
        guard next < text.count else { return false }
        let byte = text[next]
        if text[index] == UInt8(ascii: "{") { return byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "}") }
        return ByteSet.jsonValueStart.contains(byte) || byte == UInt8(ascii: "]")
    }

    /// Scans from the opening at `start` to its close, settling it and every opening passed on the way; returns the
    /// bytes looked at.
    private mutating func scan(from start: Int) -> Int {
        var open: [Int] = []
        var inString = false
        var index = start
        while index < text.count {
            let byte = text[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                } else if byte < 0x20 {
                    break
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                open.append(index)
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]"), let opening = open.popLast() {
                settled[opening] = .some(index + 1)
                if open.isEmpty { return index + 1 - start }
            }
            index += 1
        }
        for opening in open { settled[opening] = .some(nil) }
        return min(index, text.count) - start
    }

    /// `found` as found bare, or refused when an opening before it was left untried: the document might stand in a
    /// JSON body whose other members its reader would have judged.
    func checked(_ found: PastedDocument.Found) -> PastedDocument.Found {
        guard found.damage == nil, let untried, untried < found.start else { return found }
        var refused = found
        refused.damage = InputError(
            .inputAmbiguous,
            "the text has more braces and brackets before the document at offset \(found.start) than rcpt follows, so whether it stands in a JSON body (whose other members count) is not known: paste the document, or its JSON body, alone",
            at: untried)
        return refused
    }
}

extension ByteSet {
    /// The first byte of a JSON value.
    static let jsonValueStart = ByteSet("0-9{[\"tfn-")
}
