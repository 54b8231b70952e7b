import ReceiptJSON

/// Apple's signed word on a subscription's state: a server notification's `data.status` (1 active, 2 expired, 3 in
/// billing retry, 4 in the billing grace period, 5 revoked), about the subscription of the transaction or renewal info
/// the notification carries, at its signing time.
package struct SubscriptionStatusFact: Sendable, Hashable {
    package var originalTransactionID: String?
    /// One of Apple's five subscription states.
    package var state: PurchaseState
    /// Apple's number for the state, as signed.
    package var code: Int64
    package var evidence: StatusEvidence

    /// The fact for Apple's status `code`; nil for a number Apple does not define.
    package init?(originalTransactionID: String?, code: Int64, evidence: StatusEvidence) {
        guard let state = PurchaseState(appleStatusCode: code) else { return nil }
        self.originalTransactionID = originalTransactionID
        self.state = state
        self.code = code
        self.evidence = evidence
    }

    /// The `data.status` a notification payload signs, when it has one (a notification about a subscription).
    package static func code(ofNotification payload: JSONDocument) -> Int64? {
        guard payload.nodes.first?.kind == .object, let data = Claims(payload).node("data"),
            payload.nodes[data].kind == .object
        else { return nil }
        return Claims(payload, object: data).integer("status")
    }
}
