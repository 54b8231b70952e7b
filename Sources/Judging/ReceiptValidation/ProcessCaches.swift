import ReceiptCrypto
import ReceiptJWS

/// The process-wide caches that spare a document the work an earlier one with the same bytes did: token headers
/// (`JWSHeaderCache`), their x5c certificates (`TokenCertificates`), x5c elements (`X5CElement`) and decoded
/// certificates (`CertificateCache`); the chain verification cache is an inspection option of its own
/// (`ChainVerificationCache`). Each keeps only what is a function of its key's bytes, so none changes a verdict.
package enum ProcessCaches {
    /// Forgets everything they hold: the next document is read as by a process that just started. For tests that
    /// compare a cold judgement with a warm one.
    package static func removeAll() {
        JWSHeaderCache.removeAll()
        TokenCertificates.removeAll()
        X5CElement.removeAll()
        CertificateCache.shared.removeAll()
    }
}
