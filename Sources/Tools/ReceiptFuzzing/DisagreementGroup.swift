import ReceiptConformance
import ReceiptMutation
import ReceiptSuite

/// One group of disagreements: a class and what it is grouped by — for a wrong acceptance, `rcpt verify`'s finding
/// code; for a wrong rejection, the edit that made the input; for a crash, hang or error, its cause (the edit that made the input, and the signal, exception or exit) —
/// how many inputs fell in it, when it was first hit, and its representative: of the gravest threat among its inputs
/// (so that whether the group fails a run never turns on which input is smaller: a `hash-mismatch` group held a
/// replay of another device's receipt and a signer-only edit of the same size, and gated or not by the order
/// they came in), then the smallest (fewest edits of its seed, then fewest bytes).
package struct DisagreementGroup: Sendable {
    package var kind: Disagreement
    package var code: String
    package var count: Int
    package var representative: GeneratedInput
    package var verdict: ReferenceVerdict
    package var run: ValidatorRun
    /// The input (counted from 1) and the seconds into the campaign at which the group was first hit.
    package var firstInput: Int = 0
    package var firstSeconds: Double = 0

    package var key: String { kind.rawValue + "/" + code }

    /// What a group of `kind` is named by for `input`, with `verdict` and `run`: a wrong verdict by rcpt's finding
    /// code; a crash, hang or error by its cause — the edits that made the input (`payload:nesting`,
    /// `catalogue:foreign-ca`; an edit's detail left out) and how it ended (`SIGSEGV`, `Python traceback`,
    /// `timeout`, `exit 3`).
    package static func code(
        _ kind: Disagreement, input: GeneratedInput, verdict: ReferenceVerdict,
        run: ValidatorRun
    ) -> String {
        switch kind {
        case .acceptedWhatRcptRejects: return verdict.groupCode
        case .rejectedWhatRcptAccepts:
            // rcpt found nothing wrong, so no finding explains the refusal (a warning that happens to be there, such
            // as a high-S signature, least of all): the edit that made the input does, with a claim's value left out.
            let edits = input.edits.filter { $0 != FuzzInputGenerator.staleHash }.map { edit in
                edit.hasPrefix("jws-payload:set ")
                    ? String(edit.split(separator: "=", maxSplits: 1).first ?? Substring(edit)) : edit
            }
            return edits.isEmpty ? "seed" : edits.joined(separator: " then ")
        case .crashed, .timedOut, .errored:
            // The stale device hash a payload edit may keep never explains a crash or a hang: left out of the name.
            let edits = input.edits.filter { $0 != FuzzInputGenerator.staleHash }
                .map { edit in String(edit.split(separator: " ", maxSplits: 1).first ?? Substring(edit)) }
            return (edits.isEmpty ? "seed" : edits.joined(separator: " then ")) + " (" + run.outcome.ending + ")"
        }
    }

    /// Whether `candidate` (with `rcpt verify`'s `verdict` on it) would represent the group better than its
    /// representative: a graver threat, or as grave and smaller.
    package func prefers(_ candidate: GeneratedInput, verdict candidateVerdict: ReferenceVerdict) -> Bool {
        let offered = Self.gravity(CampaignReport.threat(kind, candidate, candidateVerdict))
        let held = Self.gravity(CampaignReport.threat(kind, representative, verdict))
        if offered != held { return offered > held }
        return ValidatorCampaign.smaller(candidate, than: representative)
    }

    /// Whether the representative's threat is graver than `candidate`'s (minimising never trades it away).
    package func graver(than candidate: GeneratedInput, verdict candidateVerdict: ReferenceVerdict) -> Bool {
        Self.gravity(CampaignReport.threat(kind, representative, verdict))
            > Self.gravity(CampaignReport.threat(kind, candidate, candidateVerdict))
    }

    /// A threat's weight: its concern first (security, policy, robustness), then how little it takes to make
    /// (anyone, a replay, the signing key's holder).
    static func gravity(_ threat: Threat) -> Int {
        let concern: [Concern: Int] = [.security: 2, .policy: 1, .robustness: 0]
        let attacker: [Attacker: Int] = [.anyone: 2, .replay: 1, .signer: 0]
        return (concern[threat.concern] ?? 0) * 3 + (attacker[threat.attacker] ?? 0)
    }
}
