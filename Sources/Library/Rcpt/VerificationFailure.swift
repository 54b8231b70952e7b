import ReceiptDiagnostics
import ReceiptJWS

/// Why a document was not verified, with every finding that says so (each with its byte offset): the one error a
/// verifier throws.
public struct VerificationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The deciding cause, the first that applies in this order.
    public enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// Not a document rcpt can read (anyone could have made it, a damaged token included): `readError` says why
        /// and where.
        case unreadable
        /// A verified document of another kind than the call asked for.
        case wrongKind(expected: DocumentType, found: DocumentType)
        /// The signature does not verify over the document (anyone could have made it).
        case invalidSignature
        /// The signer does not chain to the trusted roots under Apple's policy at the time asked (`ChainTime`): a
        /// forgery, or a genuine chain outside its validity then.
        case invalidChain
        /// Genuine, but for another app (bundle id or app Apple id): a replay of someone else's document.
        case wrongApp
        /// Genuine, but from another environment (a Sandbox document sent to Production).
        case wrongEnvironment
        /// Genuine, but not bound to the device asked for: issued to another device, or carrying no device binding
        /// (a transaction from the App Store Server API, a receipt without its opaque value).
        case wrongDevice
        /// Any other error: a malformed or contradictory document, an expired receipt …
        case invalid

        public var description: String {
            switch self {
            case .unreadable: return "unreadable"
            case .wrongKind(.other, .other):
                return "verified, but a payload of no kind Apple signs: no typed model (inspect() reads it)"
            case .wrongKind(let expected, let found): return "\(found.phrase), not \(expected.phrase)"
            case .invalidSignature: return "the signature does not verify (anyone could have made it)"
            case .invalidChain:
                return
                    "not signed by a chain to the trusted roots valid at the time asked (a forgery anyone could make, or a genuine chain outside its validity then)"
            case .wrongApp: return "another app's document (a replay)"
            case .wrongEnvironment: return "another environment's document (a replay)"
            case .wrongDevice:
                return "not bound to the device (another device's document, or one bound to none: a replay)"
            case .invalid: return "invalid"
            }
        }
    }

    public var cause: Cause
    /// Every finding of the inspection, warnings included, in document order. Offsets are as `rcpt verify` gives
    /// them: within a token, from the start of the token's text (the string that holds it, in a notification body
    /// or a carrying token); within a receipt, from the start of its DER.
    public var findings: [Finding]
    /// The error that stopped reading, for `.unreadable`.
    public var readError: CodedError?

    public var description: String {
        if let readError { return "unreadable: \(readError)" }
        let errors = findings.filter { $0.severity == .error }.map { "\($0.code) @\($0.offset ?? 0): \($0.message)" }
        return errors.isEmpty ? "\(cause)" : "\(cause): " + errors.joined(separator: "; ")
    }

    /// The failure the findings of an inspection that is not valid amount to.
    init(findings: [Finding], readError: CodedError?) {
        self.findings = findings
        self.readError = readError
        let errors = findings.filter { $0.severity == .error }
        func any(_ codes: Set<FindingCode>) -> Bool { errors.contains { codes.contains($0.kind) } }
        // A nested token that disagrees with its carrier names the claim: its environment is another environment's.
        func disagreesOn(environment: Bool) -> Bool {
            errors.contains { error in
                error.kind == .jwsBindingMismatch
                    && error.fields.contains { $0.name == "claim" && $0.value == "environment" } == environment
            }
        }
        if readError != nil || any([.jwsTokenUnreadable]) {
            // A token inside the document that does not read is as damaged as the document (anyone made it).
            cause = .unreadable
        } else if errors.contains(where: { $0.kind.layer == .signature }) {
            cause = .invalidSignature
        } else if errors.contains(where: { $0.kind.layer == .chain }) {
            cause = .invalidChain
        } else if any([.bundleIdMismatch, .appAppleIdMismatch]) || disagreesOn(environment: false) {
            cause = .wrongApp
        } else if any([.environmentMismatch]) || disagreesOn(environment: true) {
            cause = .wrongEnvironment
        } else if any([.hashMismatch, .jwsDeviceMismatch, .hashUnverifiable, .jwsDeviceUnverifiable]) {
            cause = .wrongDevice
        } else {
            cause = .invalid
        }
    }

    init(expected: DocumentType, found: DocumentType, findings: [Finding]) {
        cause = .wrongKind(expected: expected, found: found)
        self.findings = findings
        readError = nil
    }
}

/// The kinds of document a verifier returns.
public enum DocumentType: String, Sendable, Hashable, CaseIterable {
    case receipt
    case transaction
    case renewalInfo = "renewal-info"
    case notification
    case appTransaction = "app-transaction"
    /// Several signed documents in one (an App Store Server API response), or a payload of no kind Apple signs.
    case other

    /// The kind in words: "a transaction", "renewal info", "an app transaction".
    var phrase: String {
        switch self {
        case .receipt: return "a receipt"
        case .transaction: return "a transaction"
        case .renewalInfo: return "renewal info"
        case .notification: return "a notification"
        case .appTransaction: return "an app transaction"
        case .other: return "several documents, or a payload of no kind Apple signs"
        }
    }

    init(_ kind: JWSPayloadKind) {
        switch kind {
        case .transaction: self = .transaction
        case .renewalInfo: self = .renewalInfo
        case .notification: self = .notification
        case .appTransaction: self = .appTransaction
        case .unknown: self = .other
        }
    }
}
