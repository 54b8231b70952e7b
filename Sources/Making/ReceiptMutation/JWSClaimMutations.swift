import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptSigning
import ReceiptSuite
import ReceiptValidation

/// Attacks on what a signed payload says, signed as they are: dates that are present but no date (a verifier that
/// takes them as absent judges the chain now and skips the future-date check), payloads that are not JSON objects,
/// app and environment claims in places Apple does not read them from, and nested tokens that name another app or
/// environment than the token carrying them.
extension JWSMutationCatalogue {
    /// A TEST-ONLY device that is not the suite's.
    static let otherDevice: [UInt8] = Array(repeating: 0x5A, count: 16)

    /// The baseline's signing time in milliseconds (the fixture date when it has none): the claim its chain is
    /// judged at, `signedDate` (an app transaction's `receiptCreationDate`).
    static func signedDate(_ context: JWSMutationContext) -> Int64 {
        JWSMutationContext.value(of: context.binding.timeClaim, in: context.payload).flatMap(JWSToken.milliseconds)
            ?? 1_717_243_200_000
    }

    /// The baseline with its signing time (`signedDate`, an app transaction's `receiptCreationDate`) written as `text`.
    static func withSignedDate(_ text: String, _ context: JWSMutationContext) throws -> String {
        try context.signed(
            payload: JWSMutationContext.setting(context.binding.timeClaim, to: text, in: context.payload))
    }

    /// Signing times (`signedDate`; an app transaction's `receiptCreationDate`) that are present but no usable date,
    /// each refused as `jws-date-unusable`: name, the claim's text and a summary.
    static let unusableSignedDates: [(name: String, text: @Sendable (JWSMutationContext) -> String, summary: String)] =
        [
            (
                "signed-date-negative", { context in "-\(signedDate(context))" },
                "signedDate negative: no signing time, once taken as absent (the chain judged now)"
            ),
            (
                "signed-date-minus-zero", { _ in "-0" },
                "signedDate -0"
            ),
            (
                "signed-date-beyond-2-53", { _ in "9007199254740993" },
                "signedDate 2^53 + 1: a reader into a double sees another instant"
            ),
            (
                "signed-date-beyond-64-bits", { _ in "18446744073709551616" },
                "signedDate 2^64: beyond any integer a reader holds"
            ),
            (
                "signed-date-huge-exponent", { _ in "1e400" },
                "signedDate 1e400: infinite to a reader into a double"
            ),
            (
                "signed-date-thousand-digits", { _ in String(repeating: "7", count: 1_000) },
                "signedDate of 1 000 digits"
            ),
        ]

    static let dates: [Mutation] =
        [
            Mutation(
                "signed-date-exponent-form", layer: "payload", .accept, finding: nil,
                "signedDate written in exponent form (1.7172432e12): the same instant, read exactly"
            ) { context in
                let digits = String(signedDate(context))
                var fraction = String(digits.dropFirst())
                while fraction.hasSuffix("0") { fraction.removeLast() }
                let text = String(digits.prefix(1)) + (fraction.isEmpty ? "" : "." + fraction) + "e\(digits.count - 1)"
                return try withSignedDate(text, context)
            },
            Mutation(
                "signed-date-fraction", layer: "payload", .accept, finding: nil,
                "signedDate with a fraction of a millisecond, as Xcode writes it"
            ) { context in
                try withSignedDate("\(signedDate(context)).485", context)
            },
        ]
        + unusableSignedDates.map { entry in
            Mutation(entry.name, layer: "payload", .reject, finding: .jwsDateUnusable, entry.summary) { context in
                try withSignedDate(entry.text(context), context)
            }
        } + [
            Mutation(
                "signed-date-as-string", layer: "payload", .reject, finding: .jwsClaimType,
                "signedDate as the string \"NaN\": present, so never absent"
            ) { context in
                try withSignedDate(#""NaN""#, context)
            },
            Mutation(
                "revocation-date-minus-zero", layer: "payload", .reject, finding: .jwsDateUnusable,
                "revocationDate -0.0: JavaScript's if (revocationDate) reads it as not revoked"
            ) { context in
                try context.signed(
                    payload: JWSMutationContext.setting("revocationDate", to: "-0.0", in: context.payload))
            },
            Mutation(
                "expires-date-beyond-2-53", layer: "payload", .reject, finding: .jwsDateUnusable,
                "expiresDate beyond 2^53: a subscription that never ends to a reader into a double"
            ) { context in
                try context.signed(
                    payload: JWSMutationContext.setting("expiresDate", to: "90071992547409930", in: context.payload))
            },
        ]

    static let shapes: [Mutation] = [
        Mutation(
            "payload-json-array", layer: "payload", .reject, error: .jwsPayloadNotObject,
            "a signed payload that is a JSON array holding the claims"
        ) { context in
            try context.signed(payload: Array("[".utf8) + context.payload + Array("]".utf8))
        },
        Mutation(
            "payload-json-string", layer: "payload", .reject, error: .jwsPayloadNotObject,
            "a signed payload that is a JSON string"
        ) { context in
            try context.signed(payload: Array(#""signed""#.utf8))
        },
    ]

    /// A notification (the baseline's app and environment in `data` unless given) carrying `token`.
    static func notification(
        carrying token: String, _ context: JWSMutationContext, bundle: String? = nil,
        environment: String? = nil, extra: String = "", renewal: String? = nil
    ) throws -> [UInt8] {
        // A notification carries a transaction as signedTransactionInfo: any other kind there is another flaw
        // (jws-kind-mismatch), so these entries are made from transactions only.
        guard context.binding.kind == .transaction else {
            throw MutationError(
                .notApplicable,
                "made from a transaction: it builds a notification around one (the input is a \(context.binding.kind.rawValue); give a transaction, such as a notification's signedTransactionInfo token, to have it made)"
            )
        }
        let binding = context.binding
        let bundle = bundle ?? binding.bundleID.map { JSONWriter.literal($0.text) } ?? #""com.example""#
        let environment = environment ?? environmentLiteral(context)
        let signed = JWSMutationContext.value(of: "signedDate", in: context.payload) ?? "1700000000000"
        let renewalMember = renewal.map { #","signedRenewalInfo":"\#($0)""# } ?? ""
        let appAppleID = context.appAppleID.map { #""appAppleId":\#($0),"# } ?? ""
        return bytes(
            #"{"notificationType":"DID_RENEW","subtype":"BILLING_RECOVERY","notificationUUID":"00000000-0000-4000-8000-000000000000","#
                + #""data":{"bundleId":\#(bundle),"environment":\#(environment),\#(appAppleID)"signedTransactionInfo":"\#(token)"\#(renewalMember)},"#
                + #""version":"2.0","signedDate":\#(signed)\#(extra)}"#)
    }

    static let bindings: [Mutation] = [
        Mutation(
            "device-verification-other-device", layer: "binding", .reject, finding: .jwsDeviceMismatch,
            "deviceVerification computed for another device (from the token's own nonce): a token StoreKit gave someone else"
        ) {
            context in
            guard !context.deviceID.isEmpty,
                let other = JWSMutationContext.issued(context.payload, to: Self.otherDevice)
            else {
                throw MutationError(.notApplicable, "the payload carries no deviceVerification")
            }
            return try context.signed(payload: other)
        },
        Mutation(
            "application-version-other", layer: "binding", .reject, finding: .appVersionMismatch,
            "an app transaction for another version of the app (applicationVersion)"
        ) { context in
            guard let version = context.expectations.appVersion else {
                throw MutationError(.notApplicable, "the payload is not an app transaction with an applicationVersion")
            }
            return try context.signed(
                payload: JWSMutationContext.setting(
                    "applicationVersion", to: "\"\(version).1\"", in: context.payload))
        },
        Mutation(
            "notification-bundle-id-look-alike", layer: "binding", .reject, finding: .bundleIdMismatch,
            "a notification for another app (data.bundleId) with the expected bundleId in a top-level look-alike"
        ) { context in
            let genuine = JWSMutationContext.value(of: "bundleId", in: context.payload) ?? #""com.example""#
            return try context.notificationBody(
                payload: try notification(
                    carrying: try context.signed(), context,
                    bundle: #""com.example.attacker""#,
                    extra: #","bundleId":\#(genuine)"#))
        },
        Mutation(
            "notification-with-renewal-info", layer: "binding", .accept, finding: nil,
            "a notification carrying a transaction and renewal info (which has no bundleId): bound by the notification"
        ) { context in
            let environment = environmentLiteral(context)
            let original =
                JWSMutationContext.value(of: "originalTransactionId", in: context.payload) ?? #""2000000000000001""#
            let renewal = try context.signed(
                payload: bytes(
                    #"{"originalTransactionId":\#(original),"autoRenewProductId":"com.example.monthly","#
                        + #""productId":"com.example.monthly","autoRenewStatus":1,"signedDate":\#(signedDate(context)),"environment":\#(environment)}"#
                ))
            return try context.notificationBody(
                payload: try notification(carrying: try context.signed(), context, renewal: renewal))
        },
        Mutation(
            "notification-data-array", layer: "binding", .reject, finding: .jwsBindingMismatch,
            "a notification whose data is an array holding the app's object: bound to no app"
        ) { context in
            let payload = try notification(carrying: try context.signed(), context)
            let text = String(decoding: payload, as: UTF8.self)
                .replacingOccurrences(of: #""data":{"#, with: #""data":[{"#)
                .replacingOccurrences(of: #"},"version""#, with: #"}],"version""#)
            return try context.notificationBody(payload: bytes(text))
        },
        Mutation(
            "notification-data-and-summary", layer: "binding", .reject, finding: .jwsBindingMismatch,
            "a notification with data for the app and a summary for another: Apple sends one"
        ) { context in
            let environment = environmentLiteral(context)
            return try context.notificationBody(
                payload: try notification(
                    carrying: try context.signed(), context,
                    extra:
                        #","summary":{"bundleId":"com.example.attacker","environment":\#(environment),"appAppleId":1}"#)
            )
        },
        Mutation(
            "notification-renewal-of-another-subscription", layer: "nesting", .reject,
            finding: .jwsBindingMismatch,
            "a notification carrying a transaction and the renewal info of another subscription"
        ) { context in
            guard JWSMutationContext.value(of: "transactionId", in: context.payload) != nil else {
                throw MutationError(.notApplicable, "the payload is not a transaction")
            }
            let environment = environmentLiteral(context)
            let original =
                JWSMutationContext.value(of: "originalTransactionId", in: context.payload) ?? #""2000000000000001""#
            let other = original == #""9999999999999999""# ? #""8888888888888888""# : #""9999999999999999""#
            let transaction = JWSMutationContext.setting("originalTransactionId", to: original, in: context.payload)
            let renewal = try context.signed(
                payload: bytes(
                    #"{"originalTransactionId":\#(other),"autoRenewProductId":"com.example.monthly","#
                        + #""productId":"com.example.monthly","autoRenewStatus":1,"signedDate":\#(signedDate(context)),"environment":\#(environment)}"#
                ))
            return try context.notificationBody(
                payload: try notification(
                    carrying: try context.signed(payload: transaction), context,
                    renewal: renewal))
        },
        Mutation(
            "app-transaction-environment-differs", layer: "binding", .reject, finding: .jwsBindingMismatch,
            "an app transaction whose environment is Production and receiptType Sandbox"
        ) { context in
            let bundle = JWSMutationContext.value(of: "bundleId", in: context.payload) ?? #""com.example""#
            return try context.signed(
                payload: bytes(
                    #"{"receiptType":"Sandbox","environment":"Production","bundleId":\#(bundle),"appAppleId":1,"#
                        + #""applicationVersion":"1","originalApplicationVersion":"1","receiptCreationDate":\#(signedDate(context)),"#
                        + #""requestDate":\#(signedDate(context)),"originalPurchaseDate":\#(signedDate(context)),"signedDate":\#(signedDate(context))}"#
                ))
        },
        Mutation(
            "notification-carries-other-app", layer: "nesting", .reject, finding: .jwsBindingMismatch,
            "a notification for the app carrying a transaction of another app, both validly signed"
        ) { context in
            let other = JWSMutationContext.setting("bundleId", to: #""com.example.attacker""#, in: context.payload)
            return try context.notificationBody(
                payload: try notification(carrying: try context.signed(payload: other), context))
        },
        Mutation(
            "notification-carries-other-environment", layer: "nesting", .reject, finding: .jwsBindingMismatch,
            "a notification of one environment carrying a transaction of the other, both validly signed"
        ) { context in
            let environment = environmentLiteral(context)
            let other = environment == #""Production""# ? #""Sandbox""# : #""Production""#
            let edited = JWSMutationContext.setting("environment", to: other, in: context.payload)
            return try context.notificationBody(
                payload: try notification(
                    carrying: try context.signed(payload: edited), context,
                    environment: environment))
        },
    ]
}
