import ReceiptASN1
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases
import ReceiptValidation

/// The app a document is about: its bundle identifier, App Store id and environment, as far as it says them.
package struct StatusApp: Sendable, Hashable {
    package var bundleID: String?
    package var appAppleID: String?
    /// `Production`, `Sandbox`, `Xcode` or `LocalTesting`: a receipt's `receipt_type` read as the environment Apple
    /// names, a JWS payload's `environment`.
    package var environment: String?

    package init(bundleID: String? = nil, appAppleID: String? = nil, environment: String? = nil) {
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.environment = environment
    }

    /// `com.example.app #1234 (Sandbox)`; `no app named (Sandbox)` for a document that names none
    /// (renewal info alone).
    package var text: String {
        let app = bundleID == nil && appAppleID == nil ? "no app named" : nil
        return [app, bundleID, appAppleID.map { "#\($0)" }, "(\(environment ?? "no environment"))"].compactMap { $0 }
            .joined(separator: " ")
    }
}

/// One document given to `rcpt status`, read for the facts it states: its verdict, the app it is about, and each
/// transaction and renewal it signs (a receipt's in-app records; a JWS transaction or renewal info, alone, in a
/// notification or in an API response). A verifyReceipt response also carries Apple's unsigned decoding, kept apart.
package struct StatusDocument: Sendable {
    package var name: String
    /// `receipt`, `transaction`, `renewal-info`, `app-transaction`, `notification REFUND`, `3 tokens`, or
    /// `unreadable`.
    package var description: String
    package var isValid: Bool
    /// Whether a document was read from it at all (its facts then count when it verifies).
    package var isReadable: Bool
    /// Why it does not verify (the first error's code), or why it could not be read.
    package var problem: String?
    /// Why it could not be read, in the reader's words (what to do about it): said beside the code.
    package var readMessage: String?
    package var app: StatusApp
    package var transactions: [TransactionFact] = []
    package var renewals: [RenewalFact] = []
    /// Apple's signed word on subscriptions' states (a notification's `data.status`).
    package var statuses: [SubscriptionStatusFact] = []
    /// What a verifyReceipt response's JSON states beside the receipt it carries: Apple's decoding, unsigned.
    package var unsignedTransactions: [TransactionFact] = []
    package var unsignedRenewals: [RenewalFact] = []
    /// The app Apple's unsigned decoding names.
    package var unsignedApp: StatusApp?
    /// A receipt's `expiration_date` (a Volume Purchase licence), in milliseconds: Apple says to compare it with the
    /// current date, so its facts count only before it.
    package var expires: Int64?

    /// The facts of `document`, read from `input` (the document's bytes as the classifier found them: the whole file,
    /// or the text a response was pasted in) at `offset` (where they stand in the file; nil when the classifier
    /// decoded the text it read, so that no position in it is one in the file).
    package init(name: String, document: Inspection, input: [UInt8], offset: Int? = 0) {
        self.name = name
        isValid = document.isValid
        isReadable = false
        description = "unreadable"
        problem = document.readError.map { $0.code } ?? document.findings.first { $0.severity == .error }?.code
        readMessage = document.readError?.message
        app = StatusApp()
        let trust: StatusEvidence.Trust = document.isValid ? .verified : .unverified
        if let inspection = document.receipt {
            isReadable = document.readError == nil && inspection.receipt != nil
            description =
                isReadable
                ? "receipt"
                : document.readError?.kind == .inputIsVerifyReceiptResponse
                    ? "verifyReceipt response without latest_receipt" : "unreadable"
            if let receipt = inspection.receipt { read(receipt, trust: trust, offset: offset) }
            readVerifyReceiptResponse(input, offset: offset)
        } else if let inspection = document.jws {
            let kinds = inspection.tokens.map { Self.describe($0) }
            isReadable = document.readError == nil && !kinds.isEmpty
            description =
                !isReadable
                ? "unreadable"
                : kinds.count == 1
                    ? kinds[0]
                    : Set(kinds).count == 1 ? "\(kinds.count) × \(kinds[0])" : "\(kinds.count) tokens"
            for token in inspection.tokens {
                read(
                    token, path: token.path, offset: offset.flatMap { Self.add($0, token.offset) }, notification: nil,
                    trust: trust)
            }
            // A page of a history with more after it: what it lacks may change the answer (a red team's trial), and
            // what it holds never shows that no renewal followed (a support engineer's trial had it EXPIRED).
            if isReadable, Self.saysMorePages(input) {
                description += " (a page: hasMore, the pages after it are not among the documents)"
                for index in transactions.indices { transactions[index].evidence.fromPartialPage = true }
                for index in renewals.indices { renewals[index].evidence.fromPartialPage = true }
            }
        }
    }

    /// Whether `input` is an App Store Server API page that says more follow (`"hasMore": true`).
    static func saysMorePages(_ input: [UInt8]) -> Bool {
        guard input.first(where: { !ByteSet.whitespace.contains($0) }) == UInt8(ascii: "{"),
            TextCheck.contains(input, "hasMore"), let document = try? JSONDocument.read(input),
            let node = document.member("hasMore", of: document.root)
        else { return false }
        return document.nodes[node].kind == .true
    }

    /// A document that could not be read at all (no such file, an I/O error): `problem` says why.
    package init(unreadable name: String, problem: String) {
        self.name = name
        description = "unreadable"
        isValid = false
        isReadable = false
        self.problem = problem
        app = StatusApp()
    }

    static func describe(_ token: JWSVerification) -> String {
        guard token.binding.kind == .notification else { return token.binding.kind.rawValue }
        let summary = token.token.payload.flatMap(Self.summary).map { " (\($0))" } ?? ""
        return "notification " + Self.notificationName(token.token.payload) + summary
    }

    static func notificationName(_ payload: JSONDocument?) -> String {
        guard let payload, payload.nodes.first?.kind == .object else { return "(unreadable)" }
        let claims = Claims(payload)
        return [claims.string("notificationType") ?? "(no notificationType)", claims.string("subtype")]
            .compactMap { $0 }.joined(separator: "/")
    }

    /// What a notification's `summary` says (Apple's report on extending the renewal date of every active
    /// subscriber of a product, `RENEWAL_EXTENSION/SUMMARY`): it is about no one customer, so it states no fact
    /// here; nil for a notification without one.
    static func summary(_ payload: JSONDocument) -> String? {
        guard let node = Claims(payload).node("summary"), payload.nodes[node].kind == .object else { return nil }
        let summary = Claims(payload, object: node)
        let counts = [
            summary.integer("succeededCount").map { "\($0) extended" },
            summary.integer("failedCount").map { "\($0) failed" },
        ].compactMap { $0 }
        return "a summary of renewal-date extensions for every subscriber of "
            + (summary.string("productId") ?? "(no productId)")
            + (counts.isEmpty ? "" : ": " + counts.joined(separator: ", "))
            + "; about no one customer"
    }

    // MARK: Receipts

    mutating func read(_ receipt: Receipt, trust: StatusEvidence.Trust, offset: Int?) {
        let environment = receipt.environmentKind?.rawValue
        app = StatusApp(
            bundleID: receipt.first(.bundleID)?.text,
            // app_item_id is 0 outside Production: it names no app there.
            appAppleID: receipt.first(.appItemID)?.integer.flatMap { $0 == 0 ? nil : String($0) },
            environment: environment)
        let created = receipt.creationDate?.millisecondsSinceEpoch
        expires = receipt.first(.expirationDate)?.date?.millisecondsSinceEpoch
        var records: [TransactionFact] = []
        for (index, record) in receipt.inAppRecords.enumerated() {
            let evidence = StatusEvidence(
                document: name, path: "in_app[\(index)]", offset: offset.flatMap { Self.add($0, record.offset) },
                kind: "receipt-record", signedDate: created, trust: trust)
            records.append(TransactionFact(record: record, evidence: evidence))
        }
        transactions += Self.upgradesRead(Self.subscriptionsRead(records))
    }

    /// A receipt's records with each record of a subscription's original transaction read as the subscription's. A
    /// receipt names no product type: a record with an expires_date is a subscription's, and one without is taken
    /// for a purchase owned for good, unless another record of its original transaction has one. A record of a
    /// subscription whose expiry is missing is then expired (its expiry unknown), never owned for ever.
    static func subscriptionsRead(_ records: [TransactionFact]) -> [TransactionFact] {
        let subscribed = Set(
            records.lazy.filter { $0.kind == .autoRenewableSubscription }.compactMap(\.originalTransactionID))
        guard !subscribed.isEmpty else { return records }
        return records.map { record in
            guard record.kind == .inAppPurchase, let original = record.originalTransactionID,
                subscribed.contains(original)
            else { return record }
            var subscription = record
            subscription.kind = .autoRenewableSubscription
            return subscription
        }
    }

    /// A receipt's records with upgrades told from refunds. A receipt has no is_upgraded: Apple gives the upgraded
    /// subscription's record a cancellation_date, the purchase date of the upgrade — another product of the same
    /// subscription (original transaction) bought at that second. Such a record is upgraded, not refunded.
    static func upgradesRead(_ records: [TransactionFact]) -> [TransactionFact] {
        struct Start: Hashable {
            var original: String
            var at: Int64
        }
        var bought: [Start: Set<String>] = [:]
        for record in records where record.kind == .autoRenewableSubscription {
            if let at = record.purchaseDate, let original = record.originalTransactionID {
                bought[Start(original: original, at: at), default: []].insert(record.productID)
            }
        }
        return records.map { record in
            guard record.kind == .autoRenewableSubscription, let cancelled = record.revocationDate,
                let original = record.originalTransactionID,
                bought[Start(original: original, at: cancelled)]?.contains(where: { $0 != record.productID }) == true
            else { return record }
            var upgraded = record
            upgraded.revocationDate = nil
            upgraded.isUpgraded = true
            upgraded.upgradeDate = cancelled
            return upgraded
        }
    }

    static func add(_ base: Int, _ offset: Int) -> Int? {
        let (sum, overflow) = base.addingReportingOverflow(offset)
        return overflow ? nil : sum
    }

    // MARK: JWS

    /// The facts of `token` (at `path`, starting at `offset` in the document, or inside the token there) and of the
    /// tokens it carries.
    mutating func read(
        _ token: JWSVerification, path: String, offset: Int?, notification: String?,
        trust: StatusEvidence.Trust
    ) {
        let binding = token.binding
        // A payload of no kind Apple signs states nothing, nor do the tokens it carries: Apple's verifier decodes a
        // payload as one type and reads nothing inside one it cannot type, and `verify` refuses it (a fuzzer's find:
        // a genuine notification carried in a signed payload of no kind granted its subscription).
        guard binding.kind != .unknown else { return }
        // A token that names another app than its document (another app's transaction in an API response) states
        // nothing about this app's customer, nor do the tokens it carries: counted unverified, it would put another
        // app's product under this one.
        if let own = binding.bundleID?.text, let documents = app.bundleID, own != documents { return }
        if app.bundleID == nil { app.bundleID = binding.bundleID?.text }
        if app.appAppleID == nil { app.appAppleID = binding.appAppleID?.text }
        if app.environment == nil { app.environment = binding.environment?.text }
        if let payload = token.token.payload, payload.nodes.first?.kind == .object {
            let claims = Claims(payload)
            let signed = claims.milliseconds("signedDate")
            func evidence(_ kind: String) -> StatusEvidence {
                StatusEvidence(
                    document: name, path: path, offset: offset, kind: kind, signedDate: signed,
                    notification: notification, trust: trust)
            }
            switch binding.kind {
            case .transaction:
                transactions.append(TransactionFact(transaction: claims, evidence: evidence("transaction")))
            case .renewalInfo:
                renewals.append(RenewalFact(renewalInfo: claims, evidence: evidence("renewal-info")))
            case .appTransaction, .notification, .unknown:
                break
            }
        }
        let carrier = binding.kind == .notification ? Self.notificationName(token.token.payload) : notification
        let (transactionsBefore, renewalsBefore) = (transactions.count, renewals.count)
        for nested in token.nested {
            read(
                nested, path: path.isEmpty ? nested.path : "\(path) → \(nested.path)", offset: offset,
                notification: carrier, trust: trust)
        }
        // A notification's `data.status` is about the subscription of the tokens it carries.
        if binding.kind == .notification, let payload = token.token.payload,
            let code = SubscriptionStatusFact.code(ofNotification: payload)
        {
            let original =
                transactions[transactionsBefore...].lazy.compactMap(\.originalTransactionID).first
                ?? renewals[renewalsBefore...].lazy.compactMap(\.originalTransactionID).first
            let evidence = StatusEvidence(
                document: name, path: path.isEmpty ? "data.status" : "\(path) → data.status", offset: offset,
                kind: "notification-status", signedDate: Claims(payload).milliseconds("signedDate"),
                notification: carrier, trust: trust)
            if let fact = SubscriptionStatusFact(originalTransactionID: original, code: code, evidence: evidence) {
                statuses.append(fact)
            }
        }
    }

    // MARK: verifyReceipt responses

    /// Apple's unsigned decoding in a verifyReceipt response (`latest_receipt_info`, `receipt.in_app`,
    /// `pending_renewal_info`), when `input` is one.
    mutating func readVerifyReceiptResponse(_ input: [UInt8], offset: Int?) {
        guard input.first(where: { !ByteSet.whitespace.contains($0) }) == UInt8(ascii: "{"),
            let document = try? JSONDocument.read(input), document.nodes.first?.kind == .object,
            document.member("status", of: document.root) != nil,
            let receipt = document.member("receipt", of: document.root),
            document.nodes[receipt].kind == .object
        else { return }
        let json = VerifyReceiptJSON(document: document)
        let requested =
            json.milliseconds("request_date", in: receipt)
            ?? json.milliseconds("receipt_creation_date", in: receipt)
        unsignedApp = StatusApp(
            bundleID: json.text("bundle_id", in: receipt),
            appAppleID: json.text("app_item_id", in: receipt).flatMap { $0 == "0" ? nil : $0 },
            environment: json.text("environment", in: document.root))
        func evidence(_ path: String, _ node: Int, _ kind: String) -> StatusEvidence {
            StatusEvidence(
                document: name, path: path, offset: offset.flatMap { Self.add($0, document.nodes[node].start) },
                kind: kind,
                signedDate: requested, trust: .unsigned)
        }
        var lists: [(String, Int)] = []
        if let latest = document.member("latest_receipt_info", of: document.root) {
            lists.append(("latest_receipt_info", latest))
        }
        if let inApp = document.member("in_app", of: receipt) { lists.append(("receipt.in_app", inApp)) }
        for (name, list) in lists where document.nodes[list].kind == .array {
            for (index, entry) in document.children(of: list).enumerated() where document.nodes[entry].kind == .object {
                let kind = "verifyreceipt-\(name == "receipt.in_app" ? "in-app" : "latest-receipt-info")"
                unsignedTransactions.append(
                    TransactionFact(
                        verifyReceiptEntry: entry, in: json, evidence: evidence("\(name)[\(index)]", entry, kind)))
            }
        }
        if let pending = document.member("pending_renewal_info", of: document.root),
            document.nodes[pending].kind == .array
        {
            for (index, entry) in document.children(of: pending).enumerated()
            where document.nodes[entry].kind == .object {
                unsignedRenewals.append(
                    RenewalFact(
                        verifyReceiptEntry: entry, in: json,
                        evidence: evidence(
                            "pending_renewal_info[\(index)]", entry, "verifyreceipt-pending-renewal-info")))
            }
        }
    }
}
