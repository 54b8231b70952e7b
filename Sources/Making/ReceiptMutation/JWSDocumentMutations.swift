import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJWS
import ReceiptSigning
import ReceiptSuite

/// Attacks on the unsigned JSON around Apple's tokens (a notification body, an App Store Server API response) and on
/// the work a verifier spends: each puts a genuine token beside a forged one (the genuine payload edited after
/// signing) in a place or a shape a lenient reader still reads it from. A document is valid only if everything a
/// reader could take from it verifies.
extension JWSMutationCatalogue {
    /// A token of the baseline's header and signature over a payload edited after signing: what a lenient reader
    /// that splits on '.' and decodes would take for a purchase of the lifetime product.
    static func forged(_ context: JWSMutationContext) throws -> String {
        let parts = JWSMutationContext.parts(try context.signed())
        let edited = JWSMutationContext.setting(
            "productId", to: #""com.example.attacker.lifetime""#, in: context.payload)
        return parts[0] + "." + b64(edited) + "." + parts[2]
    }

    /// `{"signedTransactions":[genuine, <forged as `wrap` writes it>]}`.
    static func response(_ context: JWSMutationContext, _ wrap: (String) -> String) throws -> String {
        #"{"signedTransactions":["\#(try context.signed())","\#(wrap(try forged(context)))"]}"#
    }

    static let documents: [Mutation] = [
        Mutation(
            "document-two-genuine-tokens", layer: "document", .accept, finding: nil,
            "an API response holding two genuine tokens: valid, both verified"
        ) { context in
            guard context.binding.kind == .transaction else {
                throw MutationError(
                    .notApplicable,
                    "the input is a \(context.binding.kind.rawValue); an API response lists transactions")
            }
            let token = try context.signed()
            return #"{"signedTransactions":["\#(token)","\#(token)"]}"#
        },
        Mutation(
            "document-token-leading-space", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false,
            "a forged token with a space before it beside a genuine one: once skipped as not a token"
        ) { context in
            try response(context) { " " + $0 }
        },
        Mutation(
            "document-token-trailing-newline", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false, "a forged token with a JSON-escaped line break after it"
        ) { context in
            try response(context) { $0 + #"\n"# }
        },
        Mutation(
            "document-token-escaped-space", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false, "a forged token after a \\u0020 escape"
        ) { context in
            try response(context) { #"\u0020"# + $0 }
        },
        Mutation(
            "document-token-tab-inside", layer: "document", .reject, finding: .jwsTokenUnreadable,
            signatureValid: false,
            "a forged token with a tab inside its payload part (Node's base64 decoder skips it)"
        ) { context in
            try response(context) { token in
                let parts = JWSMutationContext.parts(token)
                return parts[0] + "." + String(parts[1].prefix(8)) + #"\t"# + String(parts[1].dropFirst(8)) + "."
                    + parts[2]
            }
        },
        Mutation(
            "document-token-nul-around", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false, "a forged token between NUL characters"
        ) { context in
            try response(context) { #"\u0000"# + $0 + #"\u0000"# }
        },
        Mutation(
            "document-token-zero-width", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false, "a forged token after a zero-width space and before a byte order mark"
        ) { context in
            try response(context) { #"\u200b"# + $0 + #"\ufeff"# }
        },
        Mutation(
            "document-token-quoted", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false, "a forged token wrapped in escaped quotes inside the string"
        ) { context in
            try response(context) { #"\""# + $0 + #"\""# }
        },
        Mutation(
            "document-token-bearer", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false, "a forged token after a Bearer prefix"
        ) { context in
            try response(context) { "Bearer " + $0 }
        },
        Mutation(
            "document-token-two-parts", layer: "document", .reject, finding: .jwsTokenUnreadable,
            signatureValid: false, "a forged header.payload with no signature part"
        ) { context in
            try response(context) { token in JWSMutationContext.parts(token).prefix(2).joined(separator: ".") }
        },
        Mutation(
            "document-token-four-parts", layer: "document", .reject, finding: .jwsTokenUnreadable,
            signatureValid: false, "a forged token with a fourth part"
        ) { context in
            try response(context) { $0 + ".e30" }
        },
        Mutation(
            "document-token-five-parts", layer: "document", .reject, finding: .jwsTokenUnreadable,
            signatureValid: false, "a forged token in the five-part (JWE) shape"
        ) { context in
            try response(context) { token in
                let parts = JWSMutationContext.parts(token)
                return parts[0] + ".." + parts[1] + "." + parts[2] + "."
            }
        },
        Mutation(
            "document-duplicate-signed-payload", layer: "document", .reject, finding: .jsonDuplicateKey,
            signatureValid: false,
            "a notification body naming signedPayload twice: the genuine first, a forgery last (JSON.parse keeps it)"
        ) { context in
            #"{"signedPayload":"\#(try context.signed())","signedPayload":"\#(try forged(context))"}"#
        },
        Mutation(
            "document-duplicate-signed-payload-forged-first", layer: "document", .reject,
            finding: .jsonDuplicateKey, signatureValid: false,
            "signedPayload twice, a forgery first and the genuine last: a validator that verifies the copy JSON.parse keeps and reads the first accepts it"
        ) { context in
            #"{"signedPayload":"\#(try forged(context))","signedPayload":"\#(try context.signed())"}"#
        },
        Mutation(
            "document-duplicate-transaction-info", layer: "document", .reject, finding: .jsonDuplicateKey,
            signatureValid: false,
            "a transaction-info response naming signedTransactionInfo twice: the genuine first, a forgery last"
        ) { context in
            guard context.binding.kind == .transaction else {
                throw MutationError(.notApplicable, "signedTransactionInfo holds a transaction")
            }
            return
                #"{"signedTransactionInfo":"\#(try context.signed())","signedTransactionInfo":"\#(try forged(context))"}"#
        },
        Mutation(
            "document-duplicate-transaction-info-forged-first", layer: "document", .reject,
            finding: .jsonDuplicateKey, signatureValid: false,
            "signedTransactionInfo twice, a forgery first and the genuine last"
        ) { context in
            guard context.binding.kind == .transaction else {
                throw MutationError(.notApplicable, "signedTransactionInfo holds a transaction")
            }
            return
                #"{"signedTransactionInfo":"\#(try forged(context))","signedTransactionInfo":"\#(try context.signed())"}"#
        },
        Mutation(
            "document-duplicate-escaped-name", layer: "document", .reject, finding: .jsonDuplicateKey,
            signatureValid: false, "the second signedPayload's name written with a \\u escape"
        ) { context in
            #"{"signedPayload":"\#(try context.signed())","signed\u0050ayload":"\#(try forged(context))"}"#
        },
        Mutation(
            "document-renewal-info-forged", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false,
            "a subscription-status response whose lastTransactions[].signedRenewalInfo is forged, space before it"
        ) { context in
            let genuine = try context.signed()
            return
                #"{"data":[{"subscriptionGroupIdentifier":"1","lastTransactions":[{"originalTransactionId":"1","status":1,"#
                + #""signedTransactionInfo":"\#(genuine)","signedRenewalInfo":" \#(try forged(context))"}]}]}"#
        },
        Mutation(
            "document-member-beside-nested-body", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false,
            "a genuine body nested one level down and a forged signedPayload beside it at the top"
        ) { context in
            #"{"body":{"signedPayload":"\#(try context.signed())"},"signedPayload":"\#(try forged(context))\n"}"#
        },
        Mutation(
            "document-member-case-variant", layer: "document", .reject, finding: .jsonDuplicateKey,
            signatureValid: false,
            "signedTransactionInfo genuine, SignedTransactionInfo forged: Go and .NET match names without regard to case"
        ) { context in
            #"{"signedTransactionInfo":"\#(try context.signed())","SignedTransactionInfo":"\#(try forged(context))"}"#
        },
        Mutation(
            "document-token-no-break-space", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false,
            "a forged token after a no-break space (U+00A0) under a member of no special name"
        ) { context in
            #"{"signedTransactions":["\#(try context.signed())"],"jwsRepresentation":"\u00a0\#(try forged(context))"}"#
        },
        Mutation(
            "document-token-spaced-header", layer: "document", .reject, finding: .signatureInvalid,
            signatureValid: false,
            "a forged token whose header is re-encoded as { \"alg\" … (base64 eyAi…, not eyJ) under a member of no special name"
        ) { context in
            let parts = JWSMutationContext.parts(try forged(context))
            let spaced = text(context.header).replacingOccurrences(of: "{", with: "{ ")
            return
                #"{"signedTransactions":["\#(try context.signed())"],"other":"\#(b64(bytes(spaced))).\#(parts[1]).\#(parts[2])"}"#
        },
        Mutation(
            "document-65th-token", layer: "document", .reject, error: .jwsTooManyTokens,
            signatureValid: false, "64 genuine tokens and a forged 65th beyond the reader's limit"
        ) { context in
            let genuine = "\"" + (try context.signed()) + "\""
            let list = Array(repeating: genuine, count: JWSReader.maximumNestedPerPayload).joined(separator: ",")
            return #"{"signedTransactions":[\#(list),"\#(try forged(context))"]}"#
        },
        Mutation(
            "document-names-another-app", layer: "document", .reject, finding: .jwsBindingMismatch,
            "an API response whose unsigned bundleId names another app than its genuine token"
        ) { context in
            #"{"bundleId":"com.example.attacker","signedTransactions":["\#(try context.signed())"]}"#
        },
        Mutation(
            "untrusted-carrier-many-nested", layer: "nesting", .reject, finding: .chainInvalid,
            "a token from a foreign chain carrying 60 tokens: refused without verifying what it carries"
        ) { context in
            let inner = "\"" + (try context.signed(header: context.foreign.header(), by: context.foreign)) + "\""
            let list = Array(repeating: inner, count: 60).joined(separator: ",")
            let payload = JWSMutationContext.setting("signedTransactions", to: "[\(list)]", in: context.payload)
            return try context.signed(header: context.foreign.header(), payload: payload, by: context.foreign)
        },
        Mutation(
            "duplicate-members-many", layer: "payload", .reject, finding: .jsonDuplicateKey,
            "a payload naming one member 5 000 times: one finding counts them"
        ) { context in
            let members = (0..<5_000).map { #""rcptDuplicate":\#($0)"# }.joined(separator: ",")
            var payload = context.payload
            guard payload.last == UInt8(ascii: "}") else { throw MutationError(.notApplicable, "no JSON object") }
            payload.removeLast()
            payload += Array(",\(members)}".utf8)
            return try context.signed(payload: payload)
        },
    ]
}
