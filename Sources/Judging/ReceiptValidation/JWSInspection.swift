import ReceiptDiagnostics
import ReceiptInput
import ReceiptJWS

/// Everything rcpt knows about a JWS input: how it was wrapped, each token's verdict, what the document around the
/// tokens shows, and why it could not be read.
public struct JWSInspection: Sendable {
    public var input: InputSummary
    public var jws: JWSInput?
    public var readError: JWSReadError?
    public var tokens: [JWSVerification]
    /// Findings about the input as a whole: the unsigned JSON around the tokens (unreadable token positions,
    /// duplicate names, tokens with characters around them) and whether its tokens agree on the app and environment.
    public var findings: [Finding] = []
    /// What the verdict was bound to by the caller's expectations; nil when the input could not be read.
    public var binding: BindingScope? = nil

    public var isValid: Bool {
        readError == nil && !tokens.isEmpty && tokens.allSatisfy(\.isValid)
            && !findings.contains { $0.severity == .error }
    }
}

extension JWSInspection: InspectedDocument {
    public static var kind: DocumentKind { .jws }

    /// The JWS the classifier found (as it read them, when it did) read and judged.
    public static func inspect(_ classified: ClassifiedInput, input: [UInt8], options: InspectionOptions)
        -> JWSInspection
    {
        var inspection = JWSInspector.inspect(classified.bytes, options: options, read: classified.jws)
        inspection.findings = classified.findings + inspection.findings
        inspection.input = Inspector.summary(of: input, read: classified, as: inspection.input, options: options)
        return inspection
    }

    /// The document's findings and then each token's, nested tokens after their carrier.
    public var everyFinding: [Finding] {
        var findings = findings
        var pending = Array(tokens.reversed())
        while let token = pending.popLast() {
            findings += token.findings
            pending += token.nested.reversed()
        }
        return findings
    }
}
