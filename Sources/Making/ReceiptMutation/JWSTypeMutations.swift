import ReceiptDiagnostics
import ReceiptJWS
import ReceiptSuite

extension JWSMutationCatalogue {
    /// A claim of another JSON type than Apple sends: a validator that casts (`quantity` compared as text, a
    /// `transactionId` number rounded past 2^53, `isUpgraded: "false"` read as true) or throws on it. Each is
    /// re-signed; `rcpt verify` rejects it (`jws-claim-type`), since Apple never sends it.
    static let claimTypes: [Mutation] =
        [
            (
                "quantity-as-string", "quantity", #""1""#,
                "quantity as the string \"1\": compared as text, \"10\" < \"9\""
            ),
            (
                "transaction-id-as-number", "transactionId", "2000000000000001",
                "transactionId as a JSON number: rounded by a reader into a double, and no longer equal to the string"
            ),
            ("bundle-id-as-number", "bundleId", "42", "bundleId as a JSON number"),
            (
                "product-id-as-array", "productId", #"["com.example.app.monthly"]"#,
                "productId as an array holding the product id: a template that interpolates it sees the same text"
            ),
            ("environment-as-boolean", "environment", "true", "environment as the boolean true"),
            (
                "purchase-date-as-string", "purchaseDate", #""1717243100000""#,
                "purchaseDate as a string of the same digits: a date parser takes it, a number check does not"
            ),
            (
                "expires-date-as-iso-string", "expiresDate", #""2099-01-01T00:00:00Z""#,
                "expiresDate as an ISO 8601 string: read as a date by a lenient parser, as NaN by a strict one"
            ),
            (
                "is-upgraded-as-string", "isUpgraded", #""false""#,
                "isUpgraded as the string \"false\": truthy in JavaScript, so read as upgraded"
            ),
            ("price-as-string", "price", #""1990""#, "price as a string"),
            ("revocation-reason-as-string", "revocationReason", #""1""#, "revocationReason as a string"),
        ].map { name, claim, value, summary in
            Mutation(name, layer: "payload", .reject, finding: .jwsClaimType, summary) { context in
                // A transaction's claims: on another kind that does not carry the claim, nothing reads it there (a
                // reviewer's trial: 14 such entries on a notification were noise).
                guard
                    context.binding.kind == .transaction
                        || JWSMutationContext.value(of: claim, in: context.payload) != nil
                else {
                    throw MutationError(
                        .notApplicable, "the payload (\(context.binding.kind.rawValue)) does not carry \(claim)")
                }
                return try context.signed(payload: JWSMutationContext.setting(claim, to: value, in: context.payload))
            }
        } + [
            // Apple's libraries read a null claim as absent: a warning (valid) unless --strict.
            Mutation(
                "revocation-date-null", layer: "payload", .accept, finding: .jwsClaimType,
                "revocationDate null: absent to Apple's libraries, so not revoked (a warning; an error under --strict)"
            ) { context in
                try context.signed(
                    payload: JWSMutationContext.setting("revocationDate", to: "null", in: context.payload))
            }
        ]
}
