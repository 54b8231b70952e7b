import ReceiptPurchases

/// What a support engineer acts on beside a product's state, from the statements signed by the time (a support
/// engineer's trial: "charged after my trial", a price increase the customer never answered, an open refund request
/// were all invisible).
extension Resolver {
    /// The notes on `product`, from `facts`: the statements of its product signed by the time.
    func notes(for product: ProductStatus, statements facts: [TransactionFact]) -> [String] {
        var notes: [String] = []
        if let id = product.transactionID, let offer = facts.first(where: { $0.transactionID == id })?.offer {
            notes.append("transaction \(id) was bought with an offer: \(offer)")
        }
        if product.state.grantsService, product.autoRenew == true,
            let renewal = renewal(of: product.originalTransactionID),
            renewal.priceIncreasePending
        {
            let signed = renewal.evidence.signedDate.map { MillisecondUTC.text($0) } ?? "(no signedDate)"
            notes.append(
                "a price increase awaits the customer's consent (priceIncreaseStatus 0, renewal info signed \(signed)): without it, the subscription expires at its next renewal"
            )
        }
        // When each transaction was last answered by a refund or its refusal.
        var settled: [String: Int64] = [:]
        for fact in facts
        where fact.revocationDate != nil || fact.evidence.notification?.hasPrefix("REFUND_DECLINED") == true {
            guard let id = fact.transactionID else { continue }
            settled[id] = max(settled[id] ?? Int64.min, fact.evidence.signedDate ?? Int64.min)
        }
        for request in facts where request.evidence.notification?.hasPrefix("CONSUMPTION_REQUEST") == true {
            guard let id = request.transactionID, let asked = request.evidence.signedDate else { continue }
            if (settled[id] ?? Int64.min) < asked {
                notes.append(
                    "the customer asked for a refund of transaction \(id): Apple asked for consumption information at \(MillisecondUTC.text(asked)) (CONSUMPTION_REQUEST), and no refund or refusal signed since is among the documents"
                )
            }
        }
        return Array(Set(notes)).sorted()
    }

    /// Whether a statement was signed by the time asked about (one with no signing date counts).
    func signedByTheTime(_ evidence: StatusEvidence) -> Bool { (evidence.signedDate ?? Int64.min) <= at }
}
