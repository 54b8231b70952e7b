import ReceiptJSON

/// What Apple signs as JWS, told from the claims (and, when the claims do not say, from the member that holds it).
public enum JWSPayloadKind: String, Sendable, Hashable, CaseIterable {
    case notification
    case transaction
    case renewalInfo = "renewal-info"
    case appTransaction = "app-transaction"
    /// A payload with none of the claims that tell the kinds apart.
    case unknown

    /// The kind in words: "transaction", "renewal info", "payload of no kind Apple signs".
    package var noun: String {
        switch self {
        case .notification: return "notification"
        case .transaction: return "transaction"
        case .renewalInfo: return "renewal info"
        case .appTransaction: return "app transaction"
        case .unknown:
            return "payload of no kind Apple signs (no transactionId, notificationType, receiptType or autoRenew claim)"
        }
    }

    /// The kind of `payload`, held (when nested or in a document) by the member `member`: what its claims say, or
    /// when they do not say, what the member holds.
    package static func of(_ payload: JSONDocument?, member: String?) -> JWSPayloadKind {
        let claimed = claims(payload)
        return claimed != .unknown ? claimed : expected(at: member) ?? .unknown
    }

    /// The kind the claims of `payload` tell: a notification by its notificationType, an app transaction by its
    /// receiptType, a transaction by its transactionId, renewal info by its autoRenew claims.
    package static func claims(_ payload: JSONDocument?) -> JWSPayloadKind {
        guard let payload, payload.nodes.first?.kind == .object else { return .unknown }
        let has = { (name: String) in payload.member(name, of: payload.root) != nil }
        if has("notificationType") { return .notification }
        if has("receiptType") { return .appTransaction }
        if has("transactionId") { return .transaction }
        if has("autoRenewStatus") || has("autoRenewProductId") { return .renewalInfo }
        return .unknown
    }

    /// The kind Apple's documents hold in the member `member` (a server verifies what it finds there as that kind,
    /// and Apple's verifier refuses a token of another): nil for a member that names no kind.
    /// The name is compared as Go and .NET compare member names, without regard to case (`JSONDocument.caseFolded`): a red
    /// team's trial put a notification in `SignedTransactions`, a transaction in `ſignedPayload`.
    package static func expected(at member: String?) -> JWSPayloadKind? {
        switch member.map(JSONDocument.caseFolded) {
        case "signedpayload": return .notification
        case "signedtransactioninfo", "signedtransactions", "signedtransaction": return .transaction
        case "signedrenewalinfo": return .renewalInfo
        case "signedapptransactioninfo", "signedapptransaction": return .appTransaction
        default: return nil
        }
    }
}

/// Where Apple's verifier reads the app and the environment a signed payload is bound to, per kind (Apple's
/// `SignedDataVerifier`): a transaction carries bundleId and environment; renewal info only environment (bound to an
/// app by the token that carries it); an app transaction bundleId, appAppleId and, as `receiptType`, environment; a
/// notification all three from `data` (or `summary`, `externalPurchaseToken`, `appData`), never from a look-alike
/// member at its top level.
public struct JWSBinding: Sendable, Hashable {
    /// One bound value: the text, the claim's path and where its value starts in the decoded payload.
    public struct Value: Sendable, Hashable {
        public var text: String
        public var path: String
        package var jsonOffset: Int
        /// Whether the value is a JSON number (its text as written: `1234`, `1234.0`, `1.234e3`).
        package var isNumber = false

        /// Whether the value is the whole number `expected` (its decimal digits): a number's text read exactly, so
        /// `1234.0` and `1.234e3` are 1234 as Apple's libraries decode them (Swift's JSONDecoder into Int64, Python's
        /// `==`); a string is compared as written.
        package func isWholeNumber(_ expected: String) -> Bool {
            guard isNumber, text != expected else { return text == expected }
            guard case .success(let number) = MillisecondDate.read(text), !number.hasFraction, !number.isNegative
            else { return false }
            return String(number.milliseconds) == expected
        }

        /// The member `name` of `object` in `document` as a bound value (a string's text, any other value as
        /// written), its path `prefix` + `name`; nil when there is no such member or it is null.
        package static func member(_ name: String, of object: Int, in document: JSONDocument, prefix: String) -> Value?
        {
            // A null member is absent, as Apple's libraries read it (its type finding says so).
            document.member(name, of: object).flatMap { at($0, named: name, in: document, prefix: prefix) }
        }

        /// Every member of `object` whose name is `name` to a reader that ignores case (`JSONDocument.caseFolded`:
        /// `BundleId`, `ENVIRONMENT`), as bound values under the names as written; null members left out.
        package static func members(named name: String, of object: Int, in document: JSONDocument, prefix: String)
            -> [Value]
        {
            let wanted = JSONDocument.caseFolded(name)
            return document.children(of: object).compactMap { node in
                guard let key = document.key(node), JSONDocument.caseFolded(key) == wanted else { return nil }
                return at(node, named: key, in: document, prefix: prefix)
            }
        }

        /// The value of `node`, the member `name`, as a bound value; nil when it is null.
        private static func at(_ node: Int, named name: String, in document: JSONDocument, prefix: String) -> Value? {
            guard document.nodes[node].kind != .null else { return nil }
            let text = document.nodes[node].kind == .string ? (document.string(node) ?? "") : document.text(node)
            var value = Value(text: text, path: prefix + name, jsonOffset: document.nodes[node].start)
            value.isNumber = document.nodes[node].kind == .number
            return value
        }

        /// The value as a carrier sees it: its path under the carried token's.
        package func carried(by tokenPath: String) -> Value {
            Value(text: text, path: "\(tokenPath) → \(path)", jsonOffset: jsonOffset)
        }
    }

    public var kind: JWSPayloadKind
    public var bundleID: Value?
    /// As its decimal digits.
    package var appAppleID: Value?
    package var environment: Value?
    /// Whether this kind carries a bundleId (renewal info does not).
    public var carriesBundleID: Bool
    /// Whether this kind carries appAppleId (transactions and renewal info do not).
    package var carriesAppAppleID: Bool
    /// The claim the chain is evaluated at: `signedDate`, or an app transaction's `receiptCreationDate`.
    package var timeClaim: String
    /// An app transaction's `applicationVersion`: the app version it was issued for (CFBundleVersion).
    package var appVersion: Value?
    /// `deviceVerification` and `deviceVerificationNonce` of a transaction, renewal info or app transaction
    /// StoreKit gave a device (tokens from the App Store Server API carry neither): base64 of SHA-384 over the
    /// lowercase nonce and the lowercase device verification UUID.
    package var deviceVerification: DeviceVerification?

    /// A token's `deviceVerification` and the `deviceVerificationNonce` it was computed with.
    package struct DeviceVerification: Sendable, Hashable {
        package var value: Value
        package var nonce: Value
    }
    /// Members at a notification's top level that look like the bound ones but are not where Apple reads them.
    package var misplaced: [Value]
    /// Shapes of the binding Apple never produces, each with why (the value is the claim it is about): a
    /// notification with more than one of `data`, `summary`, `externalPurchaseToken`, `appData`, or one that is not
    /// an object; an app transaction whose `environment` is not its `receiptType`.
    package var conflicts: [Conflict] = []

    /// A binding shape Apple never produces: the claim it is about, and why.
    package struct Conflict: Sendable, Hashable {
        package var value: Value
        package var reason: String
    }

    /// The objects a notification's app and environment are read from, in Apple's order.
    package static let notificationObjects = ["data", "summary", "externalPurchaseToken", "appData"]

    package static func of(_ payload: JSONDocument?, member: String?) -> JWSBinding {
        let kind = JWSPayloadKind.of(payload, member: member)
        var binding = JWSBinding(
            kind: kind, carriesBundleID: kind != .renewalInfo,
            carriesAppAppleID: kind == .notification || kind == .appTransaction || kind == .unknown,
            timeClaim: kind == .appTransaction ? "receiptCreationDate" : "signedDate", misplaced: [])
        guard let payload, payload.nodes.first?.kind == .object else { return binding }
        func value(_ name: String, in object: Int, prefix: String) -> Value? {
            Value.member(name, of: object, in: payload, prefix: prefix)
        }
        let root = payload.root
        func deviceVerification() -> DeviceVerification? {
            guard let verification = value("deviceVerification", in: root, prefix: ""),
                let nonce = value("deviceVerificationNonce", in: root, prefix: "")
            else { return nil }
            return DeviceVerification(value: verification, nonce: nonce)
        }
        switch kind {
        case .notification:
            for name in ["bundleId", "appAppleId", "environment"] {
                if let found = value(name, in: root, prefix: "") { binding.misplaced.append(found) }
            }
            // A null member is absent, as Apple's libraries read it (`"data": null` beside a summary: a red team's
            // trial had it refused where Apple's verifier accepts it).
            let present = notificationObjects.compactMap { name in
                payload.member(name, of: root).flatMap { payload.nodes[$0].kind == .null ? nil : (name, $0) }
            }
            if present.count > 1 {
                let names = present.map(\.0).joined(separator: " and ")
                binding.conflicts.append(
                    Conflict(
                        value: Value(text: names, path: present[1].0, jsonOffset: payload.nodes[present[1].1].start),
                        reason:
                            "the notification carries \(names): Apple sends exactly one, and readers disagree on which binds it"
                    ))
            }
            guard let (name, object) = present.first else { return binding }
            guard payload.nodes[object].kind == .object else {
                binding.conflicts.append(
                    Conflict(
                        value: Value(
                            text: String(payload.text(object).prefix(20)), path: name,
                            jsonOffset: payload.nodes[object].start),
                        reason: "\(name) is not an object, as Apple sends it: the notification is bound to no app"))
                return binding
            }
            binding.bundleID = value("bundleId", in: object, prefix: name + ".")
            binding.appAppleID = value("appAppleId", in: object, prefix: name + ".")
            if name == "externalPurchaseToken" {
                // Apple: an externalPurchaseId starting "SANDBOX" is the sandbox; any other is production.
                if let id = value("externalPurchaseId", in: object, prefix: name + ".") {
                    binding.environment = Value(
                        text: id.text.hasPrefix("SANDBOX") ? "Sandbox" : "Production",
                        path: id.path, jsonOffset: id.jsonOffset)
                }
            } else {
                binding.environment = value("environment", in: object, prefix: name + ".")
            }
        case .transaction:
            binding.bundleID = value("bundleId", in: root, prefix: "")
            binding.environment = value("environment", in: root, prefix: "")
            binding.deviceVerification = deviceVerification()
        case .renewalInfo:
            binding.environment = value("environment", in: root, prefix: "")
            binding.deviceVerification = deviceVerification()
        case .appTransaction:
            binding.bundleID = value("bundleId", in: root, prefix: "")
            binding.appAppleID = value("appAppleId", in: root, prefix: "")
            binding.appVersion = value("applicationVersion", in: root, prefix: "")
            binding.deviceVerification = deviceVerification()
            binding.environment = value("receiptType", in: root, prefix: "")
            if let environment = value("environment", in: root, prefix: ""),
                environment.text != binding.environment?.text
            {
                binding.conflicts.append(
                    Conflict(
                        value: environment,
                        reason:
                            "the app transaction's environment \"\(environment.text)\" is not its receiptType \"\(binding.environment?.text ?? "")\": a reader of either is told another environment"
                    ))
            }
        case .unknown:
            binding.bundleID = value("bundleId", in: root, prefix: "")
            binding.appAppleID = value("appAppleId", in: root, prefix: "")
            binding.environment = value("environment", in: root, prefix: "")
        }
        return binding
    }
}
