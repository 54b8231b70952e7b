import ReceiptJWS
import ReceiptPurchases

/// What the payload states of the purchase at the status time (`--status-at`; else the evaluation time of the
/// outermost token carrying it, or its own): expired, revoked, upgraded, in a grace period… as facts, not errors. A
/// DID_FAIL_TO_RENEW signed in July speaks of July: its transaction, signed in June, is not "active" then (a support
/// engineer's trial: the report said "active at 2024-06-01" of a notification signed on 07-01).
struct TokenPurchaseFacts: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        let options = judgement.options
        let statusAt =
            options.statusTime?.resolve(signed: judgement.signedAt, now: options.clock).seconds
            ?? judgement.carrier?.evaluatedAt ?? judgement.evaluatedAt
        let payloadOffset = judgement.payloadOffset
        judgement.findings += PurchaseFacts.findings(
            judgement.token.payload, kind: judgement.binding.kind, at: statusAt,
            offset: payloadOffset)
    }
}
