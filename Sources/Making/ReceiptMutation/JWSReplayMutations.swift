import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptSigning
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
                payload: try stating(["bundleId": #""com.example.attacker""#], in: context.payload, context, depth: 0))
        },
        Mutation(
            "environment-other", layer: "binding", .reject, finding: .environmentMismatch,
            "a genuine document of the other environment: Production for Sandbox or Sandbox for Production, in the payload and every token it carries"
        ) { context in
            guard context.binding.environment != nil else {
                throw MutationError(.notApplicable, "the payload states no environment")
            }
            let other = environmentLiteral(context) == #""Production""# ? #""Sandbox""# : #""Production""#
            return try context.signed(
                payload: try stating(
                    ["environment": other, "receiptType": other], in: context.payload, context, depth: 0))
        },
    ]

    /// `payload` with each claim of `values` that it states set to its JSON text, and every token in its strings
    /// edited the same way and signed again with the test CA, to a bounded depth.
    static func stating(
        _ values: [String: String], in payload: [UInt8], _ context: JWSMutationContext, depth: Int
    ) throws(CryptoError) -> [UInt8] {
        var result = payload
        for (name, value) in values.sorted(by: { $0.key < $1.key })
        where JWSMutationContext.value(of: name, in: result) != nil {
            result = JWSMutationContext.setting(name, to: value, in: result)
        }
        guard depth < JWSReader.maximumNesting, let document = try? JSONDocument.read(result) else { return result }
        for entry in document.nodes.reversed() where entry.kind == .string {
            let range = entry.start + 1..<entry.end - 1
            let text = Array(result[range])
            guard JWSReader.looksLikeCompactJWS(text), case .success(let nested) = JWSReader.read(text[...]) else {
                continue
            }
            let inner = try stating(values, in: nested.payloadBytes, context, depth: depth + 1)
            result.replaceSubrange(range, with: Array(try context.signed(payload: inner).utf8))
        }
        return result
    }
}
