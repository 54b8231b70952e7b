import ReceiptDiagnostics
import ReceiptValidation

/// The line a batch `verify` writes for each input, whatever kind of document it holds: the verdict, the file, and
/// why (the error codes in document order, or what stopped the read).
package enum BatchLine {
    package static func line(_ inspection: Inspection, name: String, style: TextStyle) -> String {
        let shown = TerminalText.safe(name)
        if let error = inspection.readError {
            return VerdictWord.unreadable.styled(style)
                + " \(shown): \(error.code): \(TerminalText.safe(error.message))\n"
        }
        guard !inspection.isValid else {
            return VerdictWord.valid.styled(style) + " \(shown)"
                + BindingText.batchNote(inspection.binding, valid: true) + "\n"
        }
        return VerdictWord.invalid.styled(style) + " \(shown): \(inspection.codes(.error).joined(separator: ", "))\n"
    }

    /// The line of a file that could not be read at all (no such file, an I/O error).
    package static func unreadableFile(name: String, reason: String, style: TextStyle) -> String {
        VerdictWord.unreadable.styled(style) + " \(TerminalText.safe(name)): cannot read the file: \(reason)\n"
    }
}
