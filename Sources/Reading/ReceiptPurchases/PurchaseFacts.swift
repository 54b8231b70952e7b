import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS

/// What a signed payload states about a purchase at a time, as info findings with the fields a script needs: a
/// refund or revocation (when, why), a subscription active or expired (until when, why), in billing retry or a grace
/// period, auto-renew off, upgraded, family-shared. Facts, never verdicts: none changes validity. The shared codes
/// (`purchase-cancelled`, `subscription-active`, `subscription-expired`) carry the receipt's field names
/// (`product_id`, `transaction_id`, `expires_date`, `cancellation_date`), so one script reads both. What a payload
/// states is read once, as `rcpt status` reads it (`TransactionFact`, `RenewalFact`); the claims give each finding
/// its offset and the value as a person reads it.
package enum PurchaseFacts {
    /// The facts of `payload` (a payload of `kind`) at `time` (seconds since 1970); `offset` maps an offset in the
    /// decoded payload to the input.
    package static func findings(
        _ payload: JSONDocument?, kind: JWSPayloadKind, at time: Int64,
        offset: (Int) -> Int
    ) -> [Finding] {
        guard let payload, payload.nodes.first?.kind == .object else { return [] }
        let claims = Claims(payload)
        func at(_ name: String) -> Int? { claims.node(name).map { offset(payload.nodes[$0].start) } }
        let product = claims.string("productId") ?? claims.string("autoRenewProductId") ?? "(no productId)"
        let identity =
            [FindingField("product_id", product)]
            + (claims.string("transactionId").map { [FindingField("transaction_id", $0)] } ?? [])
            + (claims.string("originalTransactionId").map { [FindingField("original_transaction_id", $0)] } ?? [])
        let milliseconds = ServicePeriod.milliseconds(time)
        let instant = MillisecondUTC.text(milliseconds)
        var findings: [Finding] = []
        /// A fact stated by `claim`, with the purchase's identity and `extra` fields.
        func state(_ code: FindingCode, by claim: String, _ message: String, _ extra: [FindingField] = []) {
            findings.append(Finding(code, at: at(claim), FindingMessage(message), fields: identity + extra))
        }
        // The statements decide; the claims give where each one stands and how a person reads it.
        let unplaced = StatusEvidence.unplaced(kind: kind.rawValue, signedDate: claims.milliseconds("signedDate"))
        switch kind {
        case .transaction:
            let fact = TransactionFact(transaction: claims, evidence: unplaced)
            // A refund or revocation dated after the time judged at was not in force then (as `rcpt status` reads it).
            if fact.revocationDate.map({ $0 <= milliseconds }) ?? false, let revoked = claims.display("revocationDate")
            {
                let reason = claims.display("revocationReason")
                findings.append(
                    Finding(
                        .purchaseCancelled, at: at("revocationDate"),
                        "\(product) was revoked at \(revoked)\(reason.map { " (\($0))" } ?? ""): refunded, or no longer shared",
                        fields: identity + [FindingField("cancellation_date", revoked)]
                            + (reason.map { [FindingField("reason", $0)] } ?? [])))
            } else if fact.kind == .autoRenewableSubscription, fact.expiresDate != nil,
                let shown = claims.display("expiresDate")
            {
                var code = fact.period.stateCode(at: milliseconds)
                // Upgraded, as stated by its signing (the product it moved to grants the service from then; this one
                // never again), as `rcpt status` reads it.
                let upgraded = fact.isUpgraded && (fact.evidence.signedDate.map { $0 <= milliseconds } ?? true)
                if upgraded, code == .subscriptionActive { code = .subscriptionExpired }
                let state =
                    code == .subscriptionActive
                    ? "is active" : code == .subscriptionNotStarted ? "is not yet active" : "is not active"
                let starts =
                    code == .subscriptionNotStarted
                    ? claims.display("purchaseDate").map { ": its period starts at its purchaseDate \($0)" } ?? ""
                    : upgraded
                        ? ": upgraded to another subscription of its group (isUpgraded\(claims.display("signedDate").map { ", stated by \($0)" } ?? ""))"
                        : ""
                let later = fact.revocationDate.flatMap { revoked in
                    revoked > milliseconds ? claims.display("revocationDate").map { "; revoked later, at \($0)" } : nil
                }
                findings.append(
                    Finding(
                        code, at: at("expiresDate"),
                        "\(product) \(state) at \(instant)\(starts) (expiresDate \(shown)\(later ?? ""))",
                        fields: identity + [FindingField("expires_date", shown)]))
            }
            if fact.isFamilyShared {
                state(
                    .purchaseFamilyShared, by: "inAppOwnershipType",
                    "\(product) is shared by a family member (inAppOwnershipType FAMILY_SHARED)")
            }
            if fact.isUpgraded {
                state(
                    .purchaseUpgraded, by: "isUpgraded",
                    "\(product) was upgraded to another subscription of its group (isUpgraded): this transaction no longer grants service"
                )
            }
        case .renewalInfo:
            let fact = RenewalFact(renewalInfo: claims, evidence: unplaced)
            if fact.expirationIntent != nil, let intent = claims.display("expirationIntent") {
                state(
                    .subscriptionExpired, by: "expirationIntent", "\(product) expired: \(intent)",
                    [FindingField("reason", intent)])
            }
            if fact.autoRenewOn == false {
                state(
                    .subscriptionAutoRenewOff, by: "autoRenewStatus",
                    "auto-renew is off: \(product) ends at its expiry unless the customer turns it on")
            }
            if fact.isInBillingRetry {
                state(
                    .subscriptionBillingRetry, by: "isInBillingRetryPeriod",
                    "the App Store is retrying to bill \(product), which failed to renew")
            }
            if fact.inGracePeriod(at: milliseconds), let shown = claims.display("gracePeriodExpiresDate") {
                state(
                    .subscriptionGracePeriod, by: "gracePeriodExpiresDate",
                    "\(product) failed to renew and keeps service in its grace period until \(shown)",
                    [FindingField("grace_period_expires_date", shown)])
            }
        case .appTransaction, .notification, .unknown:
            break
        }
        return findings
    }
}
