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
        "signedTransactionInfo", "signedRenewalInfo", "appTransactionId", "originalPlatform", "revocationType",
        "offerDiscountType", "offerPeriod", "consumptionRequestReason", "externalPurchaseId", "requestIdentifier",
    ]
    /// Claims Apple sends as JSON numbers.
    public static let numbers: Set<String> = [
        "signedDate", "purchaseDate", "originalPurchaseDate", "expiresDate", "quantity", "revocationDate",
        "revocationReason", "offerType", "appAppleId", "autoRenewStatus", "expirationIntent",
        "gracePeriodExpiresDate", "priceIncreaseStatus", "recentSubscriptionStartDate", "renewalDate",
        "renewalPrice", "price", "status", "receiptCreationDate", "requestDate", "preorderDate",
        "revocationPercentage", "failedCount", "succeededCount", "tokenCreationDate", "versionExternalIdentifier",
    ]
    /// The number claims that are dates, in milliseconds since 1970: each must read exactly (`MillisecondDate`).
    public static let dates: Set<String> = [
        "signedDate", "purchaseDate", "originalPurchaseDate", "expiresDate", "revocationDate",
        "gracePeriodExpiresDate", "recentSubscriptionStartDate", "renewalDate", "receiptCreationDate", "requestDate",
        "preorderDate", "tokenCreationDate",
    ]
    /// Date claims whose absence grants service: before 1970 one is an error (`jws-date-unusable`), as readers
    /// split on it between a date then and none. Other dates may be (Xcode dates an app transaction's
    /// originalPurchaseDate in year 1).
    static let endsService: Set<String> = ["expiresDate", "revocationDate", "gracePeriodExpiresDate"]
    /// Claims Apple sends as JSON booleans.
    public static let booleans: Set<String> = ["isUpgraded", "isInBillingRetryPeriod"]

    /// The values Apple's documentation lists for its enumeration claims, as JSON text (a string with its quotes):
    /// what code reading a claim compares it with. The fuzzers' dictionaries and structure-aware mutator draw from
    /// here, so they follow the table.
    public static let enumerations: [String: [String]] = [
        "environment": ["Production", "Sandbox", "Xcode", "LocalTesting"].map(quoted),
        "receiptType": ["Production", "ProductionSandbox", "ProductionVPP", "ProductionVPPSandbox"].map(quoted),
        "type": ["Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription"].map(
            quoted),
        "inAppOwnershipType": ["PURCHASED", "FAMILY_SHARED"].map(quoted),
        "transactionReason": ["PURCHASE", "RENEWAL"].map(quoted),
        "originalPlatform": ["iOS", "macOS", "tvOS", "visionOS"].map(quoted),
        "version": ["2.0"].map(quoted),
        "notificationType": [
            "CONSUMPTION_REQUEST", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW",
            "DID_RENEW", "EXPIRED", "EXTERNAL_PURCHASE_TOKEN", "GRACE_PERIOD_EXPIRED", "OFFER_REDEEMED",
            "ONE_TIME_CHARGE", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED", "RENEWAL_EXTENDED",
            "RENEWAL_EXTENSION", "REVOKE", "SUBSCRIBED", "TEST",
        ].map(quoted),
        "subtype": [
            "INITIAL_BUY", "RESUBSCRIBE", "DOWNGRADE", "UPGRADE", "AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED",
            "VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "GRACE_PERIOD", "PENDING", "ACCEPTED", "BILLING_RECOVERY",
            "PRODUCT_NOT_FOR_SALE", "SUMMARY", "FAILURE", "UNREPORTED",
        ].map(quoted),
        "revocationType": ["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"].map(quoted),
        "offerDiscountType": ["FREE_TRIAL", "ONE_TIME", "PAY_AS_YOU_GO", "PAY_UP_FRONT"].map(quoted),
        "consumptionRequestReason": [
            "UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER",
        ].map(quoted),
        "offerType": ["1", "2", "3", "4"],
        "revocationReason": ["0", "1"],
        "autoRenewStatus": ["0", "1"],
        "expirationIntent": ["1", "2", "3", "4", "5"],
        "priceIncreaseStatus": ["0", "1"],
        "status": ["1", "2", "3", "4", "5"],
        "quantity": ["1"],
    ]

    static func quoted(_ text: String) -> String { "\"\(text)\"" }

    /// The enumerations whose undocumented values are said (`jws-claim-value-undocumented`): the ones a verdict or a
    /// state turns on. Notification types and subtypes are left out: Apple adds new ones.
    static let checkedValues: Set<String> = ["environment", "type", "inAppOwnershipType", "transactionReason"]

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
                    guard kind != .string else {
                        // A value Apple does not document: only the signing key's holder writes one, and readers
                        // split on it (a red team's trial: "production" passed unremarked).
                        if checkedValues.contains(name), let documented = enumerations[name],
                            let value = payload.string(child), !documented.contains(quoted(value))
                        {
                            findings.append(
                                Finding(
                                    .jwsClaimValueUndocumented, at: offset(payload.nodes[child].start),
                                    "\(prefix)\(name) is \(quoted(String(value.prefix(40)))), a value Apple does not document (\(documented.joined(separator: ", "))): a reader that compares without case, or takes an unknown value for one it knows, reads another document",
                                    fields: [FindingField("path", prefix + name)]))
                        }
                        continue
                    }
                    expected = "a string"
                } else if numbers.contains(name) {
                    guard kind != .number else {
                        if dates.contains(name), case .success(let date) = MillisecondDate.read(payload.text(child)),
                            date.isNegative || date.milliseconds == 0
                        {
                            if !date.isNegative {
                                // 0: the epoch itself, never an expiry or a revocation Apple dates, and a date
                                // below 1 is "none" to a reader (Claims.milliseconds, JavaScript's falsy 0).
                                if endsService.contains(name) {
                                    findings.append(
                                        Finding(
                                            .jwsDateUnusable, at: offset(payload.nodes[child].start),
                                            "\(prefix)\(name) is \(payload.text(child).prefix(20)): the epoch itself, which readers disagree on (a date in 1970 to one, none to a reader that takes a date below 1 for none, and JavaScript reads 0 as false: a revocation or an expiry lost)",
                                            fields: [FindingField("path", prefix + name)]))
                                }
                            } else if date.milliseconds == 0, !date.hasFraction {
                                findings.append(
                                    Finding(
                                        .jwsDateUnusable, at: offset(payload.nodes[child].start),
                                        "\(prefix)\(name) is \(payload.text(child).prefix(20)): negative zero is no date, and JavaScript reads it as false",
                                        fields: [FindingField("path", prefix + name)]))
                            } else if endsService.contains(name) {
                                findings.append(
                                    Finding(
                                        .jwsDateUnusable, at: offset(payload.nodes[child].start),
                                        "\(prefix)\(name) is \(payload.text(child).prefix(20)): before 1970, and readers disagree (JavaScript and Apple's libraries take it for a date then, a reader that takes a date below 1 for none reads it as absent: a revocation or an expiry lost)",
                                        fields: [FindingField("path", prefix + name)]))
                            }
                        }
                        // A number past what a double holds (1e400) is infinity to Python, JavaScript and Swift's
                        // JSON readers: Apple's library refuses the token when it makes the claim an integer.
                        // Only a number with an exponent or of hundreds of digits can be: no String for the rest.
                        let written = payload.bytes[payload.nodes[child].start..<payload.nodes[child].end]
                        if !dates.contains(name), written.count > 300 || written.contains(where: { $0 | 0x20 == 0x65 }),
                            let value = Double(payload.text(child).prefix(400)), !value.isFinite
                        {
                            findings.append(
                                Finding(
                                    .jwsClaimType, at: offset(payload.nodes[child].start),
                                    "\(prefix)\(name) is \(payload.text(child).prefix(40)): past what a double holds, infinity to JSON readers, and Apple's library refuses the token",
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
