import ReceiptDiagnostics
import ReceiptInput

/// What each kind of document declares for the one inspection (`Inspection`): its name, how it is read and judged
/// from what the classifier found, and the face every command reads. A new kind of document is one type conforming
/// to this, and one line in `Inspector.kinds`.
public protocol InspectedDocument: Sendable {
    /// The kind every output names the document by.
    static var kind: DocumentKind { get }
    /// Reads and judges the document the classifier found in `input`, the classifier's steps first among its
    /// findings, the input's own size and digest when the document is only part of it.
    static func inspect(_ classified: ClassifiedInput, input: [UInt8], options: InspectionOptions) -> Self

    var input: InputSummary { get }
    var isValid: Bool { get }
    /// The error that stopped reading, in the one shape.
    var readError: CodedError? { get }
    /// Every finding in document order, nested documents' included.
    var everyFinding: [Finding] { get }
    var binding: BindingScope? { get }
}
