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
    /// The number claims that are dates, in milliseconds since 1970: each must read exactly (`MillisecondDate`).
    public static let dates: Set<String> = [
        "signedDate", "purchaseDate", "originalPurchaseDate", "expiresDate", "revocationDate",
        "gracePeriodExpiresDate", "recentSubscriptionStartDate", "renewalDate", "receiptCreationDate", "requestDate",
        "preorderDate",
    ]
    /// Claims Apple sends as JSON booleans.
    public static let booleans: Set<String> = ["isUpgraded", "isInBillingRetryPeriod"]

    /// A finding for every claim at the top level or in a notification's `data` (`summary`,
    /// `externalPurchaseToken`, `appData`) whose JSON type is not Apple's, and for every date claim whose number is
    /// not a usable date.
    package static func typeFindings(_ payload: JSONDocument, offset: (Int) -> Int) -> [Finding] {
        var findings: [Finding] = []
        var objects = [(payload.root, "")]
        for name in JWSBinding.notificationObjects {
            if let object = payload.member(name, of: payload.root), payload.nodes[object].kind == .object {
                objects.append((object, name + "."))
            }
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
                    guard kind != .number else {
                        if dates.contains(name), case .success(let date) = MillisecondDate.read(payload.text(child)),
                            date.isNegative, date.milliseconds == 0, !date.hasFraction
                        {
                            findings.append(
                                Finding(
                                    .jwsDateUnusable, at: offset(payload.nodes[child].start),
                                    "\(prefix)\(name) is \(payload.text(child).prefix(20)): negative zero is no date, and JavaScript reads it as false",
                                    fields: [FindingField("path", prefix + name)]))
                        }
                        if dates.contains(name), case .failure(let problem) = MillisecondDate.read(payload.text(child))
                        {
                            let shown = payload.text(child)
                            findings.append(
                                Finding(
                                    .jwsDateUnusable, at: offset(payload.nodes[child].start),
                                    "\(prefix)\(name) is \(shown.prefix(40))\(shown.count > 40 ? "…" : ""): \(problem.phrase), not a date; it is never read as absent",
                                    fields: [FindingField("path", prefix + name)]))
                        }
                        continue
                    }
                    expected = "a number"
                } else if booleans.contains(name) {
                    guard kind != .true && kind != .false else { continue }
                    expected = "a boolean"
                } else {
                    continue
                }
                let shown = payload.text(child)
                if kind == .null {
                    // Apple's libraries read a null claim as absent: a warning, kept visible, unless --strict.
                    findings.append(
                        Finding(
                            .jwsClaimType, severity: .warning, at: offset(payload.nodes[child].start),
                            "\(prefix)\(name) is null, not \(expected) as Apple sends it: read as absent, as Apple's libraries read it",
                            fields: [
                                FindingField("path", prefix + name),
                                FindingField(Finding.ignorableField, "null claim"),
                            ]))
                    continue
                }
                findings.append(
                    Finding(
                        .jwsClaimType, at: offset(payload.nodes[child].start),
                        "\(prefix)\(name) is \(shown.prefix(60)), not \(expected) as Apple sends it",
                        fields: [FindingField("path", prefix + name)]))
            }
        }
        return findings
    }
}
