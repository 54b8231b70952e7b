import ReceiptDiagnostics
import ReceiptInput

/// One input's inspection, whatever kind of document it holds: the face every command reads (the kind, what was
/// read, the verdict, every finding, the error that stopped reading, what the verdict is bound to), stored once when
/// the inspection is made, over the kind's own detail (`receipt`'s attributes and SignedData, `jws`'s tokens).
/// `dump`, `verify`, `report`, `status`, a batch and `fuzz-validator` all judge an input from this, so one input
/// gets one judgement whatever the command.
public struct Inspection: Sendable {
    public let kind: DocumentKind
    /// The input as read: its size, digest and form.
    public let input: InputSummary
    /// Whether the document was read whole and no finding in it (a nested token's included) is an error.
    public let isValid: Bool
    /// The error that stopped reading, in the one shape every output's `error` object shows; nil when the document
    /// was read.
    public let readError: CodedError?
    /// Every finding in document order: a receipt's, or a JWS document's and then each token's (nested tokens after
    /// their carrier).
    public let findings: [Finding]
    /// What the verdict was bound to by the caller's expectations; nil when the document could not be read.
    public let binding: BindingScope?
    /// The kind's own inspection.
    public let document: any InspectedDocument

    public init(_ document: some InspectedDocument) {
        kind = type(of: document).kind
        input = document.input
        isValid = document.isValid
        readError = document.readError
        findings = document.everyFinding
        binding = document.binding
        self.document = document
    }

    /// The receipt's own inspection, when the input holds a receipt.
    public var receipt: ReceiptInspection? { document as? ReceiptInspection }

    /// The JWS input's own inspection, when the input holds JWS.
    public var jws: JWSInspection? { document as? JWSInspection }

    /// The codes of the findings of `severity`, each once, in document order.
    public func codes(_ severity: Severity) -> [String] {
        var codes: [String] = []
        for finding in findings where finding.severity == severity && !codes.contains(finding.code) {
            codes.append(finding.code)
        }
        return codes
    }
}
