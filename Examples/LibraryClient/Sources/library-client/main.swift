import Foundation
import Rcpt

// Runs every snippet on the repository's corpus and checks what it returns: exit 0 when all hold.

let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus")

func bytes(_ path: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: corpus.appendingPathComponent(path)))) ?? []
}

func text(_ path: String) -> String {
    String(decoding: bytes(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

var failures: [String] = []
var checks = 0

@MainActor func check(_ holds: Bool, _ what: String) {
    checks += 1
    if !holds { failures.append(what) }
}

func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text) ?? .distantPast }

do {
    let production = try makeVerifier()
    check(production.environment == .production && production.appAppleId == 1_234_567_890, "configure")

    let sandbox = try AppStoreVerifier(bundleId: "com.audaos.audarecorder", appAppleId: nil, environment: .sandbox)
    let transaction = text("jws/gopay-txn-2000000004047119-sandbox.jws")
    let during = date("2022-03-04T09:45:00Z")
    check(
        grantedProduct(signedTransaction: transaction, verifier: sandbox, now: during)
            == "com.audaos.audarecorder.vip.m2", "a genuine transaction grants its product")
    check(
        grantedProduct(signedTransaction: transaction, verifier: sandbox, now: date("2022-03-05T00:00:00Z")) == nil,
        "an expired subscription grants nothing")
    check(
        grantedProduct(signedTransaction: transaction, verifier: production) == nil,
        "another app's transaction grants nothing")

    let renewed = try handleNotification(body: bytes("jws/gopay-notif-DID_RENEW-sandbox.jws"), verifier: sandbox)
    check(renewed.hasPrefix("grant com.audaos.audarecorder.vip.m2 until "), "a DID_RENEW notification: \(renewed)")
    do {
        _ = try handleNotification(body: bytes("jws/gopay-notif-DID_RENEW-sandbox.jws"), verifier: production)
        check(false, "another app's notification is refused")
    } catch {
        check(error.cause == .wrongApp, "another app's notification is a replay: \(error.cause)")
    }

    let emmiView = try AppStoreVerifier(bundleId: "com.cocoanetics.EmmiView", appAppleId: nil, environment: .sandbox)
    let receipt = Data(bytes("receipts/kvitto-sandboxReceipt.receipt")).base64EncodedString()
    let products = try purchasedProducts(receipt: receipt, verifier: emmiView)
    check(products.contains("com.cocoanetics.EmmiView.OneMonth"), "a receipt's products: \(products)")

    let documents = [
        "jws/gopay-txn-2000000004047119-sandbox.jws", "jws/gopay-renewal-2000000000842607-sandbox.jws",
        "jws/gopay-notif-DID_RENEW-sandbox.jws",
    ].map(bytes)
    let active = activeProducts(documents: documents, verifier: sandbox, at: during)
    check(active == ["com.audaos.audarecorder.vip.m2"], "the customer's active products: \(active)")

    let verified = await countVerified(Array(repeating: transaction, count: 200), verifier: sandbox)
    check(verified == 200, "200 tokens verified from a task group: \(verified)")
} catch {
    failures.append("threw \(error)")
}

if failures.isEmpty {
    print("library-client: \(checks) checks passed")
} else {
    print("library-client: \(failures.count) of \(checks) checks failed:\n  " + failures.joined(separator: "\n  "))
    exit(1)
}
