import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptSigning
import ReceiptSuite

/// A JWS mutation: one named attack on a JWS validator (or a valid variant a correct one must accept). `make` builds
/// the token from the baseline's context, re-signed with the TEST-ONLY key where that makes the point.
extension Mutation {
    /// A JWS mutation `rcpt verify` judges with `finding` (or with no finding code, when nil).
    init(
        _ name: String, layer: String, _ expected: ExpectedVerdict, finding: FindingCode?, signatureValid: Bool = true,
        _ summary: String, _ make: @escaping @Sendable (JWSMutationContext) throws -> String
    ) {
        self.init(
            name, layer: layer, expected, code: finding?.rawValue, signatureValid: signatureValid,
            summary, make)
    }

    /// A JWS mutation whose reading `rcpt verify` stops with `error`.
    init(
        _ name: String, layer: String, _ expected: ExpectedVerdict, error: ErrorCode, signatureValid: Bool = true,
        _ summary: String, _ make: @escaping @Sendable (JWSMutationContext) throws -> String
    ) {
        self.init(
            name, layer: layer, expected, code: error.rawValue, signatureValid: signatureValid,
            summary, make)
    }

    private init(
        _ name: String, layer: String, _ expected: ExpectedVerdict, code: String?, signatureValid: Bool,
        _ summary: String, _ make: @escaping @Sendable (JWSMutationContext) throws -> String
    ) {
        self.init(
            name: name, group: .jws, layer: layer, expected: expected, finding: code, signatureValid: signatureValid,
            summary: summary, threat: Threat.jws(name: name, layer: layer, signatureValid: signatureValid)
        ) { input, kit, _ in
            Array((try make(JWSMutationContext.baseline(of: input, kit: kit)) + "\n").utf8)
        }
    }
}

/// The named JWS attacks: what JWT/JWS validators are known to fall for, with Apple's tokens as the target.
public enum JWSMutationCatalogue {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func b64(_ bytes: [UInt8]) -> String { Base64URL.encode(bytes) }
    /// The baseline's environment as a JSON string literal (where its kind's binding reads it; Sandbox when none).
    static func environmentLiteral(_ context: JWSMutationContext) -> String {
        context.binding.environment.map { JSONWriter.literal($0.text) } ?? #""Sandbox""#
    }

    /// The baseline: the input's payload re-signed as it is.
    public static let baseline = Mutation(
        "baseline", layer: "header", .accept, finding: nil,
        "the input's payload re-signed by the test CA, unchanged"
    ) { try $0.signed() }

    /// The JWS mutation named `name`.
    public static func named(_ name: String) -> Mutation? { all.first { $0.name == name } }

    public static let all: [Mutation] =
        [baseline] + validVariants + algorithms + signatures + chains + payloads
        + encodings + nesting + documents + dates + shapes + bindings + replays + certificates + headers + claimTypes

    /// Variants a correct validator must accept.
    static let validVariants: [Mutation] = [
        Mutation(
            "high-s-twin", layer: "signature", .accept, finding: nil,
            "the same token with s replaced by n − s: also a valid ECDSA signature (only reported)"
        ) { context in
            let parts = JWSMutationContext.parts(try context.signed())
            let raw = try Base64URL.decode(Array(parts[2].utf8)[...]).get().bytes
            return parts[0] + "." + parts[1] + "." + b64(ECDSASignature.negatingS(raw))
        },
        Mutation(
            "kid-header", layer: "header", .accept, finding: nil,
            "a kid header member, as Xcode's tokens carry: a key name, not a key"
        ) { context in
            try context.signed(header: context.header(adding: #""kid":"Apple_Xcode_Key","typ":"JWT""#))
        },
        Mutation(
            "unknown-claim", layer: "payload", .accept, finding: nil,
            "an extra claim Apple does not define: kept and shown, not a reason to refuse"
        ) { context in
            try context.signed(payload: JWSMutationContext.setting("rcptExtra", to: #""test""#, in: context.payload))
        },
        Mutation(
            "escaped-claim-text", layer: "payload", .accept, finding: nil,
            "the bundleId written with \\u escapes: the same string to any JSON reader"
        ) { context in
            guard let value = JWSMutationContext.value(of: "bundleId", in: context.payload), value.count > 2 else {
                throw MutationError(.notApplicable, "the payload has no bundleId")
            }
            let escaped =
                "\""
                + String(value.dropFirst().dropLast()).unicodeScalars.map {
                    $0 == "." ? "\\u002e" : String($0)
                }.joined() + "\""
            return try context.signed(payload: JWSMutationContext.setting("bundleId", to: escaped, in: context.payload))
        },
        Mutation(
            "whitespace-payload", layer: "payload", .accept, finding: nil,
            "the payload JSON with white space between its tokens, signed as such"
        ) { context in
            let spaced = text(context.payload).replacingOccurrences(of: "\",\"", with: "\", \"")
            return try context.signed(payload: bytes(spaced))
        },
        Mutation(
            "base64url-padded", layer: "encoding", .accept, finding: .jwsBase64urlPadding,
            "the signature part padded with '=' (not base64url; the signed text is unchanged)"
        ) { context in
            let token = try context.signed()
            let signature = JWSMutationContext.parts(token)[2]
            return token + String(repeating: "=", count: (4 - signature.utf8.count % 4) % 4)
        },
    ]

    static let payloads: [Mutation] = [
        Mutation(
            "duplicate-bundle-id", layer: "payload", .reject, finding: .jsonDuplicateKey,
            "a second bundleId after the genuine one: JSON.parse takes the attacker's"
        ) { context in
            try context.signed(
                payload: JWSMutationContext.duplicating(
                    "bundleId", as: #""com.example.attacker""#,
                    in: context.payload))
        },
        Mutation(
            "duplicate-environment", layer: "payload", .reject, finding: .jsonDuplicateKey,
            "a second environment after the genuine one, the other environment: readers that keep the last see it"
        ) { context in
            // The other environment whichever the document states (on a Production document a second
            // "Production" tested nothing: a reviewer's trial).
            let other = environmentLiteral(context) == #""Production""# ? #""Sandbox""# : #""Production""#
            return try context.signed(
                payload: JWSMutationContext.duplicating("environment", as: other, in: context.payload))
        },
        Mutation(
            "duplicate-transaction-id", layer: "payload", .reject, finding: .jsonDuplicateKey,
            "a second transactionId: two readers see two purchases"
        ) { context in
            try context.signed(
                payload: JWSMutationContext.duplicating(
                    "transactionId", as: #""1000000000000001""#,
                    in: context.payload))
        },
        Mutation(
            "transaction-id-beyond-2-53", layer: "payload", .reject, finding: .jwsClaimType,
            "transactionId as a number above 2^53, which JavaScript rounds to another id"
        ) { context in
            guard JWSMutationContext.value(of: "transactionId", in: context.payload) != nil else {
                throw MutationError(.notApplicable, "the payload has no transactionId")
            }
            return try context.signed(
                payload: JWSMutationContext.setting("transactionId", to: "9007199254740993", in: context.payload))
        },
        Mutation(
            "bundle-id-homoglyph", layer: "payload", .reject, finding: .bundleIdMismatch,
            "the bundleId with a Cyrillic е (U+0435) for e: looks the same, is another app"
        ) { context in
            guard let value = JWSMutationContext.value(of: "bundleId", in: context.payload), value.contains("e") else {
                throw MutationError(.notApplicable, "the payload's bundleId has no e")
            }
            var replaced = value
            if let index = replaced.firstIndex(of: "e") { replaced.replaceSubrange(index...index, with: "\u{0435}") }
            return try context.signed(
                payload: JWSMutationContext.setting("bundleId", to: replaced, in: context.payload))
        },
        Mutation(
            "signed-date-in-future", layer: "payload", .reject, finding: .jwsSignedDateInFuture,
            "signedDate in 2096: judged then, every certificate is valid"
        ) { context in
            try context.signed(
                payload: JWSMutationContext.setting("signedDate", to: "4000000000000", in: context.payload))
        },
        Mutation(
            "payload-not-json", layer: "payload", .reject, error: .jwsPayloadNotJSON,
            "a signed payload that is not JSON"
        ) { context in
            try context.signed(payload: bytes("not json"))
        },
    ]

    /// Header members that change how the payload is read.
    static let headers: [Mutation] = [
        Mutation(
            "header-b64-false", layer: "header", .reject, finding: .jwsHeaderUnsupported,
            "b64 false without crit (RFC 7797): a reader that honours it signs the payload unencoded"
        ) { context in
            try context.signed(header: context.header(adding: #""b64":false"#))
        }
    ]

    /// How the parts are written.
    static let encodings: [Mutation] = [
        Mutation(
            "base64-standard-alphabet", layer: "encoding", .reject, finding: .jwsBase64urlAlphabet,
            "the payload in standard base64 ('+', '/'), signed as written"
        ) { context in
            var payload = context.payload
            payload = JWSMutationContext.setting("rcptPad", to: #""\u00ff\u00fe>>>???""#, in: payload)
            let standard = String(b64(payload).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
            let input = b64(context.header) + "." + standard
            return input + "." + b64(try context.signer.signRaw(bytes(input)))
        },
        Mutation(
            "jwe-five-parts", layer: "encoding", .reject, error: .jwsPartCount, signatureValid: false,
            "a five-part (JWE-shaped) token"
        ) { context in
            let parts = JWSMutationContext.parts(try context.signed())
            return parts[0] + ".." + parts[1] + "." + parts[2] + "."
        },
    ]

    /// JWS inside JWS (notifications).
    static let nesting: [Mutation] = [
        Mutation(
            "notification-nested-valid", layer: "nesting", .accept, finding: nil,
            "a notification whose data carries the token, both signed by the test CA"
        ) { context in
            try context.notificationBody(payload: try notification(carrying: try context.signed(), context))
        },
        Mutation(
            "notification-nested-foreign-chain", layer: "nesting", .reject, finding: .jwsNestedInvalid,
            "a notification signed by the test CA carrying a transaction signed by the foreign CA"
        ) { context in
            try context.notificationBody(
                payload: try notification(carrying: try context.signed(by: context.foreign), context))
        },
        Mutation(
            "notification-nested-tampered", layer: "nesting", .reject, finding: .jwsNestedInvalid,
            "a valid notification carrying a transaction whose payload changed after signing"
        ) { context in
            let parts = JWSMutationContext.parts(try context.signed())
            let edited = JWSMutationContext.setting(
                "productId", to: #""com.example.attacker.lifetime""#, in: context.payload)
            return try context.notificationBody(
                payload: try notification(carrying: parts[0] + "." + b64(edited) + "." + parts[2], context))
        },
        Mutation(
            "notification-carries-notification", layer: "nesting", .reject, finding: .jwsKindMismatch,
            "a notification whose signedTransactionInfo is another notification (carrying the transaction), all validly signed"
        ) {
            context in
            let inner = try context.signed(payload: try notification(carrying: try context.signed(), context))
            return try context.notificationBody(payload: try notification(carrying: inner, context))
        },
        Mutation(
            "document-notification-as-transaction", layer: "document", .reject, finding: .jwsKindMismatch,
            "an API response whose signedTransactions holds a genuine notification of the app (carrying the transaction), not a transaction"
        ) {
            context in
            let notification = try context.signed(payload: try notification(carrying: try context.signed(), context))
            return #"{"signedTransactions":["\#(notification)"]}"#
        },
    ]
}
