import ReceiptJWS
import ReceiptPurchases

/// What the payload states of the purchase at the status time (`--status-at`; else the chain's evaluation time):
/// expired, revoked, upgraded, in a grace period… as facts, not errors.
struct TokenPurchaseFacts: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        let options = judgement.options
        let statusAt =
            options.statusTime?.resolve(signed: judgement.signedAt, now: options.clock).seconds
            ?? judgement.evaluatedAt
        let payloadOffset = judgement.payloadOffset
        judgement.findings += PurchaseFacts.findings(
            judgement.token.payload, kind: judgement.binding.kind, at: statusAt,
            offset: payloadOffset)
    }
}
