import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJWS

/// The algorithm and the signature: ES256 only (a validator that follows `alg` can be made to accept none, an HMAC
/// keyed with the public key, or another algorithm), JOSE's 64-octet r ‖ s, verified over header.payload with the
/// x5c leaf's P-256 key; a high s is said (the signature's twin verifies too).
struct TokenSignature: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        let token = judgement.token
        let algorithm = token.algorithm
        if algorithm != "ES256" {
            let shown = algorithm.map { "\"\($0)\"" } ?? "missing"
            judgement.findings.append(
                Finding(
                    .jwsAlgorithmNotEs256, at: judgement.headerStart,
                    "alg is \(shown), not ES256: Apple signs only with ES256, and a validator that follows alg can be made to accept none, an HMAC keyed with the public key, or another algorithm",
                    fields: [FindingField("alg", algorithm ?? "")]))
        } else if token.signature.count != 64 {
            judgement.signature = .invalid
            if ECDSASignature.raw(fromDER: token.signature) != nil {
                judgement.findings.append(
                    Finding(
                        .jwsSignatureDer, at: judgement.signatureStart,
                        "the signature is DER-encoded (\(token.signature.count) octets, SEQUENCE { r, s }): JOSE's ES256 signature is r ‖ s, 64 octets"
                    ))
            } else {
                judgement.findings.append(
                    Finding(
                        .jwsSignatureLength, at: judgement.signatureStart,
                        token.signature.count < 64
                            ? "the signature has \(token.signature.count) octets; ES256's has 64 (a token cut short, as a paste or a log line truncates it, ends so too)"
                            : "the signature has \(token.signature.count) octets; ES256's has 64"))
            }
        } else if let signer = judgement.signer {
            if !signer.hasP256Key {
                judgement.signature = .invalid
                judgement.findings.append(
                    Finding(
                        .jwsKeyNotP256, at: judgement.headerStart,
                        "the signing certificate's key is \(signer.publicKeyDescription), not EC P-256 (prime256v1)"))
            } else if let der = ECDSASignature.der(fromRaw: token.signature) {
                let verified = SignatureVerifier.verify(
                    signature: der[...], over: [token.signingInput],
                    digest: .sha256, certificate: signer)
                if case .valid = verified {
                    judgement.signature = .valid
                    if ECDSASignature.isHighS(token.signature) {
                        judgement.findings.append(
                            Finding(
                                .jwsSignatureHighS, at: judgement.signatureStart,
                                "s is above n/2: the signature verifies, and so does its twin with n − s; a validator that keys replay protection on the signature can be fooled"
                            ))
                    }
                } else {
                    judgement.signature = .invalid
                    judgement.findings.append(
                        Finding(
                            .signatureInvalid, at: judgement.signatureStart,
                            "the ES256 signature does not verify over header.payload with the x5c leaf's key: the token was changed after signing, or signed by another key"
                        ))
                }
            }
        }
    }
}
