import ReceiptCrypto
import ReceiptDiagnostics

/// x5c is leaf first (RFC 7515 §4.1.6). A first certificate that is a CA, with an end-entity certificate after it,
/// is a chain written root first (or shuffled): its key signed nothing, and judged as the signer it would be refused
/// for what it is not (a P-384 key, a self-signed StoreKit-style certificate). It is said once, for what it is, and
/// the signature and chain are not judged: Apple's libraries take x5c[0] as the signer and refuse the token.
struct TokenLeafFirst: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        let certificates = judgement.certificates
        guard certificates.count > 1, let first = judgement.signer, first.isCertificateAuthority,
            let leaf = certificates.indices.dropFirst().first(where: {
                (try? certificates[$0].get())?.isCertificateAuthority == false
            })
        else { return }
        judgement.isSignerMisplaced = true
        judgement.signature = .invalid
        judgement.findings.append(
            Finding(
                .jwsX5cOrder, at: judgement.headerStart,
                "x5c[0] is a CA certificate (\(first.subject)) and the end-entity certificate stands at x5c[\(leaf)]: x5c is leaf first, each next certificate the issuer of the one before (RFC 7515 §4.1.6); Apple's libraries take x5c[0] as the signer and refuse the token, so its signature and chain were not judged"
            ))
    }
}
