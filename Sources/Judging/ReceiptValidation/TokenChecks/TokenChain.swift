import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJWS
import ReceiptModel

/// The chain: the x5c leaf to a trusted anchor (Apple Root CA - G3 unless `--root`) at the evaluation time, under
/// Apple's JWS certificate policy, verified once per chain and inspection (`ChainCache`); a valid chain of Apple's
/// shape is exactly leaf, intermediate and root.
struct TokenChain: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        guard let signer = judgement.signer else { return }
        let at = judgement.headerStart
        let intermediates = judgement.certificates.dropFirst().compactMap { try? $0.get() }
        let (verified, policyFindings) = judgement.cache.chain.check(
            leaf: signer, intermediates: intermediates, at: judgement.evaluatedAt,
            environment: judgement.binding.environment?.text, offset: { _ in at })
        judgement.chain = VerificationSummary(
            signature: judgement.signature, chain: verified.isValid ? .valid : .invalid,
            anchor: verified.anchorSubject, evaluatedAt: judgement.evaluatedAt,
            evaluatedAtSource: judgement.timeSource, path: verified.path,
            errors: verified.errors)
        guard verified.isValid else {
            let evaluatedAt = judgement.evaluatedAt
            let because = ChainAdvice.because(
                verified.errors.first, leaf: signer, intermediates: intermediates,
                at: judgement.evaluatedAt, signed: judgement.signedAt,
                anchors: judgement.cache.chain.anchors, kind: .jws)
            judgement.findings.append(
                Finding(
                    .chainInvalid, at: at,
                    "the x5c chain does not reach a trusted root at \(ReceiptDate.format(epochSeconds: evaluatedAt)): \(because)"
                ))
            return
        }
        // RFC 7515 §4.1.6: each certificate after the first certifies the one before. Apple's libraries take x5c[1]
        // as the leaf's issuer (and read no further): a chain that verifies only through a later certificate is
        // refused there.
        if verified.certificates.count > 1, judgement.certificates.count > 1,
            (try? judgement.certificates[1].get())?.sha256Fingerprint
                != verified.certificates[1].sha256Fingerprint
        {
            let place =
                judgement.certificates.firstIndex {
                    (try? $0.get())?.sha256Fingerprint == verified.certificates[1].sha256Fingerprint
                }.map { "x5c[\($0)]" } ?? "a certificate outside x5c"
            judgement.findings.append(
                Finding(
                    .jwsX5cOrder, at: at,
                    "x5c[1] is not the leaf's issuer (the chain verifies through \(place)): x5c is leaf first, each next certificate the issuer of the one before (RFC 7515 §4.1.6), and Apple's libraries take x5c[1] as the intermediate"
                ))
        }
        // Apple's chains are exactly leaf, intermediate, root; its libraries refuse any other length. A self-signed
        // (Xcode) signer is judged by the signing policy.
        let count = judgement.certificates.count
        if verified.certificates.count > 1 && count != 3
            && !judgement.findings.contains(where: { $0.kind == .jwsX5cLength })
        {
            judgement.findings.append(
                Finding(
                    .jwsX5cLength, at: at,
                    "x5c holds \(count) certificates; Apple's holds leaf, WWDR intermediate and root"))
        }
        judgement.findings += policyFindings
    }
}
