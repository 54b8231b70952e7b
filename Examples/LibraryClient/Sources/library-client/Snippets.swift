import Foundation
import Rcpt

// Each snippet stands in the README as written here, between its markers (rcpt's LibrarySnippetTests compare them).

// snippet: configure
func makeVerifier() throws -> AppStoreVerifier {
    // Once, at start-up: Apple's roots are built in; Production needs the app's App Store id, as Apple's verifier does.
    try AppStoreVerifier(bundleId: "com.example.app", appAppleId: 1_234_567_890, environment: .production)
}
// end snippet

// snippet: transaction
/// The product a transaction the app sent grants now, or nil.
func grantedProduct(signedTransaction: String, verifier: AppStoreVerifier, now: Date = Date()) -> String? {
    do {
        let transaction = try verifier.verifyTransaction(signedTransaction)
        if transaction.revocationDate != nil { return nil }  // refunded
        // A subscription grants until its expiry; one without an expiry grants nothing.
        if transaction.type == .autoRenewableSubscription, (transaction.expiresDate ?? .distantPast) <= now {
            return nil
        }
        return transaction.productId
    } catch {
        // `error` is a VerificationFailure: its cause says who could have made the document.
        switch error.cause {
        case .wrongApp, .wrongEnvironment, .wrongDevice: print("genuine, but not for this app: a replay")
        case .invalidSignature, .invalidChain: print("not signed by Apple: anyone could have made it")
        default: print("refused: \(error)")  // every finding, with its byte offset
        }
        return nil
    }
}
// end snippet

// snippet: notification
/// What to do with the body Apple posted to the webhook.
func handleNotification(body: [UInt8], verifier: AppStoreVerifier) throws(VerificationFailure) -> String {
    let notification = try verifier.verifyNotification(body)  // its transaction and renewal info verified too
    let transaction = notification.data?.transaction
    switch notification.notificationType {
    case .refund?, .revoke?: return "revoke \(transaction?.transactionId ?? "?")"
    case .didRenew?, .subscribed?:
        let until = transaction?.expiresDate.map { "\($0)" } ?? "no expiry"
        return "grant \(transaction?.productId ?? "?") until \(until)"
    default: return "log \(notification.notificationType?.rawValue ?? "?")"
    }
}
// end snippet

// snippet: receipt
/// The products an App Store receipt (base64, as the app sends it) records.
func purchasedProducts(receipt: String, verifier: AppStoreVerifier) throws -> [String] {
    let verified = try verifier.verifyReceipt(Array(receipt.utf8))
    return verified.inApp.compactMap(\.productId)
}
// end snippet

// snippet: status
/// What the customer owns at `date`, from every document the server holds for them.
func activeProducts(documents: [[UInt8]], verifier: AppStoreVerifier, at date: Date = Date()) -> [String] {
    let entitlements = verifier.entitlements(of: documents, at: date)
    for product in entitlements.products {
        print(product.productId, product.state, product.reason ?? "", product.evidence.first?.path ?? "")
    }
    return entitlements.active.map(\.productId)
}
// end snippet

// snippet: concurrency
/// One verifier shared by many tasks: a chain it verified is not verified again.
func countVerified(_ tokens: [String], verifier: AppStoreVerifier) async -> Int {
    await withTaskGroup(of: Bool.self) { group in
        for token in tokens {
            group.addTask { (try? verifier.verifyTransaction(token)) != nil }
        }
        return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
}
// end snippet
