import ReceiptJSON
import ReceiptJWS
import ReceiptModel

/// What one signed payload says, for a person in five seconds: a headline, then its facts as named values — Apple's
/// enumeration names beside their numbers, prices in currency units, every date in UTC. The same summary is the
/// text dump's first block, `--brief`, and the JSON `summary` object (`kind`, `headline`, `fields`).
package struct PurchaseSummary: Sendable, Hashable {
    /// `transaction`, `renewal-info`, `app-transaction`, `notification` or `unknown`.
    package var kind: String
    package var headline: String
    /// The facts, in a fixed order, each a claim's name and its value as a person reads it.
    package var fields: [Field]

    package struct Field: Sendable, Hashable {
        package var name: String
        package var value: String
    }

    /// The summary of `payload`, a payload of `kind`.
    package init(_ payload: JSONDocument?, kind: JWSPayloadKind) {
        self.kind = kind.rawValue
        guard let payload, payload.nodes.first?.kind == .object else {
            headline = "a payload that is not a JSON object"
            fields = []
            return
        }
        let claims = Claims(payload)
        switch kind {
        case .transaction:
            fields = claims.fields([
                "productId", "type", "quantity", "purchaseDate", "expiresDate", "transactionReason",
                "price", "offerType", "offerDiscountType", "offerIdentifier", "inAppOwnershipType",
                "isUpgraded", "revocationDate", "revocationReason", "transactionId",
                "originalTransactionId", "originalPurchaseDate", "subscriptionGroupIdentifier",
                "webOrderLineItemId", "storefront", "environment",
            ])
            var words = [
                (claims.display("type") ?? "purchase") + " " + (claims.display("productId") ?? "(no productId)")
                    + (claims.integer("quantity").map { $0 == 1 ? "" : " ×\($0)" } ?? "")
            ]
            if let purchased = claims.display("purchaseDate") {
                words.append("purchased \(purchased)" + (claims.display("transactionReason").map { " (\($0))" } ?? ""))
            }
            if let expires = claims.display("expiresDate") { words.append("expires \(expires)") }
            if let price = claims.display("price") { words.append(price) }
            // What it states is the statement model's reading (as verify's findings and `rcpt status` read it).
            let fact = TransactionFact(
                transaction: claims, evidence: .unplaced(kind: "transaction", signedDate: nil))
            if fact.revocationDate != nil, let revoked = claims.display("revocationDate") {
                words.append("REVOKED \(revoked)" + (claims.display("revocationReason").map { " (\($0))" } ?? ""))
            }
            if fact.isFamilyShared { words.append("family-shared") }
            if fact.isUpgraded { words.append("upgraded") }
            headline = Self.joined(words, environment: claims.display("environment"))
        case .renewalInfo:
            fields = claims.fields([
                "autoRenewProductId", "productId", "autoRenewStatus", "renewalDate", "renewalPrice",
                "expirationIntent", "isInBillingRetryPeriod", "gracePeriodExpiresDate",
                "priceIncreaseStatus", "offerType", "offerIdentifier", "recentSubscriptionStartDate",
                "originalTransactionId", "environment",
            ])
            var words = [
                "renewal of \(claims.display("originalTransactionId") ?? "(no originalTransactionId)")"
                    + (claims.display("autoRenewProductId").map { " to \($0)" } ?? "")
            ]
            if let status = claims.display("autoRenewStatus") { words.append("auto-renew \(status)") }
            if let renews = claims.display("renewalDate") { words.append("renews \(renews)") }
            if let price = claims.display("renewalPrice") { words.append(price) }
            let fact = RenewalFact(renewalInfo: claims, evidence: .unplaced(kind: "renewal-info", signedDate: nil))
            if fact.isInBillingRetry { words.append("in billing retry") }
            if fact.gracePeriodExpiresDate != nil, let grace = claims.display("gracePeriodExpiresDate") {
                words.append("grace period until \(grace)")
            }
            if fact.expirationIntent != nil, let intent = claims.display("expirationIntent") {
                words.append("expired: \(intent)")
            }
            headline = Self.joined(words, environment: claims.display("environment"))
        case .appTransaction:
            fields = claims.fields([
                "bundleId", "applicationVersion", "originalApplicationVersion", "originalPurchaseDate",
                "preorderDate", "receiptCreationDate", "appAppleId", "originalPlatform",
                "appTransactionId", "receiptType",
            ])
            var words = ["app \(claims.display("bundleId") ?? "(no bundleId)")"]
            if let version = claims.display("applicationVersion") { words.append("version \(version)") }
            if let original = claims.display("originalPurchaseDate") {
                words.append(
                    "first bought \(original)"
                        + (claims.display("originalApplicationVersion").map { " (version \($0))" } ?? ""))
            }
            if let preorder = claims.display("preorderDate") { words.append("pre-ordered \(preorder)") }
            headline = Self.joined(words, environment: claims.display("receiptType"))
        case .notification:
            let data = payload.member("data", of: payload.root).flatMap { payload.nodes[$0].kind == .object ? $0 : nil }
            let inner = data.map { Claims(payload, object: $0) }
            fields =
                claims.fields(["notificationType", "subtype", "signedDate", "notificationUUID"])
                + (inner?.fields(["bundleId", "appAppleId", "status", "environment"]) ?? [])
            var words = [
                [claims.display("notificationType"), claims.display("subtype")].compactMap { $0 }
                    .joined(separator: "/") + (inner?.display("bundleId").map { " for \($0)" } ?? "")
            ]
            if let status = inner?.display("status") { words.append("subscription \(status)") }
            if let signed = claims.display("signedDate") { words.append("sent \(signed)") }
            headline = Self.joined(words, environment: inner?.display("environment"))
        case .unknown:
            fields = claims.fields(["bundleId", "productId", "signedDate", "environment"])
            headline =
                "a payload of no kind Apple signs (no notificationType, receiptType, transactionId or autoRenewStatus)"
        }
    }

    static func joined(_ words: [String], environment: String?) -> String {
        words.joined(separator: ", ") + (environment.map { " [\($0)]" } ?? "")
    }
}

/// Apple's prices are in milliunits of the currency: `1990` with `USD` is "1.99 USD" (two decimals, a third only
/// when the milliunits need it); a price that is not an integer is shown as written.
package enum PurchaseSummaryPrice {
    package static func text(_ text: String, currency: String?) -> String {
        guard let milliunits = Int64(text), milliunits > Int64.min else { return text }
        let negative = milliunits < 0
        let magnitude = negative ? -milliunits : milliunits
        var fraction = String(magnitude % 1000)
        while fraction.count < 3 { fraction = "0" + fraction }
        if fraction.hasSuffix("0") { fraction.removeLast() }
        return (negative ? "-" : "") + "\(magnitude / 1000).\(fraction)" + (currency.map { " \($0)" } ?? "")
    }
}
