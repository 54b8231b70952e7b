import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases

/// Verifies Apple's JWS as Apple's server libraries do: ES256 only, an x5c chain (standard base64 DER, exactly leaf,
/// intermediate, root) to a trusted anchor (Apple Root CA - G3 unless `--root`) at the payload's signedDate (an app
/// transaction's receiptCreationDate), Apple's markers and certificate policy on the leaf and intermediate, the
/// signature with the leaf's P-256 key, and the app and environment each kind of payload is bound to. Nested JWS
/// are verified the same way when the token carrying them is trusted, must agree with it on the app and
/// environment, and an invalid nested token makes its carrier invalid.
public enum JWSInspector {
    /// Inspects `bytes`; `read` is what `JWSInput.recognise` made of them when the classifier already read them.
    public static func inspect(
        _ bytes: [UInt8], options: InspectionOptions,
        read: Result<JWSInput, JWSReadError>? = nil
    ) -> JWSInspection {
        let options = options.pinned
        switch read ?? JWSInput.read(bytes) {
        case .failure(let error):
            return JWSInspection(
                input: InputSummary(of: bytes, format: "jws", digested: options.digestsInput), jws: nil,
                readError: error, tokens: [])
        case .success(let input):
            let cache = ChainCache(anchors: options.resolvedJWSAnchors, verifications: options.chainVerifications)
            let tokens = input.tokens.map { verify($0, carrier: nil, options: options, cache: cache) }
            var findings = input.findings
            if let document = input.json {
                findings += documentAgreement(document, tokens: tokens, offset: input.jsonOffset)
                findings += pairAgreement(tokens)
            }
            var production = false
            var pending = tokens
            while let token = pending.popLast() {
                if token.binding.environment?.text == ReceiptEnvironment.production.rawValue { production = true }
                pending += token.nested
            }
            // A part binds the document when every token it holds carries it, the tokens of one object as a pair
            // (a response's renewal info is bound by the transaction beside it, of its subscription: `pairAgreement`).
            var carriedByObject: [String: Set<BindingScope.Part>] = [:]
            for (index, token) in tokens.enumerated() {
                carriedByObject[pairObject(token.path) ?? "#\(index)", default: []].formUnion(
                    TokenBinding.carried(token, options.expectations))
            }
            let carried = Array(carriedByObject.values)
            let scope = BindingScope.of(
                options.expectations, production: production,
                carried: carried.dropFirst().reduce(carried.first ?? []) { $0.intersection($1) })
            findings += scope.requiredFindings(options, document: "token")
            return JWSInspection(
                input: InputSummary(of: bytes, format: input.form.rawValue, digested: options.digestsInput),
                jws: input, readError: nil, tokens: tokens, findings: findings, binding: scope)
        }
    }

    /// The token that carries a nested one: its signer, what it is bound to, and whether it is trusted.
    struct Carrier {
        var signer: Certificate?
        var binding: JWSBinding
        var trusted: Bool
        /// When the carrier was judged (seconds): what a token it carries states of its purchase is said as of then,
        /// the time the carrier speaks of, not the token's own older signing.
        var evaluatedAt: Int64?
    }

    /// The chain verifications of one inspection: the tokens of one document usually share one chain, which is then
    /// verified once (and, when it verifies, once per process: `ChainVerificationCache`).
    final class ChainCache {
        /// The one chain check, under Apple's JWS policy, remembering each path it verified.
        let chain: ChainCheck

        init(anchors: TrustAnchors, verifications: ChainVerificationCache) {
            chain = .jws(anchors, verifications: verifications)
        }
    }

    /// Verifies one token with every check (`tokenChecks`) and, when it is trusted, its nested ones.
    static func verify(_ held: NestedJWS, carrier: Carrier?, options: InspectionOptions, cache: ChainCache)
        -> JWSVerification
    {
        var judgement = TokenJudgement(held, carrier: carrier, options: options, cache: cache)
        let token = held.token
        let binding = judgement.binding
        // Work bounded by trust: a token carried by one that is not trusted is read, never verified.
        if let carrier, !carrier.trusted {
            judgement.findings.append(
                Finding(
                    .jwsNestedUnverified, at: token.offset,
                    "not verified: the token carrying it is not trusted, so nothing it carries is"))
            let nested = token.nested.map {
                verify(
                    $0, carrier: Carrier(signer: nil, binding: binding, trusted: false),
                    options: options, cache: cache)
            }
            return JWSVerification(
                path: held.path, offset: held.offset, token: token, binding: binding,
                certificates: [], signature: .unsupported, chain: nil,
                findings: judgement.findings.aggregated(), nested: nested)
        }
        for check in tokenChecks { check.check(&judgement) }
        // Nested tokens: verified the same way when this token is trusted; bound to what this token is bound to.
        let nested = token.nested.map {
            verify(
                $0,
                carrier: Carrier(
                    signer: judgement.signer, binding: binding, trusted: judgement.isTrusted,
                    evaluatedAt: judgement.carrier?.evaluatedAt ?? judgement.evaluatedAt),
                options: options, cache: cache)
        }
        if binding.kind == .notification { judgement.findings += siblingAgreement(nested, at: judgement.payloadStart) }
        for child in nested {
            let at = judgement.payloadOffset(child.offset)
            judgement.findings += agreement(of: child.binding, path: child.path, with: binding, at: at)
            if !child.isValid {
                judgement.findings.append(
                    Finding(
                        .jwsNestedInvalid, at: at,
                        "the JWS at \(child.path) is not valid: \(child.findings.first { $0.severity == .error }?.code ?? "a JWS nested in it is not")",
                        fields: [FindingField("path", child.path)]))
            }
        }
        return JWSVerification(
            path: held.path, offset: held.offset, token: token, binding: binding,
            certificates: judgement.certificates, signature: judgement.signature,
            chain: judgement.chain, findings: judgement.findings.aggregated(), nested: nested)
    }
}
