import ReceiptPurchases

/// The state of one product at a time, as `rcpt status` decides it from signed facts, with the facts it rests on.
package struct ProductStatus: Sendable, Hashable {
    package typealias State = PurchaseState

    package var productID: String
    package var kind: ProductKind
    package var state: State
    package var app: StatusApp
    package var subscriptionGroup: String?
    package var originalTransactionID: String?
    /// The transaction the state rests on: the subscription's newest, a purchase's newest.
    package var transactionID: String?
    package var purchaseDate: Int64?
    package var expiresDate: Int64?
    /// When it was refunded or revoked from Family Sharing, by the time.
    package var revocationDate: Int64?
    /// When it stopped granting service, for a state that grants none: the expiry, the revocation, or the purchase of
    /// the product the subscription moved to (an upgrade takes effect at once, a downgrade at the next renewal). For
    /// an active one, when later statements end its service other than at its transaction's expiry: the purchase of
    /// the product it is upgraded to, the renewalDate of a renewal whose transaction is not among the documents.
    package var endedDate: Int64?
    package var gracePeriodExpiresDate: Int64?
    /// Whether the subscription renews (from its newest renewal info at the time); nil when no renewal info says.
    package var autoRenew: Bool?
    /// The product the subscription renews to when that is another one (a downgrade or crossgrade pending).
    package var renewsTo: String?
    /// Purchases counted (a consumable's units bought and not refunded).
    package var quantity: Int64?
    /// Why, in Apple's words where Apple has them: `CUSTOMER_CANCELLED`, `REFUNDED_DUE_TO_ISSUE`, `upgraded to …`.
    package var reason: String?
    /// The facts the state rests on, the deciding one first.
    package var evidence: [StatusEvidence]
    /// The original transaction ids of the other subscriptions of its group (or of the product) that the documents
    /// hold, none of them shared by Family Sharing: one Apple account has one subscription a group, which keeps its
    /// original transaction id through renewals, upgrades and resubscribing, so these documents are of more than one
    /// customer (a replay of another customer's genuine token), and the state answers for none of them.
    package var otherCustomers: [String] = []
    /// Whether the transaction it rests on is shared by Family Sharing (`inAppOwnershipType` FAMILY_SHARED): the
    /// service is the purchaser's, and ends when they stop sharing or their subscription ends.
    package var familyShared = false
    /// What a support engineer acts on beside the state: the offer it was bought with, a price increase awaiting
    /// consent, a refund request Apple asked consumption information for (`StatusNotes`).
    package var notes: [String] = []

    /// Whether any fact it rests on is not verified (added by `--include-unverified`).
    package var restsOnUnverified: Bool { evidence.contains { $0.trust != .verified } }

    /// Whether every fact it rests on is renewal info that no signed statement ties to an app: renewal info names
    /// no app, so any app's with the same product id and environment reads the same (a replay). A notification
    /// that carries it names the app, as does a transaction of its subscription beside it (an API response holds
    /// both); JSON around it that nobody signed (a wrapper, an API response's `bundleId`) ties it to nothing.
    package var restsOnRenewalInfoAlone: Bool {
        !evidence.isEmpty && evidence.allSatisfy { $0.kind == "renewal-info" && $0.notification == nil }
    }

    /// Whether the customer is to be given the product's service: its state grants it, on verified evidence that
    /// names the app, from one customer's documents. A state resting on a document that did not verify
    /// (`--include-unverified`: anyone can make one), on renewal info alone (it names no app), or beside another
    /// customer's subscription of its group, is shown, never granted.
    package var grantsService: Bool {
        state.grantsService && !restsOnUnverified && !restsOnRenewalInfoAlone && otherCustomers.isEmpty
    }
}

/// Two statements about one transaction that disagree: the one `rcpt status` used, and the other.
package struct StatusConflict: Sendable, Hashable {
    package var transactionID: String
    package var productID: String
    /// `product`, `kind`, `purchase`, `revocation`, `expiry` or `upgrade`.
    package var claim: String
    package var used: Statement
    package var overruled: Statement

    package struct Statement: Sendable, Hashable {
        /// The claim as the statement gives it (a date in UTC, a product id, `true`); nil when it gives none.
        package var value: String?
        package var evidence: StatusEvidence
    }
}
