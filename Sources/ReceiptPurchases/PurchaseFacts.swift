import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS

/// What a signed payload states about a purchase at a time, as info findings with the fields a script needs: a
/// refund or revocation (when, why), a subscription active or expired (until when, why), in billing retry or a grace
/// period, auto-renew off, upgraded, family-shared. Facts, never verdicts: none changes validity. The shared codes
/// (`purchase-cancelled`, `subscription-active`, `subscription-expired`) carry the receipt's field names
/// (`product_id`, `transaction_id`, `expires_date`, `cancellation_date`), so one script reads both.
package enum PurchaseFacts {
    /// The facts of `payload` (a payload of `kind`) at `time` (seconds since 1970); `offset` maps an offset in the
    /// decoded payload to the input.
    package static func findings(_ payload: JSONDocument?, kind: JWSPayloadKind, at time: Int64,
                                 offset: (Int) -> Int) -> [Finding] {
        guard let payload, payload.nodes.first?.kind == .object else { return [] }
        let claims = Claims(payload)
        func at(_ name: String) -> Int? { claims.node(name).map { offset(payload.nodes[$0].start) } }
        let product = claims.string("productId") ?? claims.string("autoRenewProductId") ?? "(no productId)"
        let identity = [FindingField("product_id", product)]
            + (claims.string("transactionId").map { [FindingField("transaction_id", $0)] } ?? [])
            + (claims.string("originalTransactionId").map { [FindingField("original_transaction_id", $0)] } ?? [])
        let instant = MillisecondUTC.text( time * 1000)
        var findings: [Finding] = []
        switch kind {
        case .transaction:
            if let revoked = claims.display("revocationDate"), claims.milliseconds("revocationDate") != nil {
                let reason = claims.display("revocationReason")
                findings.append(Finding(.purchaseCancelled, at: at("revocationDate"),
                                        "\(product) was revoked at \(revoked)\(reason.map { " (\($0))" } ?? ""): refunded, or no longer shared",
                                        fields: identity + [FindingField("cancellation_date", revoked)]
                                            + (reason.map { [FindingField("reason", $0)] } ?? [])))
            } else if claims.string("type") == "Auto-Renewable Subscription",
                      let expires = claims.milliseconds("expiresDate"), let shown = claims.display("expiresDate") {
                let active = expires / 1000 > time && (claims.milliseconds("purchaseDate").map { $0 / 1000 <= time } ?? true)
                findings.append(Finding(active ? .subscriptionActive : .subscriptionExpired, at: at("expiresDate"),
                                        "\(product) \(active ? "is active" : "is not active") at \(instant) (expiresDate \(shown))",
                                        fields: identity + [FindingField("expires_date", shown)]))
            }
            if claims.string("inAppOwnershipType") == "FAMILY_SHARED" {
                findings.append(Finding(.purchaseFamilyShared, at: at("inAppOwnershipType"),
                                        "\(product) is shared by a family member (inAppOwnershipType FAMILY_SHARED)",
                                        fields: identity))
            }
            if claims.bool("isUpgraded") == true {
                findings.append(Finding(.purchaseUpgraded, at: at("isUpgraded"),
                                        "\(product) was upgraded to another subscription of its group (isUpgraded): this transaction no longer grants service",
                                        fields: identity))
            }
        case .renewalInfo:
            if let intent = claims.display("expirationIntent") {
                findings.append(Finding(.subscriptionExpired, at: at("expirationIntent"),
                                        "\(product) expired: \(intent)",
                                        fields: identity + [FindingField("reason", intent)]))
            }
            if claims.integer("autoRenewStatus") == 0 {
                findings.append(Finding(.subscriptionAutoRenewOff, at: at("autoRenewStatus"),
                                        "auto-renew is off: \(product) ends at its expiry unless the customer turns it on",
                                        fields: identity))
            }
            if claims.bool("isInBillingRetryPeriod") == true {
                findings.append(Finding(.subscriptionBillingRetry, at: at("isInBillingRetryPeriod"),
                                        "the App Store is retrying to bill \(product), which failed to renew",
                                        fields: identity))
            }
            if let grace = claims.milliseconds("gracePeriodExpiresDate"), let shown = claims.display("gracePeriodExpiresDate"),
               grace / 1000 > time {
                findings.append(Finding(.subscriptionGracePeriod, at: at("gracePeriodExpiresDate"),
                                        "\(product) failed to renew and keeps service in its grace period until \(shown)",
                                        fields: identity + [FindingField("grace_period_expires_date", shown)]))
            }
        case .appTransaction, .notification, .unknown:
            break
        }
        return findings
    }
}
