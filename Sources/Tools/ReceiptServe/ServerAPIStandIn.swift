import Foundation
import ReceiptJSON

/// The App Store Server API's three reads a backend makes, answered from `ServerAPIDocuments`: Get Transaction
/// Info, Get Transaction History (v1 and v2, one page) and Get All Subscription Statuses. Requests without a bearer
/// token are refused with 401, as Apple's are.
struct ServerAPIStandIn: Sendable {
    var documents: ServerAPIDocuments

    /// Apple's `TransactionIdNotFoundError`.
    static let transactionNotFound: Int64 = 4_040_010

    /// The answer to `request`, when its path is one of the API's; nil otherwise.
    func answer(_ request: StandInRequest, now: Int64) -> StandInAnswer? {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 4, parts[0] == "inApps", ["v1", "v2"].contains(parts[1]) else { return nil }
        let resource = parts[1] + "/" + parts[2]
        guard ["v1/transactions", "v1/history", "v2/history", "v1/subscriptions"].contains(resource) else {
            return nil
        }
        guard request.method == "GET" else {
            return .error(405, code: 4_050_000, "\(request.method) is not allowed here; the API reads with GET")
        }
        guard let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer "),
            authorization.count > 7
        else {
            return StandInAnswer(
                httpStatus: 401, contentType: "text/plain", body: Array("Unauthenticated\n".utf8),
                summary: "HTTP 401: no bearer token")
        }
        let id = parts[3].removingPercentEncoding ?? parts[3]
        let history = documents.history(id)
        guard let first = history.first else {
            return .error(404, code: Self.transactionNotFound, "Transaction id not found.")
        }
        switch parts[2] {
        case "transactions":
            guard let transaction = documents.transaction(id) else {
                return .error(404, code: Self.transactionNotFound, "Transaction id not found.")
            }
            return .json(200, summary: "signedTransactionInfo \(transaction.transactionID)") { json in
                json.object { json in
                    json.key("signedTransactionInfo")
                    json.string(transaction.token)
                }
            }
        case "history":
            return .json(200, summary: "signedTransactions \(history.count)") { json in
                json.object { json in
                    Self.appMembers(first, to: &json)
                    json.key("revision")
                    json.string("rcpt-serve-\(history.count)")
                    json.key("hasMore")
                    json.bool(false)
                    json.key("signedTransactions")
                    json.array { json in for transaction in history { json.string(transaction.token) } }
                }
            }
        default:
            return subscriptionStatuses(history, first: first, now: now)
        }
    }

    /// Get All Subscription Statuses: the latest transaction of the subscription and its renewal info, with status
    /// 5 (revoked) when it was revoked, 1 (active) when it expires after `now`, else 2 (expired).
    private func subscriptionStatuses(
        _ history: [ServerAPIDocuments.Transaction], first: ServerAPIDocuments.Transaction, now: Int64
    )
        -> StandInAnswer
    {
        let latest = history.max { ($0.expiresDate ?? $0.purchaseDate) < ($1.expiresDate ?? $1.purchaseDate) } ?? first
        // Apple's statuses: 1 active, 2 expired, 5 revoked.
        let status: Int64 = latest.revocationDate != nil ? 5 : (latest.expiresDate ?? 0) > now ? 1 : 2
        return .json(200, summary: "subscription status \(status) of \(latest.originalTransactionID)") { json in
            json.object { json in
                Self.appMembers(first, to: &json)
                json.key("data")
                json.array { json in
                    json.object { json in
                        json.key("subscriptionGroupIdentifier")
                        json.string(latest.subscriptionGroup ?? "")
                        json.key("lastTransactions")
                        json.array { json in
                            json.object { json in
                                json.key("originalTransactionId")
                                json.string(latest.originalTransactionID)
                                json.key("status")
                                json.number(status)
                                json.key("signedTransactionInfo")
                                json.string(latest.token)
                                if let renewal = documents.renewals[latest.originalTransactionID] {
                                    json.key("signedRenewalInfo")
                                    json.string(renewal)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private static func appMembers(_ transaction: ServerAPIDocuments.Transaction, to json: inout JSONWriter) {
        json.key("environment")
        json.string(transaction.environment ?? "Production")
        json.key("bundleId")
        json.string(transaction.bundleID ?? "")
        if let appAppleID = transaction.appAppleID {
            json.key("appAppleId")
            json.number(text: appAppleID)
        }
    }
}
