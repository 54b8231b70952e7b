import ReceiptConformance
import ReceiptMutation
import ReceiptSuite

/// Which disagreement groups fail a campaign: any group of a class not `--allow`ed, except an input the validator
/// accepted and rcpt rejects whose concern the gate does not fail on (robustness, unless `--fail-on robustness`):
/// that one is reported with who could make it. Crashes, hangs and errors always fail, whatever made the input.
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
        guard group.kind == .acceptedWhatRcptRejects else { return true }
        return gate.concerns.contains(CampaignReport.threat(group).concern)
    }

    /// Why a group that does not fail is only reported: allowed, or of a concern not gated.
    package func note(_ group: DisagreementGroup) -> String? {
        if allowed.contains(group.kind) { return "allowed" }
        guard !fails(group) else { return nil }
        return "reported: \(CampaignReport.threat(group).concern.rawValue), not gated"
    }
}
