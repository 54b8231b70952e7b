import ReceiptDiagnostics
import ReceiptJSON

/// The JSON types of the claims Apple defines in its JWS payloads (transactions, renewal info, app transactions,
/// notifications and their `data`), from Apple's App Store Server API documentation. A claim of another type is a
/// type confusion a validator can fall for: a `transactionId` as a number beyond 2^53 is rounded by JavaScript, a
/// `quantity` as a string compares as text.
public enum AppleClaims {
    /// Claims Apple sends as JSON strings.
    public static let strings: Set<String> = [
        "transactionId", "originalTransactionId", "webOrderLineItemId", "bundleId", "productId",
        "subscriptionGroupIdentifier", "environment", "type", "inAppOwnershipType", "storefront", "storefrontId",
        "transactionReason", "offerIdentifier", "appAccountToken", "currency", "autoRenewProductId",
        "notificationType", "subtype", "notificationUUID", "version", "bundleVersion", "receiptType",
        "applicationVersion", "originalApplicationVersion", "deviceVerification", "deviceVerificationNonce",
        "signedTransactionInfo", "signedRenewalInfo", "appTransactionId", "originalPlatform",
    ]
    /// Claims Apple sends as JSON numbers.
    public static let numbers: Set<String> = [
        "signedDate", "purchaseDate", "originalPurchaseDate", "expiresDate", "quantity", "revocationDate",
        "revocationReason", "offerType", "appAppleId", "autoRenewStatus", "expirationIntent",
        "gracePeriodExpiresDate", "priceIncreaseStatus", "recentSubscriptionStartDate", "renewalDate",
        "renewalPrice", "price", "status", "receiptCreationDate", "requestDate", "preorderDate",
    ]
    /// Claims Apple sends as JSON booleans.
    public static let booleans: Set<String> = ["isUpgraded", "isInBillingRetryPeriod"]

    /// A finding for every claim at the top level or in `data` whose JSON type is not Apple's.
    public static func typeFindings(_ payload: JSONDocument, offset: (Int) -> Int) -> [Finding] {
        var findings: [Finding] = []
        var objects = [(payload.root, "")]
        if let data = payload.member("data", of: payload.root), payload.nodes[data].kind == .object {
            objects.append((data, "data."))
        }
        for (object, prefix) in objects where payload.nodes[object].kind == .object {
            for child in payload.children(of: object) {
                guard let name = payload.key(child) else { continue }
                let kind = payload.nodes[child].kind
                let expected: String
                if strings.contains(name) {
                    guard kind != .string else { continue }
                    expected = "a string"
                } else if numbers.contains(name) {
                    guard kind != .number else { continue }
                    expected = "a number"
                } else if booleans.contains(name) {
                    guard kind != .true && kind != .false else { continue }
                    expected = "a boolean"
                } else {
                    continue
                }
                let shown = payload.text(child)
                findings.append(Finding(.jwsClaimType, at: offset(payload.nodes[child].start),
                                        "\(prefix)\(name) is \(shown.prefix(60)), not \(expected) as Apple sends it",
                                        fields: [FindingField("path", prefix + name)]))
            }
        }
        return findings
    }
}
