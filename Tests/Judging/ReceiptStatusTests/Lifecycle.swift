import ReceiptBatch
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJSON
import ReceiptMutation
import ReceiptPurchases
import ReceiptSigning
import ReceiptStatus
import ReceiptTestSupport
import ReceiptValidation

/// A customer's life with one app, told in documents the App Store signs — StoreKit 2 transactions and renewal
/// info inside notifications and API responses, and receipts — by TEST-ONLY CAs, step by step, so that `rcpt status`
/// can be asked at every step what the customer owns.
struct Lifecycle {
    static let bundleID = "com.example.lifecycle"
    static let day: Int64 = 86_400_000
    /// 2024-01-01T00:00:00Z in milliseconds: day 0 of every lifecycle.
    static let start: Int64 = 1_704_067_200_000

    /// The JWS chain (Apple-shaped, EC) and a foreign one that nothing trusts.
    static let jwsAuthority: TestCertificateAuthority? = try? TestCertificateAuthority.generate(
        shape: .jws, notBefore: TestReceipts.longAgo, notAfter: TestReceipts.farFuture, label: "rcpt status tests")
    static let foreignAuthority: TestCertificateAuthority? = try? TestCertificateAuthority.generate(
        shape: .jws, notBefore: TestReceipts.longAgo, notAfter: TestReceipts.farFuture, label: "foreign status tests")

    /// The instant `days` (and `hours`) after day 0.
    static func at(_ days: Int64, hours: Int64 = 0) -> Int64 { start + days * day + hours * 3_600_000 }

    /// A claim value.
    enum Claim {
        case text(String)
        case number(Int64)
        case flag(Bool)
        /// A JWS, as a string.
        case token(String)
    }

    static func json(_ members: [(String, Claim?)]) -> String {
        "{"
            + members.compactMap { name, value -> String? in
                guard let value else { return nil }
                let written: String
                switch value {
                case .text(let text), .token(let text): written = JSONWriter.literal(text)
                case .number(let number): written = String(number)
                case .flag(let flag): written = String(flag)
                }
                return JSONWriter.literal(name) + ":" + written
            }.joined(separator: ",") + "}"
    }

    static func sign(_ payload: String, by authority: TestCertificateAuthority? = jwsAuthority) throws -> String {
        guard let authority else { throw CryptoError(.keyGenerationFailed, message: "no JWS test CA") }
        return try JWSSigner(authority: authority).sign(payload: Array(payload.utf8))
    }

    static func transaction(
        _ id: String, original: String? = nil, product: String,
        type: String = "Auto-Renewable Subscription", purchased: Int64, expires: Int64? = nil,
        group: String? = "21000001", revoked: Int64? = nil, reason: Int64? = nil,
        revocationType: String? = nil, revocationPercentage: Int64? = nil,
        upgraded: Bool = false, familyShared: Bool = false, quantity: Int64 = 1, signed: Int64,
        by authority: TestCertificateAuthority? = jwsAuthority
    ) throws -> String {
        try sign(
            json([
                ("transactionId", .text(id)), ("originalTransactionId", .text(original ?? id)),
                ("bundleId", .text(bundleID)), ("productId", .text(product)),
                ("subscriptionGroupIdentifier", type == "Auto-Renewable Subscription" ? group.map(Claim.text) : nil),
                ("purchaseDate", .number(purchased)), ("originalPurchaseDate", .number(purchased)),
                ("expiresDate", expires.map(Claim.number)), ("quantity", .number(quantity)), ("type", .text(type)),
                ("inAppOwnershipType", .text(familyShared ? "FAMILY_SHARED" : "PURCHASED")),
                ("signedDate", .number(signed)), ("revocationDate", revoked.map(Claim.number)),
                ("revocationReason", reason.map(Claim.number)), ("revocationType", revocationType.map(Claim.text)),
                ("revocationPercentage", revocationPercentage.map(Claim.number)),
                ("isUpgraded", upgraded ? .flag(true) : nil),
                ("environment", .text("Sandbox")), ("transactionReason", .text("PURCHASE")),
                ("storefront", .text("USA")),
                ("price", .number(4990)), ("currency", .text("USD")),
            ]), by: authority)
    }

    static func renewal(
        original: String, product: String, renewsTo: String? = nil, autoRenew: Bool = true,
        intent: Int64? = nil, billingRetry: Bool = false, grace: Int64? = nil, renewalDate: Int64? = nil,
        signed: Int64, by authority: TestCertificateAuthority? = jwsAuthority
    )
        throws -> String
    {
        try sign(
            json([
                ("originalTransactionId", .text(original)), ("autoRenewProductId", .text(renewsTo ?? product)),
                ("renewalDate", renewalDate.map(Claim.number)),
                ("productId", .text(product)), ("autoRenewStatus", .number(autoRenew ? 1 : 0)),
                ("expirationIntent", intent.map(Claim.number)), ("isInBillingRetryPeriod", .flag(billingRetry)),
                ("gracePeriodExpiresDate", grace.map(Claim.number)), ("signedDate", .number(signed)),
                ("environment", .text("Sandbox")), ("recentSubscriptionStartDate", .number(start)),
            ]), by: authority)
    }

    /// A server notification body (`{"signedPayload": …}`) carrying `transaction` and `renewal`.
    static func notification(
        _ type: String, _ subtype: String? = nil, signed: Int64, transaction: String? = nil,
        renewal: String? = nil, status: Int64? = nil, by authority: TestCertificateAuthority? = jwsAuthority
    ) throws -> String {
        let data = json([
            ("bundleId", .text(bundleID)), ("environment", .text("Sandbox")),
            ("signedTransactionInfo", transaction.map(Claim.token)),
            ("signedRenewalInfo", renewal.map(Claim.token)), ("status", status.map(Claim.number)),
        ])
        let payload =
            #"{"notificationType":\#(JSONWriter.literal(type)),"#
            + (subtype.map { #""subtype":\#(JSONWriter.literal($0)),"# } ?? "")
            + #""notificationUUID":"00000000-0000-4000-8000-\#(String(signed % 1_000_000_000_000).leftPadded(12))","#
            + #""data":\#(data),"version":"2.0","signedDate":\#(signed)}"#
        return json([("signedPayload", .token(try sign(payload, by: authority)))])
    }

    /// An App Store Server API transaction history response holding `transactions`.
    /// A SUBSCRIBED/INITIAL_BUY notification of transaction `id`, bought at day 0 and expiring at day 30.
    static func subscribed(_ id: String, product: String) throws -> String {
        try notification(
            "SUBSCRIBED", "INITIAL_BUY", signed: at(0),
            transaction: try transaction(id, product: product, purchased: at(0), expires: at(30), signed: at(0)))
    }

    static func history(_ transactions: [String]) -> String {
        #"{"revision":"1","bundleId":\#(JSONWriter.literal(bundleID)),"environment":"Sandbox","hasMore":false,"#
            + #""signedTransactions":["# + transactions.map(JSONWriter.literal).joined(separator: ",") + "]}"
    }

    /// A receipt of the app, created at `created`, with one in-app record per `records` entry (the names of the
    /// receipt's fields), signed by the TEST-ONLY receipt CA.
    static func receipt(created: Int64, expires: Int64? = nil, records: [[(String, Claim)]]) throws -> [UInt8] {
        func date(_ milliseconds: Int64) -> String { "\"" + MillisecondUTC.text(milliseconds) + "\"" }
        let inApp = records.map { record in
            "{"
                + record.map { name, value -> String in
                    switch value {
                    case .number(let number) where name.hasSuffix("_date"): return "\"\(name)\":\(date(number))"
                    case .number(let number): return "\"\(name)\":\(number)"
                    case .text(let text), .token(let text): return "\"\(name)\":\(JSONWriter.literal(text))"
                    case .flag(let flag): return "\"\(name)\":\(flag)"
                    }
                }.joined(separator: ",") + "}"
        }.joined(separator: ",")
        let spec =
            #"{"receipt_type":"ProductionSandbox","app_item_id":0,"bundle_id":\#(JSONWriter.literal(bundleID)),"#
            + #""application_version":"42","opaque_value":"c1675e0bb980a575a89661fec08aa83b","#
            + #""sha1_hash":"63f1ee08469ccdac9ff735ab278a84ba6d1c170c","receipt_creation_date":\#(date(created)),"#
            + #""original_purchase_date":\#(date(start)),"original_application_version":"1.0","#
            + (expires.map { #""expiration_date":\#(date($0)),"# } ?? "") + #""in_app":[\#(inApp)]}"#
        return try TestReceipts.signed(payload: try ReceiptSpec.blueprint(fromJSON: Array(spec.utf8)).payload)
    }

    /// A monthly subscription (`product`) bought on day 0 that fails to renew on day 30: its transaction, and a
    /// DID_FAIL_TO_RENEW notification (of `subtype`, Apple's `status`) whose renewal info is in billing retry with a
    /// grace period to day 36.
    static func failedRenewal(product: String, subtype: String? = nil, status: Int64? = nil) throws -> Lifecycle {
        var life = Lifecycle()
        life.add(
            "t.jws",
            try transaction(
                "101", original: "100", product: product, purchased: at(0), expires: at(30), signed: at(0)))
        life.add(
            "fail.json",
            try notification(
                "DID_FAIL_TO_RENEW", subtype, signed: at(30),
                renewal: try renewal(
                    original: "100", product: product, billingRetry: true, grace: at(36), signed: at(30)),
                status: status))
        return life
    }

    /// The documents so far, by name.
    var documents: [(name: String, bytes: [UInt8])] = []

    mutating func add(_ name: String, _ text: String) { documents.append((name, Array(text.utf8))) }
    mutating func add(_ name: String, bytes: [UInt8]) { documents.append((name, bytes)) }

    /// What the customer owns at `time`, from the documents so far, read as `rcpt status` reads them.
    func status(
        at time: Int64, includeUnverified: Bool = false, question: CustomerStatus.Question = .entitled
    ) -> Result<CustomerStatus, CustomerStatus.MixedApps> {
        CustomerStatus.resolve(
            Self.read(documents, at: time), at: time, includeUnverified: includeUnverified, question: question)
    }

    /// The documents read as `rcpt status --at time` reads them (nil: no time named, as a library caller reads one).
    static func read(_ documents: [(name: String, bytes: [UInt8])], at time: Int64? = nil) -> [StatusDocument] {
        var options = InspectionOptions(
            anchors: TrustAnchors([jwsAuthority?.root, TestReceipts.authority?.root].compactMap { $0 }))
        options.digestsInput = false
        options.statusTime = time.flatMap(EvaluationTime.instant(milliseconds:))
        return documents.map { document in
            let classified = InputClassifier.classify(document.bytes)
            let inspection = Inspector.inspect(classified, input: document.bytes, options: options)
            return StatusDocument(
                name: document.name, document: inspection, input: document.bytes,
                offset: classified.offset)
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
