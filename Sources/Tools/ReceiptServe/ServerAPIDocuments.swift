import Foundation
import ReceiptJSON
import ReceiptJWS

/// The signed documents the App Store Server API stand-in answers with: transactions and renewal infos read from a
/// folder (genuine ones, ones a TEST-ONLY CA signed with `rcpt build --jws`, or mutations `rcpt mutate` wrote; alone,
/// or inside notifications and API responses),
/// indexed by transaction and original transaction id; where several hold one id, the first by name answers. Nothing is verified here: the backend under test
/// is the one that must verify.
package struct ServerAPIDocuments: Sendable {
    /// One signed transaction (`JWSTransactionDecodedPayload`).
    package struct Transaction: Sendable {
        package var token: String
        package var transactionID: String
        package var originalTransactionID: String
        package var bundleID: String?
        package var environment: String?
        package var appAppleID: String?
        package var subscriptionGroup: String?
        package var purchaseDate: Int64
        package var expiresDate: Int64?
        /// When Apple revoked it (a refund), if it did.
        package var revocationDate: Int64?
    }

    package private(set) var transactions: [Transaction] = []
    /// Signed renewal infos by original transaction id.
    package private(set) var renewals: [String: String] = [:]
    /// Files that held neither: not a JWS, or JWS of other kinds only (an app transaction, a notification about no
    /// one transaction).
    package private(set) var skipped: [String] = []

    /// The most files read from a folder, and the largest file.
    static let maximumFiles = 100_000
    static let maximumFileBytes = 1 << 20

    package init() {}

    /// The documents of the files directly in `folder`, in name order.
    package init(folder: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        for name in names.prefix(Self.maximumFiles) {
            let path = (folder as NSString).appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                (attributes[.size] as? Int ?? 0) <= Self.maximumFileBytes,
                let data = FileManager.default.contents(atPath: path)
            else {
                skipped.append(name)
                continue
            }
            if !add(String(decoding: data, as: UTF8.self)) { skipped.append(name) }
        }
    }

    /// Adds the transactions and renewal infos a document holds: a token (white space around it ignored), or a
    /// notification, a notification body or an App Store Server API response carrying them, in document order;
    /// true when it held one.
    @discardableResult
    package mutating func add(_ text: String) -> Bool {
        guard case .success(let input) = JWSInput.read(Array(text.utf8)) else { return false }
        var pending = input.tokens[...]
        var found = false
        while let next = pending.popFirst() {
            found = addToken(String(decoding: next.token.text, as: UTF8.self)) || found
            pending = next.token.nested[...] + pending
        }
        return found
    }

    /// Adds one token: true when it is a transaction or a renewal info.
    mutating func addToken(_ token: String) -> Bool {
        guard case .success(let jws) = JWSReader.read(Array(token.utf8)[...]), jws.payload != nil else { return false }
        if let id = jws.claimString("transactionId") {
            transactions.append(
                Transaction(
                    token: token, transactionID: id,
                    originalTransactionID: jws.claimString("originalTransactionId") ?? id,
                    bundleID: jws.claimString("bundleId"), environment: jws.claimString("environment"),
                    appAppleID: jws.claimNumberText("appAppleId"),
                    subscriptionGroup: jws.claimString("subscriptionGroupIdentifier"),
                    purchaseDate: jws.claimNumberText("purchaseDate").flatMap(JWSToken.milliseconds) ?? 0,
                    expiresDate: jws.claimNumberText("expiresDate").flatMap(JWSToken.milliseconds),
                    revocationDate: jws.claimNumberText("revocationDate").flatMap(JWSToken.milliseconds)))
            return true
        }
        if let original = jws.claimString("originalTransactionId"), jws.claimString("autoRenewProductId") != nil {
            if renewals[original] == nil { renewals[original] = token }  // the first by name, as for transactions
            return true
        }
        return false
    }

    /// The transaction with id `id`.
    package func transaction(_ id: String) -> Transaction? { transactions.first { $0.transactionID == id } }

    /// Every transaction of the same original transaction as `id` (a transaction or an original transaction id),
    /// oldest purchase first.
    package func history(_ id: String) -> [Transaction] {
        let original = transaction(id)?.originalTransactionID ?? id
        return transactions.filter { $0.originalTransactionID == original }.sorted { $0.purchaseDate < $1.purchaseDate }
    }
}
