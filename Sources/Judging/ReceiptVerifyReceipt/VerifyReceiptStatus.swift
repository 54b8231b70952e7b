import ReceiptDiagnostics
import ReceiptModel
import ReceiptValidation

/// The `status` of a verifyReceipt response: 0 when `rcpt verify` says valid, otherwise the code Apple documents for
/// that class of failure. Apple's codes that depend on its servers (21000 not a POST, 21004 shared secret, 21005
/// server unavailable, 21009 internal error, 21010 account not found) never come from a receipt alone.
package struct VerifyReceiptStatus: Sendable, Hashable, CustomStringConvertible {
    /// The number the response carries.
    package var code: Int
    /// The finding (or read error) that decided it, when the status is not 0.
    package var reason: String?

    /// The receipt is valid.
    package static let valid = 0
    /// "The data in the receipt-data property was malformed": the input is unreadable, or an error-level finding of
    /// the input, container, payload, values or encoding layer.
    package static let malformed = 21002
    /// "The receipt could not be authenticated": an error-level finding of the signature, chain or content layer
    /// (a signature that does not verify, a chain that does not reach a trusted root, Apple's markers missing, a
    /// bundle id other than the one expected, duplicated fields …).
    package static let notAuthenticated = 21003
    /// "This receipt is from the test environment, but it was sent to the production environment": `--environment
    /// Production` was asked of a Sandbox receipt.
    package static let sandboxReceiptSentToProduction = 21007
    /// "This receipt is from the production environment, but it was sent to the test environment": `--environment
    /// Sandbox` was asked of a Production receipt.
    package static let productionReceiptSentToSandbox = 21008

    package var description: String { reason.map { "\(code) (\($0))" } ?? String(code) }

    /// The status Apple's endpoint gives the inspected receipt, as far as the receipt decides it. A malformed read
    /// outranks a failed authentication, as Apple cannot authenticate what it cannot read.
    package init(_ inspection: ReceiptInspection) {
        if let error = inspection.readError {
            self.init(code: Self.malformed, reason: error.code)
            return
        }
        let errors = inspection.findings.filter { $0.severity == .error }
        if let malformed = errors.first(where: { Self.malformedLayers.contains($0.kind.layer) }) {
            self.init(code: Self.malformed, reason: malformed.code)
        } else if let mismatch = errors.first(where: { $0.kind == .environmentMismatch }) {
            let field = { (name: String) in mismatch.fields.first { $0.name == name }?.value }
            let code: Int
            switch (field("environment"), field("expected")) {
            case ("Sandbox", "Production"): code = Self.sandboxReceiptSentToProduction
            case ("Production", "Sandbox"): code = Self.productionReceiptSentToSandbox
            default: code = Self.notAuthenticated
            }
            self.init(code: code, reason: mismatch.code)
        } else if let other = errors.first {
            self.init(code: Self.notAuthenticated, reason: other.code)
        } else {
            self.init(code: Self.valid, reason: nil)
        }
    }

    package init(code: Int, reason: String?) {
        self.code = code
        self.reason = reason
    }

    /// The layers whose errors mean the data is malformed rather than unauthenticated.
    package static let malformedLayers: Set<FindingLayer> = [.input, .container, .payload, .values, .encoding]

    /// Every status a receipt can produce, with Apple's meaning: the table the README documents.
    package static let documented: [(code: Int, meaning: String, when: String)] = [
        (valid, "the receipt is valid", "rcpt verify says valid"),
        (
            malformed, "the data in the receipt-data property was malformed",
            "unreadable input, or an error of the input, container, payload, values or encoding layer"
        ),
        (
            notAuthenticated, "the receipt could not be authenticated",
            "an error of the signature, chain or content layer"
        ),
        (
            sandboxReceiptSentToProduction, "a test-environment receipt sent to the production environment",
            "--environment Production and a Sandbox receipt"
        ),
        (
            productionReceiptSentToSandbox, "a production receipt sent to the test environment",
            "--environment Sandbox and a Production receipt"
        ),
        // Any other environment mismatch (an Xcode receipt, an unknown type) is 21003.
    ]
}
