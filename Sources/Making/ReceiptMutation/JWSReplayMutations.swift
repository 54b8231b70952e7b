import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptSuite

/// Genuine documents of another app or the other environment, as anyone can get them: a purchase in an app of
/// their own, a Sandbox purchase with a tester account. The claim is changed wherever the document states it — the
/// payload's binding (a notification's `data`) and every token it carries, each signed again — so a validator that
/// takes the app or the environment from the document instead of its own configuration accepts it.
extension JWSMutationCatalogue {
    static let replays: [Mutation] = [
        Mutation(
            "bundle-id-other-app", layer: "binding", .reject, finding: .bundleIdMismatch,
            "a genuine document of another app: its bundleId, and that of every token it carries, another app's"
        ) { context in
            guard JWSMutationContext.value(of: "bundleId", in: context.payload) != nil else {
                throw MutationError(.notApplicable, "the payload carries no bundleId (its carrier binds it)")
            }
            return try context.signed(
                payload: try JWSMutationContext.resigningNested(
                    context.payload, stating: ["bundleId": #""com.example.attacker""#], signer: context.signer,
                    depth: 0))
        },
        renamingApp(
            "bundle-id-extended",
            "a genuine document of another app whose bundleId starts with yours (yours + \".attacker\"): anyone can register such an id, and a prefix or contains check accepts it"
        ) { $0 + ".attacker" },
        renamingApp(
            "bundle-id-prefixed",
            "a genuine document of another app whose bundleId ends with yours (\"com.attacker.\" + yours): anyone can register such an id, and a suffix check accepts it"
        ) { "com.attacker." + $0 },
        Mutation(
            "environment-other", layer: "binding", .reject, finding: .environmentMismatch,
            "a genuine document of the other environment: Production for Sandbox or Sandbox for Production, in the payload and every token it carries"
        ) { context in
            guard context.binding.environment != nil else {
                throw MutationError(.notApplicable, "the payload states no environment")
            }
            let other = environmentLiteral(context) == #""Production""# ? #""Sandbox""# : #""Production""#
            return try context.signed(
                payload: try JWSMutationContext.resigningNested(
                    context.payload, stating: ["environment": other, "receiptType": other], signer: context.signer,
                    depth: 0))
        },
    ]

    /// A genuine document of another app, whose bundleId `renamed` makes from yours, in the payload and every token
    /// it carries.
    static func renamingApp(
        _ name: String, _ summary: String, _ renamed: @escaping @Sendable (String) -> String
    ) -> Mutation {
        Mutation(name, layer: "binding", .reject, finding: .bundleIdMismatch, summary) { context in
            guard let bundleID = JWSMutationContext.string(of: "bundleId", in: context.payload) else {
                throw MutationError(.notApplicable, "the payload carries no bundleId (its carrier binds it)")
            }
            return try context.signed(
                payload: try JWSMutationContext.resigningNested(
                    context.payload, stating: ["bundleId": JSONWriter.literal(renamed(bundleID))],
                    signer: context.signer, depth: 0))
        }
    }
}
