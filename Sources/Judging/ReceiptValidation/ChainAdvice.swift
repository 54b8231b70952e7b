import ReceiptCrypto
import ReceiptInput
import ReceiptModel

/// Why a signer's chain does not verify, said once for every kind of document: the chain's own reason and, when
/// rcpt can tell, what to do about it — a certificate that expired after the document was signed (documents are
/// judged at their signing time unless `--at` says otherwise), or a self-signed signer, as Xcode's StoreKit testing
/// uses, that only `--root` trusts.
enum ChainAdvice {
    /// The reason for `chainInvalid`, with the advice that fits: `leaf` and `intermediates` as embedded, `time` the
    /// evaluation time and `signed` the document's own signing time (unix seconds).
    static func because(
        _ reason: String?, leaf: Certificate, intermediates: [Certificate], at time: Int64,
        signed: Int64?, anchors: TrustAnchors, kind: DocumentKind
    ) -> String {
        let reason = reason ?? "no path to a trusted root"
        let document = kind == .receipt ? "receipt" : "token"
        if let expired = ([leaf] + intermediates).filter({ $0.notAfter < time }).min(by: { $0.notAfter < $1.notAfter }),
            signed.map({ expired.notAfter >= $0 }) ?? false
        {
            let which = expired === leaf ? "The signing certificate" : "The intermediate certificate"
            let judged =
                kind == .receipt
                ? "receipts are validated at their creation date (the default, --at creation)"
                : "tokens are validated at their signing time (the default, --at signed)"
            return reason + ". \(which) expired at \(ReceiptDate.format(epochSeconds: expired.notAfter)), after the "
                + "\(kind == .receipt ? "receipt was created" : "token was signed"): \(judged); Apple's certificates "
                + "last about two years"
        }
        if leaf.isSelfIssued, !anchors.certificates.contains(where: { $0.sha256Fingerprint == leaf.sha256Fingerprint })
        {
            let certificate =
                kind == .receipt
                ? "Xcode's StoreKit certificate (Corpus/certs/StoreKitTestCertificate.cer, or the one Xcode exports)"
                : "the certificate Xcode's StoreKit testing signs with"
            return reason + ". The signer is a self-signed certificate (\(leaf.subject)): an Xcode (StoreKit testing) "
                + "\(document) is trusted only with --root and \(certificate)"
        }
        return reason
    }
}
