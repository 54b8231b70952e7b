/// What kind of product a purchase is: Apple's `type` of a JWS transaction; a receipt's in-app record says only
/// whether it expires (an auto-renewable subscription) or not (`in-app-purchase`, of a type the receipt omits).
package enum ProductKind: String, Sendable, Hashable {
    case autoRenewableSubscription = "auto-renewable-subscription"
    case nonRenewingSubscription = "non-renewing-subscription"
    case consumable
    case nonConsumable = "non-consumable"
    case inAppPurchase = "in-app-purchase"

    /// The kind Apple's `type` claim names; nil for any other text.
    package init?(appleType: String) {
        switch appleType {
        case "Auto-Renewable Subscription": self = .autoRenewableSubscription
        case "Non-Renewing Subscription": self = .nonRenewingSubscription
        case "Consumable": self = .consumable
        case "Non-Consumable": self = .nonConsumable
        default: return nil
        }
    }
}

/// One signed statement about one transaction: a JWS transaction (alone, in a notification or in an API response),
/// a receipt's in-app record, or an entry of Apple's unsigned verifyReceipt JSON. Dates in milliseconds since 1970.
package struct TransactionFact: Sendable, Hashable {
    package var productID: String
    package var kind: ProductKind
    package var transactionID: String?
    package var originalTransactionID: String?
    package var subscriptionGroup: String?
    package var purchaseDate: Int64?
    package var expiresDate: Int64?
    /// When the App Store refunded the transaction or revoked it from Family Sharing (never set for an upgrade:
    /// Apple marks the upgraded transaction `isUpgraded` and signs a new one).
    package var revocationDate: Int64?
    /// Apple's name for `revocationReason`, when given.
    package var revocationReason: String?
    /// Apple's `revocationType` (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`), when given.
    package var revocationType: String?
    package var isUpgraded: Bool
    package var isFamilyShared: Bool
    package var quantity: Int64
    package var evidence: StatusEvidence

    /// The milliseconds in one unit of the statement's dates: 1 000 for a receipt's record (whole seconds), 1 for a
    /// JWS or Apple's JSON (milliseconds).
    package var dateUnit: Int64 { evidence.kind == "receipt-record" ? 1000 : 1 }

    package init(
        productID: String, kind: ProductKind, transactionID: String?, originalTransactionID: String?,
        subscriptionGroup: String? = nil, purchaseDate: Int64?, expiresDate: Int64?, revocationDate: Int64?,
        revocationReason: String? = nil, revocationType: String? = nil, isUpgraded: Bool = false,
        isFamilyShared: Bool = false, quantity: Int64 = 1, evidence: StatusEvidence
    ) {
        self.productID = productID
        self.kind = kind
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.subscriptionGroup = subscriptionGroup
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.revocationType = revocationType
        self.isUpgraded = isUpgraded
        self.isFamilyShared = isFamilyShared
        self.quantity = quantity
        self.evidence = evidence
    }
}

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

/// Apple's signed word on a subscription's state: a server notification's `data.status` (1 active, 2 expired, 3 in
/// billing retry, 4 in the billing grace period, 5 revoked), about the subscription of the transaction or renewal info
/// the notification carries, at its signing time.
package struct SubscriptionStatusFact: Sendable, Hashable {
    package var originalTransactionID: String?
    package var state: ProductStatus.State
    /// Apple's number for the state, as signed.
    package var code: Int64
    package var evidence: StatusEvidence

    /// The fact for Apple's status `code`; nil for a number Apple does not define.
    package init?(originalTransactionID: String?, code: Int64, evidence: StatusEvidence) {
        let states: [Int64: ProductStatus.State] = [
            1: .active, 2: .expired, 3: .billingRetry, 4: .gracePeriod, 5: .revoked,
        ]
        guard let state = states[code] else { return nil }
        self.originalTransactionID = originalTransactionID
        self.state = state
        self.code = code
        self.evidence = evidence
    }
}
