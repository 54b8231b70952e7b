import ReceiptConformance
import ReceiptMutation
import ReceiptSuite
import Testing

@testable import ReceiptFuzzing

/// A campaign judges a disagreement as `rcpt conformance` judges the same input: a trial's campaign failed on a
/// careful DER-only validator's refusal of a BER payload only the signer can make, which conformance, replaying the
/// same findings folder, called over-strict and passed (session 29).
@Suite("Campaign gate: as conformance judges")
struct CampaignGateTests {
    static func group(_ kind: Disagreement, edit: String, codes: [String], valid: Bool, outcome: RunOutcome)
        -> DisagreementGroup
    {
        DisagreementGroup(
            kind: kind, code: edit, count: 1,
            representative: GeneratedInput(bytes: [0x30], seed: 0, edits: [edit], isJWS: false),
            verdict: ReferenceVerdict(isValid: valid, codes: codes),
            run: ValidatorRun(outcome: outcome, seconds: 0, stderrTail: "", stdoutTail: ""))
    }

    @Test func aRejectionOfWhatRcptAcceptsIsOverStrictNotAFailure() {
        let strict = Self.group(
            .rejectedWhatRcptAccepts, edit: "catalogue:ber-indefinite-payload", codes: [], valid: true,
            outcome: .rejected(status: 1))
        #expect(!CampaignGate().fails(strict))
        #expect(CampaignGate().note(strict)?.contains("over-strict") == true)
        let crash = Self.group(
            .crashed, edit: "catalogue:ber-indefinite-payload", codes: [], valid: true,
            outcome: .crashed(signal: 11))
        #expect(CampaignGate().fails(crash))
        let forged = Self.group(
            .acceptedWhatRcptRejects, edit: "catalogue:foreign-ca", codes: ["chain-invalid"], valid: false,
            outcome: .accepted)
        #expect(CampaignGate().fails(forged))
    }

    /// A crash on a signer's shape is the signer's to cause, whatever rcpt refuses the input for besides: a
    /// reviewer's trial saw a crash on `attribute-two-fields` labelled a replay (security) for its incidental
    /// bundle-id-mismatch. An acceptance of a catalogue entry is labelled as the catalogue labels it, as
    /// `conformance` does (a trial: `bundle-id-as-integer` accepted was a replay, security, here and signer,
    /// robustness there); of a random edit rcpt refuses for another app, a replay.
    @Test func aGroupIsLabelledByTheEditsThatMadeIt() throws {
        let crash = Self.group(
            .crashed, edit: "catalogue:attribute-two-fields", codes: ["attribute-field-count", "bundle-id-mismatch"],
            valid: false, outcome: .crashed(signal: 11))
        #expect(CampaignReport.threat(crash).attacker == .signer)
        for name in ["attribute-two-fields", "bundle-id-as-integer", "other-bundle-id"] {
            let entry = try #require(MutationCatalogue.named(name))
            let accepted = Self.group(
                .acceptedWhatRcptRejects, edit: "catalogue:\(name)", codes: ["bundle-id-mismatch"], valid: false,
                outcome: .accepted)
            #expect(CampaignReport.threat(accepted) == entry.threat, "\(name)")
        }
        let random = Self.group(
            .acceptedWhatRcptRejects, edit: "payload:value type=2", codes: ["bundle-id-mismatch"], valid: false,
            outcome: .accepted)
        #expect(CampaignReport.threat(random).attacker == .replay)
    }
}
