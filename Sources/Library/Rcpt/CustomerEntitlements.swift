import Foundation
import ReceiptPurchases
import ReceiptStatus
import ReceiptValidation

/// What a customer owns at a time, decided from a set of verified documents as `rcpt status` decides it: each
/// product's state, the facts it rests on, and where two documents disagree.
public struct CustomerEntitlements: Sendable, Hashable {
    /// The time the states hold at.
    public var date: Date
    /// Every product the documents state a purchase of, in product order.
    public var products: [Entitlement]
    /// Where documents disagree about a transaction, and which statement was used.
    public var conflicts: [EntitlementConflict]
    /// The documents that were not counted (they did not verify, or state no purchase), with why.
    public var notCounted: [NotCounted]

    /// A document that was not counted: its index in the documents given, and why (a finding or error code, such as
    /// `bundle-id-mismatch`, or a note).
    public struct NotCounted: Sendable, Hashable {
        public var index: Int
        public var reason: String
    }

    /// The products whose state grants their service at `date`.
    public var active: [Entitlement] { products.filter(\.grantsService) }
}

/// The state of one product: Apple's subscription states, owned, consumed or refunded for what does not renew, or
/// unknown where the documents state none.
public struct EntitlementState: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let active = EntitlementState(rawValue: PurchaseState.active.rawValue)
    public static let expired = EntitlementState(rawValue: PurchaseState.expired.rawValue)
    public static let billingRetry = EntitlementState(rawValue: PurchaseState.billingRetry.rawValue)
    public static let gracePeriod = EntitlementState(rawValue: PurchaseState.gracePeriod.rawValue)
    public static let revoked = EntitlementState(rawValue: PurchaseState.revoked.rawValue)
    public static let owned = EntitlementState(rawValue: PurchaseState.owned.rawValue)
    public static let consumed = EntitlementState(rawValue: PurchaseState.consumed.rawValue)
    public static let refunded = EntitlementState(rawValue: PurchaseState.refunded.rawValue)
    /// The documents state none: a period ended with nothing about the subscription signed since (it renewed,
    /// failed or ended), renewal info alone that dates no period, a type Apple does not name. Never granted.
    public static let unknown = EntitlementState(rawValue: PurchaseState.unknown.rawValue)
}

/// One product's state at the time, with the facts it rests on.
public struct Entitlement: Sendable, Hashable {
    public var productId: String
    public var state: EntitlementState
    /// Whether the state grants the product's service.
    public var grantsService: Bool
    public var originalTransactionId: String?
    /// The transaction the state rests on: the subscription's newest, a purchase's newest.
    public var transactionId: String?
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: Date?
    public var expiresDate: Date?
    public var revocationDate: Date?
    /// When it stopped granting service, for a state that grants none.
    public var endedDate: Date?
    public var gracePeriodExpiresDate: Date?
    /// Whether the subscription renews, when renewal info says.
    public var autoRenew: Bool?
    /// The product the subscription renews to, when another.
    public var renewsTo: String?
    /// Why, in Apple's words where Apple has them (`CUSTOMER_CANCELLED`, `REFUNDED_DUE_TO_ISSUE`, `upgraded to …`).
    public var reason: String?
    /// Where each fact the state rests on stands, the deciding one first.
    public var evidence: [EntitlementEvidence]

    init(_ status: ProductStatus) {
        func date(_ milliseconds: Int64?) -> Date? {
            milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        }
        productId = status.productID
        state = EntitlementState(rawValue: status.state.rawValue)
        grantsService = status.grantsService
        originalTransactionId = status.originalTransactionID
        transactionId = status.transactionID
        subscriptionGroupIdentifier = status.subscriptionGroup
        purchaseDate = date(status.purchaseDate)
        expiresDate = date(status.expiresDate)
        revocationDate = date(status.revocationDate)
        endedDate = date(status.endedDate)
        gracePeriodExpiresDate = date(status.gracePeriodExpiresDate)
        autoRenew = status.autoRenew
        renewsTo = status.renewsTo
        reason = status.reason
        evidence = status.evidence.map(EntitlementEvidence.init)
    }
}

/// Where a fact stands: the document (its index in the documents given), the path inside it, the byte offset.
public struct EntitlementEvidence: Sendable, Hashable {
    public var document: Int
    /// `in_app[2]`, `data.signedTransactionInfo` …; empty for a document that is one token.
    public var path: String
    public var offset: Int?
    /// `transaction`, `renewal-info`, `receipt-record`.
    public var kind: String
    public var signedDate: Date?

    init(_ evidence: StatusEvidence) {
        document = Int(evidence.document) ?? -1
        path = evidence.path
        offset = evidence.offset
        kind = evidence.kind
        signedDate = evidence.signedDate.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}

/// Two documents that disagree about one transaction's claim, and the statement that was used.
public struct EntitlementConflict: Sendable, Hashable {
    public var transactionId: String
    public var productId: String
    /// `product`, `kind`, `purchase`, `revocation`, `expiry` or `upgrade`.
    public var claim: String
    public var used: String?
    public var overruled: String?
}

extension AppStoreVerifier {
    /// What the customer owns at `date`, from `documents` (receipts, transactions, renewal info, notifications, API
    /// responses, in any order): each is inspected as `inspect` inspects it, and only those it finds valid count (a
    /// valid payload of no kind Apple signs counts, stating nothing).
    public func entitlements(of documents: [[UInt8]], at date: Date = Date()) -> CustomerEntitlements {
        var options = self.options
        options.digestsInput = false
        // Milliseconds, held to the years 1 to 9999 (a time past them is judged at their edge, never trapped on).
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let years = MillisecondUTC.years1To9999
        let at =
            milliseconds.isNaN
            ? 0 : Int64(min(max(milliseconds, Double(years.lowerBound)), Double(years.upperBound - 1)))
        // What is judged at a time of the document's own (a licence's expiration_date) is judged at `date`.
        options.statusTime = EvaluationTime.instant(milliseconds: at)
        // Each document taken as it is read (none held after it), every counted one verified against one app and
        // environment; `perApp` never refuses a mix.
        var collector = CustomerStatus.Collector(at: at)
        for (index, bytes) in documents.enumerated() {
            collector.add(
                StatusDocument(name: String(index), document: Inspector.inspect(bytes, options: options), input: bytes))
        }
        guard case .success(let status) = collector.resolve(perApp: true) else {
            return CustomerEntitlements(
                date: date, products: [], conflicts: [],
                notCounted: documents.indices.map {
                    CustomerEntitlements.NotCounted(index: $0, reason: "the documents are about different apps")
                })
        }
        return CustomerEntitlements(
            date: date, products: status.products.map(Entitlement.init),
            conflicts: status.conflicts.map {
                EntitlementConflict(
                    transactionId: $0.transactionID, productId: $0.productID, claim: $0.claim, used: $0.used.value,
                    overruled: $0.overruled.value)
            },
            notCounted: status.documents.compactMap { use in
                guard use.use != .counted, let index = Int(use.name) else { return nil }
                return CustomerEntitlements.NotCounted(
                    index: index, reason: use.problem ?? use.note ?? use.use.rawValue)
            })
    }
}
