import ReceiptCrypto
import ReceiptDiagnostics

/// A nested token is signed by the signer of the token carrying it (Apple signs a notification and what it carries
/// with one key).
struct TokenCarrierSigner: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        guard let carrierSigner = judgement.carrier?.signer, let signer = judgement.signer,
            carrierSigner.sha256Fingerprint != signer.sha256Fingerprint
        else { return }
        judgement.findings.append(
            Finding(
                .jwsNestedSignerDiffers, at: judgement.headerStart,
                "this nested JWS is signed by \(signer.subject), the token holding it by \(carrierSigner.subject)"))
    }
}
