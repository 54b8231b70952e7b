import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptModel
import ReceiptPKCS7

/// One embedded certificate: where it is, and what OpenSSL decoded from it (or why it could not).
public struct CertificateReport: Sendable {
    public var embedded: EmbeddedCertificate
    public var certificate: Certificate?
    package var decodeError: CryptoError?
}

/// Everything rcpt knows about one input: the receipt as read, its certificates, signature and chain verdicts,
/// content checks, and every finding. The single source for `dump` and `verify` output.
public struct ReceiptInspection: Sendable {
    public var input: InputSummary
    /// Set when the input held no receipt bytes at all (empty, not base64, a legacy receipt…).
    package var inputError: InputError?
    public var receipt: Receipt?
    public var certificates: [CertificateReport]
    public var signers: [SignerVerification]
    public var verification: VerificationSummary?
    public var findings: [Finding]
    /// What the verdict was bound to by the caller's expectations; nil when the receipt could not be read.
    public var binding: BindingScope? = nil

    /// The error that stopped reading, if any (input, container or payload), in the one shape.
    public var readError: CodedError? {
        if let inputError { return ReceiptReadError(input: inputError).coded }
        return receipt?.error?.coded
    }

    /// Whether the receipt is valid: it was read completely and no finding is an error.
    public var isValid: Bool { readError == nil && !findings.contains { $0.severity == .error } }

    /// The inspection of an input refused before any reader saw it (nothing found in it, or more than one thing).
    package static func refused(_ input: InputSummary, _ error: InputError, findings: [Finding] = [])
        -> ReceiptInspection
    {
        ReceiptInspection(
            input: input, inputError: error, receipt: nil, certificates: [], signers: [], verification: nil,
            findings: findings)
    }
}

extension ReceiptInspection: InspectedDocument {
    public static var kind: DocumentKind { .receipt }

    /// The receipt the classifier found read and judged; an input it refused is unreadable, whatever is in it.
    public static func inspect(_ classified: ClassifiedInput, input: [UInt8], options: InspectionOptions)
        -> ReceiptInspection
    {
        if let refusal = classified.refusal {
            let format = options.inputFormat ?? InputDecoder.detect(input)
            return .refused(
                InputSummary(of: input, format: format.rawValue, digested: options.digestsInput), refusal,
                findings: classified.findings)
        }
        var inspection = ReceiptInspector.inspect(
            classified.bytes, options: options, textOffset: classified.offset ?? 0)
        // Text the classifier decoded (quotes, line breaks or escapes taken out) has no offsets in the input: an
        // error about that text says where in it, and its offset is where the classifier found the document.
        if classified.offset == nil, var error = inspection.inputError, error.offset != nil {
            error.offset = classified.findings.first?.offset
            error.message += " (offsets in the document's text as found, its quoting, line breaks or escapes taken out)"
            inspection.inputError = error
        }
        inspection.findings = classified.findings + inspection.findings
        inspection.input = Inspector.summary(of: input, read: classified, as: inspection.input, options: options)
        return inspection
    }

    public var everyFinding: [Finding] { findings }
}

extension ReceiptInspection: CustomStringConvertible {
    /// A one-line summary: verdict, verification and error-level findings.
    public var description: String {
        let errors = findings.filter { $0.severity == .error }.map(\.code)
        let signature = verification?.signature.rawValue ?? "-"
        let chain = verification?.chain.rawValue ?? "-"
        let read = readError.map { " read error: \($0.code) at \($0.offset ?? 0)" } ?? ""
        return
            "ReceiptInspection(valid: \(isValid), signature: \(signature), chain: \(chain), errors: \(errors)\(read))"
    }
}
