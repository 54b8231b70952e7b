import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases

/// What the tokens of one document must agree on: a nested token with its carrier, siblings with each other, and the
/// unsigned JSON around the tokens with what they sign (app, environment, kind).
extension JWSInspector {
    /// Findings where a nested token's app or environment is not its carrier's.
    static func agreement(of nested: JWSBinding, path: String, with carrier: JWSBinding, at offset: Int) -> [Finding] {
        var findings: [Finding] = []
        let pairs: [(String, JWSBinding.Value?, JWSBinding.Value?)] = [
            ("bundleId", nested.bundleID, carrier.bundleID),
            ("appAppleId", nested.appAppleID, carrier.appAppleID),
            ("environment", nested.environment, carrier.environment),
        ]
        for (name, inner, outer) in pairs {
            guard let inner, let outer, Array(inner.text.utf8) != Array(outer.text.utf8) else { continue }
            findings.append(
                Finding(
                    .jwsBindingMismatch, at: offset,
                    "the JWS at \(path) has \(name) \"\(inner.text)\", the token carrying it \"\(outer.text)\" (\(outer.path))",
                    fields: [
                        FindingField("path", path), FindingField("claim", name),
                        FindingField("nested", inner.text), FindingField("carrier", outer.text),
                    ]))
        }
        return findings
    }

    /// A finding when the transactions and renewal info one token carries name different subscriptions
    /// (`originalTransactionId`): a notification's `signedTransactionInfo` and `signedRenewalInfo` are about one.
    /// Checked on notifications, the one kind that carries both.
    static func siblingAgreement(
        _ nested: [JWSVerification], at offset: Int, holder: String = "the tokens this one carries"
    ) -> [Finding] {
        let ids = nested.filter { $0.binding.kind == .transaction || $0.binding.kind == .renewalInfo }
            .compactMap { child in child.token.claimString("originalTransactionId").map { (child.path, $0) } }
        guard let first = ids.first, let other = ids.first(where: { Array($0.1.utf8) != Array(first.1.utf8) }) else {
            return []
        }
        return [
            Finding(
                .jwsBindingMismatch, at: offset,
                "\(holder) name two subscriptions: originalTransactionId \"\(first.1)\" at \(first.0), \"\(other.1)\" at \(other.0)",
                fields: [
                    FindingField("claim", "originalTransactionId"), FindingField("first", first.1),
                    FindingField("other", other.1),
                ])
        ]
    }

    /// Findings where tokens that stand in one object of an unsigned document (an API response's
    /// `lastTransactions[i]`: a transaction and the renewal info of its subscription) name different subscriptions.
    /// Apple pairs them by `originalTransactionId`; a pair that disagrees was put together by someone else, and a
    /// backend reading the renewal info beside a transaction would read another subscription's (a trial, session 29:
    /// two apps' genuine tokens in one entry were valid).
    static func pairAgreement(_ tokens: [JWSVerification]) -> [Finding] {
        var byObject: [String: [JWSVerification]] = [:]
        var order: [String] = []
        for token in tokens {
            guard let object = pairObject(token.path) else { continue }
            if byObject[object] == nil { order.append(object) }
            byObject[object, default: []].append(token)
        }
        var findings: [Finding] = []
        for object in order {
            guard let pair = byObject[object], pair.count > 1 else { continue }
            findings += siblingAgreement(
                pair, at: pair[1].offset,
                holder: "the tokens of \(object.isEmpty ? "the document" : object), which Apple pairs by subscription,")
        }
        return findings
    }

    /// The object of an unsigned document a token is a member of (`data[0].lastTransactions[1]` for the token at
    /// `data[0].lastTransactions[1].signedRenewalInfo`, `""` for a member of the document's own object), nil for a
    /// token that is the document or an array's element (a history's transactions are of many subscriptions): the
    /// member tokens of one object are a pair Apple made (`pairAgreement`), and bind the document together.
    static func pairObject(_ path: String) -> String? {
        guard !path.isEmpty, path.last != "]" else { return nil }
        return path.lastIndex(of: ".").map { String(path[..<$0]) } ?? ""
    }

    /// Findings where the tokens of one document, or the document's own (unsigned) members, disagree on the app or
    /// the environment: an API response or a notification body is about one app in one environment.
    static func documentAgreement(_ document: JSONDocument, tokens: [JWSVerification], offset: Int) -> [Finding] {
        var sources: [(String, JWSBinding.Value, Int)] = []
        // Names compared as Go and .NET compare them, without regard to case: a red team's trial named another app
        // in `BundleId` beside the tokens, unseen.
        var objects = [(document.root, "")]
        let notificationObjects = Set(JWSBinding.notificationObjects.map(JSONDocument.caseFolded))
        for node in document.children(of: document.root) where document.nodes[node].kind == .object {
            if let key = document.key(node), notificationObjects.contains(JSONDocument.caseFolded(key)) {
                objects.append((node, key + "."))
            }
        }
        for (object, prefix) in objects {
            for name in ["bundleId", "appAppleId", "environment"] {
                for value in JWSBinding.Value.members(named: name, of: object, in: document, prefix: prefix) {
                    sources.append((name, value, offset + value.jsonOffset))
                }
            }
        }
        for token in tokens {
            let binding = token.binding
            for (name, value) in [
                ("bundleId", binding.bundleID), ("appAppleId", binding.appAppleID),
                ("environment", binding.environment),
            ] {
                guard let value else { continue }
                sources.append((name, value.carried(by: token.path), token.offset))
            }
        }
        var findings: [Finding] = []
        for name in ["bundleId", "appAppleId", "environment"] {
            let values = sources.filter { $0.0 == name }
            guard let first = values.first,
                let other = values.first(where: { Array($0.1.text.utf8) != Array(first.1.text.utf8) })
            else { continue }
            findings.append(
                Finding(
                    .jwsBindingMismatch, at: other.2,
                    "the document names two \(name)s: \"\(first.1.text)\" (\(first.1.path)) and \"\(other.1.text)\" (\(other.1.path)); an API response or notification is about one app in one environment",
                    fields: [
                        FindingField("claim", name), FindingField("first", first.1.text),
                        FindingField("other", other.1.text),
                    ]))
        }
        return findings
    }
}
