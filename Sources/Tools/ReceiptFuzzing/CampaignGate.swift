import ReceiptConformance
import ReceiptMutation
import ReceiptSuite

/// Which disagreement groups fail a campaign, as `rcpt conformance` judges the same inputs: an input the validator
/// accepted and rcpt rejects fails by its concern (security and policy; robustness with `--fail-on robustness`); one
/// it rejected and rcpt accepts is over-strict, reported and never a failure (a DER-only validator refusing a BER
/// payload only the signer can make costs nothing: a trial's campaign failed on it while conformance, replaying the
/// same input, passed); crashes, hangs and errors always fail. A class `--allow`ed never fails.
package struct CampaignGate: Sendable {
    package var allowed: Set<Disagreement>
    package var gate: Gate

    package init(allowed: Set<Disagreement> = [], gate: Gate = .standard) {
        self.allowed = allowed
        self.gate = gate
    }

    /// Whether `group` fails the campaign.
    package func fails(_ group: DisagreementGroup) -> Bool {
        if allowed.contains(group.kind) { return false }
        switch group.kind {
        case .acceptedWhatRcptRejects:
            let allowed = gate.allowedEntries.contains { group.representative.edits.contains("catalogue:" + $0) }
            return gate.concerns.contains(CampaignReport.threat(group).concern) && !allowed
        case .rejectedWhatRcptAccepts: return false
        case .crashed, .timedOut, .errored: return true
        }
    }

    /// Whether the campaign fails: the validator refused a seed rcpt accepts (nothing else could be judged), or a
    /// group fails.
    package func fails(_ summary: CampaignSummary) -> Bool {
        summary.baselines.contains(where: \.refused) || summary.groups.contains(where: fails)
    }

    /// The concerns whose accepted bad inputs fail the campaign, in `Concern`'s order.
    package var concerns: [Concern] { Concern.allCases.filter(gate.concerns.contains) }

    /// Why a group that does not fail is only reported: allowed, over-strict, or of a concern not gated.
    package func note(_ group: DisagreementGroup) -> String? {
        if allowed.contains(group.kind) { return "allowed" }
        guard !fails(group) else { return nil }
        if group.kind == .rejectedWhatRcptAccepts { return "reported: over-strict, as conformance calls it" }
        return "reported: \(CampaignReport.threat(group).concern.rawValue), not gated"
    }
}
