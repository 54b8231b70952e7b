import ReceiptASN1
import ReceiptDiagnostics
import ReceiptDiff
import ReceiptModel
import ReceiptPurchases
import ReceiptValidation

/// Renders a diff for people, in the style of a unified diff: a header naming A and B, the changes grouped by
/// layer (`@@ receipt @@`), each as a path line (`~` changed, `+` added, `-` removed) with the offsets on both
/// sides, then its old value on `-` lines and its new value on `+` lines; where reading stopped; a summary line.
package struct DiffText {
    package var style: TextStyle
    /// Raw values longer than this many bytes are shown truncated (the JSON output always has them whole).
    package var rawPreviewBytes: Int

    package init(style: TextStyle, rawPreviewBytes: Int = 32) {
        self.style = style
        self.rawPreviewBytes = rawPreviewBytes
    }

    /// The whole rendering as one string.
    package func render(_ result: DiffResult) -> String {
        var text = ""
        stream(result) { text += $0 }
        return text
    }

    /// Writes the rendering to `sink` in chunks of about a megabyte.
    package func stream(_ result: DiffResult, to sink: (String) -> Void) {
        var out = header("---", "A", result.a) + header("+++", "B", result.b)
        // A diff reads from A to B: from the newer to the older, "+" is what was taken away since.
        if let madeA = result.a.made, let madeB = result.b.made, madeA > madeB {
            out +=
                style.yellow(
                    "note: A was made after B (\(MillisecondUTC.text(madeA)) and \(MillisecondUTC.text(madeB))): the changes read from the newer to the older; swap them to read what happened since B"
                ) + "\n"
        }
        var layer: DiffLayer?
        for change in result.changes {
            if change.layer != layer {
                layer = change.layer
                out += style.cyan("@@ \(change.layer.rawValue) @@") + "\n"
            }
            out += lines(change)
            if out.utf8.count >= 1 << 20 {
                sink(out)
                out = ""
            }
        }
        for (name, side) in [("A", result.a), ("B", result.b)] {
            guard let error = side.readError else { continue }
            out +=
                style.yellow("! \(name) stopped reading at offset \(error.offset ?? 0): ")
                + "\(error.layer.rawValue): \(TerminalText.safe(error.message)) " + style.dim("(\(error.code))") + "\n"
        }
        out += "\n" + summary(result) + "\n"
        sink(out)
    }

    /// `--- A name  size, format, sha256` (or `+++ B …`).
    func header(_ marker: String, _ name: String, _ side: DiffSide) -> String {
        let input = side.input
        return style.bold("\(marker) \(name) \(TerminalText.safe(side.name))")
            + style.dim("  \(input.size) bytes, \(input.format), sha256 \(input.sha256)") + "\n"
    }

    /// The path line of a change and its value lines.
    func lines(_ change: Change) -> String {
        let marker: String
        switch change.kind {
        case .changed: marker = style.yellow("~")
        case .added: marker = style.green("+")
        case .removed: marker = style.red("-")
        }
        var out = marker + " " + style.bold(TerminalText.safe(change.path.description))
        if let label = change.label { out += "  " + style.dim(TerminalText.safe(label)) }
        let offsets = [change.offsetA.map { "a@\($0)" }, change.offsetB.map { "b@\($0)" }].compactMap { $0 }
        if !offsets.isEmpty { out += "  " + style.dim(offsets.joined(separator: " ")) }
        out += "\n"
        if let old = change.old { out += valueLines(old, marker: "-") }
        if let new = change.new { out += valueLines(new, marker: "+") }
        return out
    }

    /// A value on one or more lines, each starting with `marker`.
    func valueLines(_ value: DiffValue, marker: String) -> String {
        let style = self.style
        let color: (String) -> String = { marker == "-" ? style.red($0) : style.green($0) }
        switch value {
        case .fields(let fields):
            guard !fields.isEmpty else { return color("\(marker)     (no fields)") + "\n" }
            let width = min(28, fields.map(\.name.count).max() ?? 0)
            return fields.map { field in
                let head = "\(marker)     \(TextLayout.rightPad(TerminalText.safe(field.name), width))  "
                guard case .list(let items) = field.value, !items.isEmpty else {
                    return color(head + inline(field.value)) + "\n"
                }
                // One item a line, aligned under the first.
                let indent = "\(marker)     " + String(repeating: " ", count: width + 2)
                return items.enumerated().map { index, item in
                    color((index == 0 ? head : indent) + inline(item)) + "\n"
                }.joined()
            }.joined()
        case .list(let items):
            guard !items.isEmpty else { return color("\(marker)     (none)") + "\n" }
            return items.map { color("\(marker)     \(inline($0))") + "\n" }.joined()
        default:
            return color("\(marker)     \(inline(value))") + "\n"
        }
    }

    /// A value on one line.
    func inline(_ value: DiffValue) -> String {
        switch value {
        case .text(let text): return TerminalText.quoted(text)
        case .word(let word): return TerminalText.safe(word)
        case .epochMilliseconds(let text):
            return TerminalText.safe(text) + (MillisecondUTC.text(ofClaim: text).map { " = \($0)" } ?? "")
        case .number(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .bytes(let bytes): return preview(bytes)
        case .list(let items): return items.isEmpty ? "(none)" : items.map(inline).joined(separator: "; ")
        case .fields(let fields):
            return "{" + fields.map { "\(TerminalText.safe($0.name)): \(inline($0.value))" }.joined(separator: ", ")
                + "}"
        case .null: return "(no value)"
        }
    }

    /// `equal` or `different: N changes (…)`, with what was left out.
    func summary(_ result: DiffResult) -> String {
        var notes: [String] = []
        if result.hiddenEncodingCount > 0 {
            let plural = result.hiddenEncodingCount == 1 ? "difference" : "differences"
            notes.append("\(result.hiddenEncodingCount) encoding \(plural) not shown: --encoding shows them")
        }
        if result.ignoredCount > 0 { notes.append("\(result.ignoredCount) ignored") }
        let tail = notes.isEmpty ? "" : style.dim(" (" + notes.joined(separator: "; ") + ")")
        guard !result.isEqual else { return style.green("equal") + tail }
        let count = result.changes.count
        let kinds =
            "\(result.count(.added)) added, \(result.count(.removed)) removed, "
            + "\(result.count(.changed)) changed"
        let layers = result.countsByLayer.map { "\($0.layer.rawValue) \($0.count)" }.joined(separator: ", ")
        return style.red("different") + ": \(count) change\(count == 1 ? "" : "s") (\(kinds)) in \(layers)" + tail
    }

    /// Hex, cut after `rawPreviewBytes` bytes.
    func preview(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.isEmpty { return "(empty)" }
        if bytes.count <= rawPreviewBytes { return ASN1Primitives.hex(bytes) }
        return ASN1Primitives.hex(bytes.prefix(rawPreviewBytes)) + "… (\(bytes.count) bytes)"
    }

}
