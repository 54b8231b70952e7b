import ReceiptInput

/// The signature and chain verdicts in the shape of `rcpt.dump/1`'s `verification` object.
public struct VerificationSummary: Sendable {
    public enum SignatureStatus: String, Sendable { case valid, invalid, unsupported }
    public enum ChainStatus: String, Sendable { case valid, invalid, unchecked }

    public var signature: SignatureStatus
    public var chain: ChainStatus
    /// Subject of the trusted root the chain ends at, when it verifies.
    package var anchor: String?
    /// The instant (unix seconds) the chain and expiry were evaluated at.
    package var evaluatedAt: Int64
    /// Where that instant came from.
    package var evaluatedAtSource: TimeSource = .creationDate

    /// Where an evaluation time came from.
    package enum TimeSource: String, Sendable {
        case creationDate = "creation-date"
        case now
        case given
        case nowForWantOfCreationDate = "now-no-creation-date"
        /// A JWS payload's `signedDate` (`receiptCreationDate` for an app transaction; a nested token's
        /// `signedDate` for a notification that has none).
        case signedDate = "signed-date"
        case nowForWantOfSignedDate = "now-no-signed-date"

        /// Where `time` resolved to, for a document of `kind` (a receipt is signed at its creation date, a JWS at its
        /// payload's signing claim), when it did or did not fall back to now.
        init(_ time: EvaluationTime, fellBack: Bool, kind: DocumentKind) {
            switch (time, fellBack, kind) {
            case (.now, _, _): self = .now
            case (.date, _, _): self = .given
            case (.signed, false, .receipt): self = .creationDate
            case (.signed, true, .receipt): self = .nowForWantOfCreationDate
            case (.signed, false, .jws): self = .signedDate
            case (.signed, true, .jws): self = .nowForWantOfSignedDate
            }
        }

        /// How the text output says it.
        package var phrase: String {
            switch self {
            case .creationDate: return "the receipt's creation date"
            case .now: return "now"
            case .given: return "the time given with --at"
            case .nowForWantOfCreationDate: return "now, for want of a creation date"
            case .signedDate: return "the payload's signedDate"
            case .nowForWantOfSignedDate: return "now, for want of a signedDate"
            }
        }
    }
    /// Subjects of the chain as built, leaf first.
    public var path: [String]
    public var errors: [String]
}
