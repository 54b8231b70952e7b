/// One signed statement about a subscription's renewal (Apple's renewal info, alone, in a notification, or an entry
/// of verifyReceipt's unsigned `pending_renewal_info`): a snapshot of the renewal at its signing time.
package struct RenewalFact: Sendable, Hashable {
    package var originalTransactionID: String?
    /// The product the customer is subscribed to now.
    package var productID: String?
    /// The product the subscription renews to (differs from `productID` after a downgrade or crossgrade).
    package var autoRenewProductID: String?
    package var autoRenewOn: Bool?
    /// Apple's name for `expirationIntent`, when given.
    package var expirationIntent: String?
    package var isInBillingRetry: Bool
    package var gracePeriodExpiresDate: Int64?
    package var renewalDate: Int64?
    package var evidence: StatusEvidence
    /// Whether a price increase that needs the customer's consent awaits it (`priceIncreaseStatus` 0).
    package var priceIncreasePending = false

    package init(
        originalTransactionID: String?, productID: String?, autoRenewProductID: String?, autoRenewOn: Bool?,
        expirationIntent: String?, isInBillingRetry: Bool, gracePeriodExpiresDate: Int64?,
        renewalDate: Int64? = nil, evidence: StatusEvidence
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.autoRenewProductID = autoRenewProductID
        self.autoRenewOn = autoRenewOn
        self.expirationIntent = expirationIntent
        self.isInBillingRetry = isInBillingRetry
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.renewalDate = renewalDate
        self.evidence = evidence
    }
}

extension RenewalFact {
    /// What JWS renewal info (`JWSRenewalInfoDecodedPayload`) states, its claims read by `claims`. `autoRenewStatus`
    /// is on for 1 and off for 0, Apple's only values: any other says nothing.
    package init(renewalInfo claims: Claims, evidence: StatusEvidence) {
        self.init(
            originalTransactionID: claims.identifier("originalTransactionId"),
            productID: claims.string("productId"), autoRenewProductID: claims.string("autoRenewProductId"),
            autoRenewOn: Self.autoRenew(claims.integer("autoRenewStatus")),
            expirationIntent: claims.enumeration("expirationIntent"),
            isInBillingRetry: claims.bool("isInBillingRetryPeriod") == true,
            gracePeriodExpiresDate: claims.milliseconds("gracePeriodExpiresDate"),
            renewalDate: claims.milliseconds("renewalDate"), evidence: evidence)
        priceIncreasePending = claims.integer("priceIncreaseStatus") == 0
    }

    /// What an entry of Apple's verifyReceipt `pending_renewal_info` states: the object `entry` of `json`.
    package init(verifyReceiptEntry entry: Int, in json: VerifyReceiptJSON, evidence: StatusEvidence) {
        self.init(
            originalTransactionID: json.text("original_transaction_id", in: entry),
            productID: json.text("product_id", in: entry),
            autoRenewProductID: json.text("auto_renew_product_id", in: entry),
            autoRenewOn: Self.autoRenew(json.text("auto_renew_status", in: entry).flatMap(Int64.init)),
            expirationIntent: json.text("expiration_intent", in: entry).flatMap(Int64.init)
                .flatMap { AppleEnumeration.name(of: "expirationIntent", value: $0) },
            isInBillingRetry: json.text("is_in_billing_retry_period", in: entry) == "1",
            gracePeriodExpiresDate: json.milliseconds("grace_period_expires_date", in: entry), evidence: evidence)
    }

    /// Apple's auto-renew status: 1 on, 0 off; nil for any other number.
    static func autoRenew(_ status: Int64?) -> Bool? {
        switch status {
        case 1: true
        case 0: false
        default: nil
        }
    }

    /// Whether the subscription is in its billing grace period at `instant` (milliseconds): Apple owes service
    /// until `gracePeriodExpiresDate`.
    package func inGracePeriod(at instant: Int64) -> Bool {
        gracePeriodExpiresDate.map { $0 > instant } ?? false
    }
}
