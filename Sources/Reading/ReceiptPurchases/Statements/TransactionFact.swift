import ReceiptModel

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
    /// Apple's `revocationPercentage`: the share refunded or revoked, in milliunits (0 to 100 000), when given.
    package var revocationPercentage: Int64?
    package var isUpgraded: Bool
    /// When the upgrade took effect, where the statement dates it: an upgraded transaction's revocationDate (a
    /// receipt's cancellation_date) with no reason.
    package var upgradeDate: Int64?
    package var isFamilyShared: Bool
    /// Units bought: 1 when the statement gives none; nil when it states a quantity that is not a whole number from
    /// 1 up (0, negative, past 2^63, not a number): unknown, never taken for 1.
    package var quantity: Int64?
    package var evidence: StatusEvidence
    /// The offer it was bought with, in Apple's words: `INTRODUCTORY_OFFER FREE_TRIAL`, `OFFER_CODE "SPRING"`.
    package var offer: String?

    /// The milliseconds in one unit of the statement's dates: 1 000 for a receipt's record (whole seconds), 1 for a
    /// JWS or Apple's JSON (milliseconds).
    package var dateUnit: Int64 { evidence.kind == "receipt-record" ? 1000 : 1 }

    package init(
        productID: String, kind: ProductKind, transactionID: String?, originalTransactionID: String?,
        subscriptionGroup: String? = nil, purchaseDate: Int64?, expiresDate: Int64?, revocationDate: Int64?,
        revocationReason: String? = nil, revocationType: String? = nil, revocationPercentage: Int64? = nil,
        isUpgraded: Bool = false, upgradeDate: Int64? = nil,
        isFamilyShared: Bool = false, quantity: Int64? = 1, evidence: StatusEvidence
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
        self.revocationPercentage = revocationPercentage
        self.isUpgraded = isUpgraded
        self.upgradeDate = upgradeDate
        self.isFamilyShared = isFamilyShared
        self.quantity = quantity
        self.evidence = evidence
    }
}

extension TransactionFact {
    /// A stated quantity as units bought: 1 when none is stated (absent, or JSON null, as Apple's readers take it);
    /// nil for a value that is not a whole number from 1 up.
    static func units(_ stated: Int64?, isStated: Bool) -> Int64? {
        guard isStated else { return 1 }
        guard let stated, stated >= 1 else { return nil }
        return stated
    }

    /// The period the transaction grants service for: the one meaning of "active" (`ServicePeriod`).
    package var period: ServicePeriod {
        ServicePeriod(purchased: purchaseDate, expires: expiresDate, revoked: revocationDate)
    }

    /// What a JWS transaction (`JWSTransactionDecodedPayload`) states, its claims read by `claims`. An upgraded
    /// transaction (`isUpgraded`) whose revocationDate has no revocationReason was not refunded: the date is the
    /// upgrade's, as in a receipt (`init(verifyReceiptEntry:in:evidence:)`).
    package init(transaction claims: Claims, evidence: StatusEvidence) {
        let isUpgraded = claims.bool("isUpgraded") == true
        let reason = claims.enumeration("revocationReason")
        self.init(
            productID: claims.string("productId") ?? "(no productId)",
            // A type Apple does not name (missing, another spelling, one added later) with an expiry is a
            // subscription's, as a receipt's record with one is; without one, its kind is unstated: never a
            // purchase owned for ever (a red team's trial).
            kind: claims.string("type").flatMap(ProductKind.init(appleType:))
                ?? (claims.isStated("expiresDate") ? .autoRenewableSubscription : .unstated),
            transactionID: claims.identifier("transactionId"),
            originalTransactionID: claims.identifier("originalTransactionId"),
            subscriptionGroup: claims.identifier("subscriptionGroupIdentifier"),
            purchaseDate: claims.milliseconds("purchaseDate"), expiresDate: claims.milliseconds("expiresDate"),
            revocationDate: isUpgraded && reason == nil ? nil : claims.milliseconds("revocationDate"),
            revocationReason: reason, revocationType: claims.string("revocationType"),
            revocationPercentage: claims.integer("revocationPercentage").flatMap {
                (0...100_000).contains($0) ? $0 : nil
            },
            isUpgraded: isUpgraded,
            upgradeDate: isUpgraded && reason == nil ? claims.milliseconds("revocationDate") : nil,
            isFamilyShared: claims.string("inAppOwnershipType") == "FAMILY_SHARED",
            quantity: Self.units(claims.integer("quantity"), isStated: claims.isStated("quantity")),
            evidence: evidence)
        offer = claims.enumeration("offerType").map { type in
            ([type]
                + [claims.string("offerDiscountType"), claims.string("offerIdentifier").map { "\"\($0)\"" }]
                .compactMap { $0 }).joined(separator: " ")
        }
    }

    /// What a receipt's in-app record states. Its dates are whole seconds (years 1 to 9999: their milliseconds never
    /// overflow); a record with an expiry is an auto-renewable subscription, any other of a kind the receipt omits.
    package init(record: InAppRecord, evidence: StatusEvidence) {
        func text(_ field: InAppField) -> String? {
            guard let attribute = record.first(field) else { return nil }
            return attribute.text ?? attribute.integer.map { String($0) }
        }
        func milliseconds(_ field: InAppField) -> Int64? { record.first(field)?.date?.millisecondsSinceEpoch }
        let purchased = milliseconds(.purchaseDate)
        // Apple writes an empty IA5String where a record has no such date. A record that states an expires_date is
        // a subscription's, and one that states a cancellation_date was cancelled, even when the value does not
        // read as a date (an INTEGER, a BOOLEAN, other text): such a record never becomes a purchase owned for ever
        // (its expiry unknown: expired) nor stays unrefunded (cancelled when bought, the earliest it can have been).
        func states(_ field: InAppField) -> Bool {
            record.first(field).map { $0.text.map { !$0.isEmpty } ?? true } ?? false
        }
        let cancelled =
            states(.cancellationDate) ? milliseconds(.cancellationDate) ?? purchased ?? 0 : nil
        self.init(
            productID: text(.productID) ?? "(no product_id)",
            kind: states(.expiresDate) ? .autoRenewableSubscription : .inAppPurchase,
            transactionID: text(.transactionID), originalTransactionID: text(.originalTransactionID),
            purchaseDate: purchased, expiresDate: milliseconds(.expiresDate),
            revocationDate: cancelled,
            quantity: Self.units(record.first(.quantity)?.integer, isStated: record.first(.quantity) != nil),
            evidence: evidence)
    }

    /// What an entry of Apple's verifyReceipt JSON states (`latest_receipt_info[i]`, `receipt.in_app[i]`): the
    /// object `entry` of `json`, dates from their `_ms` twins.
    /// An upgraded entry (`is_upgraded`) whose cancellation_date has no cancellation_reason was not refunded: Apple
    /// dated the upgrade there.
    package init(verifyReceiptEntry entry: Int, in json: VerifyReceiptJSON, evidence: StatusEvidence) {
        let expires = json.milliseconds("expires_date", in: entry)
        let isUpgraded = json.text("is_upgraded", in: entry) == "true"
        let reason = json.text("cancellation_reason", in: entry)
        self.init(
            productID: json.text("product_id", in: entry) ?? "(no product_id)",
            kind: expires == nil ? .inAppPurchase : .autoRenewableSubscription,
            transactionID: json.text("transaction_id", in: entry),
            originalTransactionID: json.text("original_transaction_id", in: entry),
            subscriptionGroup: json.text("subscription_group_identifier", in: entry),
            purchaseDate: json.milliseconds("purchase_date", in: entry), expiresDate: expires,
            revocationDate: isUpgraded && reason == nil ? nil : json.milliseconds("cancellation_date", in: entry),
            revocationReason: reason.flatMap(Int64.init)
                .flatMap { AppleEnumeration.name(of: "revocationReason", value: $0) },
            isUpgraded: isUpgraded,
            upgradeDate: isUpgraded && reason == nil ? json.milliseconds("cancellation_date", in: entry) : nil,
            isFamilyShared: json.text("in_app_ownership_type", in: entry) == "FAMILY_SHARED",
            quantity: Self.units(
                json.text("quantity", in: entry).flatMap(Int64.init), isStated: json.text("quantity", in: entry) != nil),
            evidence: evidence)
    }
}
