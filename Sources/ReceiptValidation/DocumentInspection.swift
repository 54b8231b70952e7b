import ReceiptDiagnostics
import ReceiptModel

/// One input's inspection, whatever kind of document it holds: the face every command reads (what was read, the
/// verdict, the codes it rests on, the error that stopped reading) over each kind's own detail (a receipt's
/// attributes and SignedData, a JWS's tokens). `dump`, `verify`, a batch and `fuzz-validator` all judge an input
/// from this, so one input gets one judgement whatever the command.
public enum DocumentInspection: Sendable {
    case receipt(Inspection)
    case jws(JWSInspection)

    /// `receipt` or `jws`.
    public var kind: String {
        switch self {
        case .receipt: return "receipt"
        case .jws: return "jws"
        }
    }

    /// The input as read: its size, digest and form.
    public var input: InputSummary {
        switch self {
        case .receipt(let inspection): return inspection.input
        case .jws(let inspection): return inspection.input
        }
    }

    /// Whether the document was read whole and no finding in it (a nested token's included) is an error.
    public var isValid: Bool {
        switch self {
        case .receipt(let inspection): return inspection.isValid
        case .jws(let inspection): return inspection.isValid
        }
    }

    /// The error that stopped reading, as every output's `error` object shows it; nil when the document was read.
    public var readError: DocumentReadError? {
        switch self {
        case .receipt(let inspection):
            return inspection.readError.map {
                DocumentReadError(layer: $0.layer.rawValue, code: $0.code, offset: $0.offset, message: $0.message)
            }
        case .jws(let inspection):
            return inspection.readError.map {
                DocumentReadError(layer: $0.kind.layer.rawValue, code: $0.code, offset: $0.offset, message: $0.message)
            }
        }
    }

    /// Every finding in document order: a receipt's, or a JWS document's and then each token's (nested tokens after
    /// their carrier).
    public var findings: [Finding] {
        switch self {
        case .receipt(let inspection): return inspection.findings
        case .jws(let inspection):
            var findings = inspection.findings
            var pending = Array(inspection.tokens.reversed())
            while let token = pending.popLast() {
                findings += token.findings
                pending += token.nested.reversed()
            }
            return findings
        }
    }

    /// The codes of the findings of `severity`, each once, in document order.
    public func codes(_ severity: Severity) -> [String] {
        var codes: [String] = []
        for finding in findings where finding.severity == severity && !codes.contains(finding.code) {
            codes.append(finding.code)
        }
        return codes
    }
}

/// The error that stopped reading a document, whatever its kind: the layer that refused it, the stable code, where
/// (nil when the reason is not about a place in the input) and why.
public struct DocumentReadError: Sendable, Hashable {
    public var layer: String
    public var code: String
    public var offset: Int?
    public var message: String
}
