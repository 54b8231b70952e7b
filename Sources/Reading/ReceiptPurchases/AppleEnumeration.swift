/// Apple's names for the numbered enumerations of the App Store Server API and StoreKit 2 payloads, as Apple's App
/// Store Server Library names them (`offerType` 1 is `INTRODUCTORY_OFFER`). Claims Apple already writes as names
/// (`type`, `inAppOwnershipType`, `offerDiscountType`, `transactionReason`, `environment`, `notificationType`,
/// `subtype`) need no table.
package enum AppleEnumeration {
    /// Apple's name for `value` of the numbered claim `claim`; nil when the claim is not numbered or Apple defines no
    /// such value.
    package static func name(of claim: String, value: Int64) -> String? {
        guard let table = tables[claim] else { return nil }
        return table[value]
    }

    /// Whether `claim` is one of the numbered enumerations.
    package static func isNumbered(_ claim: String) -> Bool { tables[claim] != nil }

    private static let tables: [String: [Int64: String]] = [
        "offerType": [1: "INTRODUCTORY_OFFER", 2: "PROMOTIONAL_OFFER", 3: "OFFER_CODE", 4: "WIN_BACK_OFFER"],
        "revocationReason": [0: "REFUNDED_FOR_OTHER_REASON", 1: "REFUNDED_DUE_TO_ISSUE"],
        "expirationIntent": [
            1: "CUSTOMER_CANCELLED", 2: "BILLING_ERROR", 3: "CUSTOMER_DID_NOT_CONSENT_TO_PRICE_INCREASE",
            4: "PRODUCT_NOT_AVAILABLE", 5: "OTHER",
        ],
        "autoRenewStatus": [0: "OFF", 1: "ON"],
        "priceIncreaseStatus": [
            0: "CUSTOMER_HAS_NOT_RESPONDED", 1: "CUSTOMER_CONSENTED_OR_WAS_NOTIFIED_WITHOUT_NEEDING_CONSENT",
        ],
        "status": [1: "ACTIVE", 2: "EXPIRED", 3: "BILLING_RETRY", 4: "BILLING_GRACE_PERIOD", 5: "REVOKED"],
    ]
}
