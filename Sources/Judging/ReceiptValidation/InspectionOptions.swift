import Foundation
import ReceiptASN1
import ReceiptInput
import ReceiptModel
import ReceiptPKCS7

/// How a document is judged, whatever its kind: the anchors, when, what is expected of it, and the bounds of the
/// read. Receipts and JWS take the same options; what a kind does not use (a receipt's container limits for a JWS)
/// is ignored there.
public struct InspectionOptions: Sendable {
    public var anchors: TrustAnchors
    /// The anchors a JWS chains to: Apple's defaults differ per kind (Apple Inc. Root for receipts, Apple Root CA -
    /// G3 for JWS), a user's `--root` serves both.
    package var jwsAnchors: JWSAnchors = .same

    /// Where a JWS's anchors come from.
    package enum JWSAnchors: Sendable {
        /// `anchors`, as for receipts.
        case same
        /// The bundled Apple Root CA - G3, decoded only when a JWS is inspected (a receipt never pays for it).
        case appleRootG3
        case given(TrustAnchors)
    }

    /// The anchors a JWS is verified with (none, so nothing verifies, if the bundled G3 could not be decoded).
    package var resolvedJWSAnchors: TrustAnchors {
        switch jwsAnchors {
        case .same: return anchors
        case .appleRootG3: return (try? TrustAnchors.appleRootG3()) ?? TrustAnchors([])
        case .given(let given): return given
        }
    }
    /// Where chain verifications that succeeded are kept (the process's own cache unless a caller gives another,
    /// a cold one for a test): a chain seen before is not verified again, and the verdict is the same either way.
    package var chainVerifications: ChainVerificationCache = .shared
    public var time: EvaluationTime
    public var expectations: Expectations
    /// When subscriptions are judged active or expired; nil: at the chain's evaluation time.
    package var statusTime: EvaluationTime?
    /// `--input-format`: what every input is read as (a receipt wrapper, or a JWS), whichever command and however
    /// many inputs; nil: the classifier decides.
    package var forcedFormat: ForcedFormat?
    /// The receipt wrapper `forcedFormat` names, if it names one.
    package var inputFormat: InputFormat? { forcedFormat?.receiptFormat }
    public var limits: ASN1Limits
    /// Bounds on the SignedData's repeated parts (signers, certificates, CRLs, digest algorithms).
    package var containerLimits: ContainerLimits = .default
    /// Whether to run the content checks (required attributes, expectations, dates, records). Reading, signature
    /// and chain are always checked; callers that ignore content findings (diff) may skip them.
    package var checksContent = true
    /// Whether the receipt's index keeps the entries of its in-app records. A caller that shows no record (`rcpt
    /// verify`'s text, JSON, JSON lines, JUnit and SARIF; a server that wants the verdict) sets it false: each record
    /// is checked as it is read and its entries dropped, so the inspection's receipt then has records without
    /// attributes, and memory stays that of the input. The judgement is the same.
    public var keepsRecords = true
    /// Whether to take the input's SHA-256 for `InputSummary.sha256` (output that does not show it skips it).
    package var digestsInput = true
    /// Whether a check bound to no app is an error (`binding-required`): `--require-binding`, for CI.
    public var requiresBinding = false
    /// The strict judgement: what Apple's guidance makes ignorable (a malformed value of an undocumented receipt
    /// attribute type, a JWS claim that is null) is an error, not a warning.
    package var strict = false
    /// The current time, unix seconds: what `now`, "expired" and "in the future" mean; nil: the clock, read once
    /// when an inspection starts (so options built once serve a long-running server).
    public var now: Int64?

    /// `now`, or the clock.
    package var clock: Int64 { now ?? Int64(Date().timeIntervalSince1970) }

    /// These options with `now` fixed for one inspection.
    package var pinned: InspectionOptions {
        var options = self
        options.now = clock
        return options
    }

    public init(
        anchors: TrustAnchors, time: EvaluationTime = .signed,
        expectations: Expectations = Expectations(), inputFormat: InputFormat? = nil,
        limits: ASN1Limits = .default, now: Int64? = nil
    ) {
        self.anchors = anchors
        self.now = now
        self.time = time
        self.expectations = expectations
        self.forcedFormat = inputFormat.map { .receipt($0) }
        self.limits = limits
    }
}
