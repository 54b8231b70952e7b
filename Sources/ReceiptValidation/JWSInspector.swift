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
    public static func inspect(_ bytes: [UInt8], options: InspectionOptions,
                               read: Result<JWSInput, JWSReadError>? = nil) -> JWSInspection {
        let options = options.pinned
        switch read ?? JWSInput.read(bytes) {
        case .failure(let error):
            return JWSInspection(input: InputSummary(of: bytes, format: "jws", digested: options.digestsInput), jws: nil,
                                 readError: error, tokens: [])
        case .success(let input):
            let cache = ChainCache(anchors: options.resolvedJWSAnchors)
            let tokens = input.tokens.map { verify($0, carrier: nil, options: options, cache: cache) }
            var findings = input.findings
            if let document = input.json {
                findings += documentAgreement(document, tokens: tokens, offset: input.jsonOffset)
            }
            var production = false
            var pending = tokens
            while let token = pending.popLast() {
                if token.binding.environment?.text == ReceiptEnvironment.production.rawValue { production = true }
                pending += token.nested
            }
            let scope = BindingScope.of(options.expectations, production: production)
            findings += scope.requiredFindings(options, document: "token")
            return JWSInspection(input: InputSummary(of: bytes, format: input.form.rawValue, digested: options.digestsInput),
                                 jws: input, readError: nil, tokens: tokens, findings: findings, binding: scope)
        }
    }

    /// The token that carries a nested one: its signer, what it is bound to, and whether it is trusted.
    struct Carrier {
        var signer: Certificate?
        var binding: JWSBinding
        var trusted: Bool
    }

    /// Decoded x5c chains and their verification, kept for one inspection: the tokens of one document usually share
    /// one chain, which is then decoded and verified once.
    final class ChainCache {
        var certificates: [[String]: ([Result<Certificate, CryptoError>], [Finding])] = [:]
        /// The one chain check, under Apple's JWS policy, remembering each path it verified.
        let chain: ChainCheck

        init(anchors: TrustAnchors) { chain = .jws(anchors) }
    }

    /// Verifies one token and, when it is trusted, its nested ones.
    static func verify(_ held: NestedJWS, carrier: Carrier?, options: InspectionOptions, cache: ChainCache)
        -> JWSVerification
    {
        let token = held.token
        var findings = token.findings.judged(strict: options.strict)
        let binding = token.binding(member: held.member)
        let headerStart = token.ranges[.header]?.lowerBound ?? token.offset
        let payloadStart = token.ranges[.payload]?.lowerBound ?? token.offset
        let signatureStart = token.ranges[.signature]?.lowerBound ?? token.offset
        func payloadOffset(_ jsonOffset: Int) -> Int { payloadStart + Base64URL.textOffset(ofDecodedByte: jsonOffset) }
        // Work bounded by trust: a token carried by one that is not trusted is read, never verified.
        if let carrier, !carrier.trusted {
            findings.append(Finding(.jwsNestedUnverified, at: token.offset,
                                    "not verified: the token carrying it is not trusted, so nothing it carries is"))
            let nested = token.nested.map { verify($0, carrier: Carrier(signer: nil, binding: binding, trusted: false),
                                                   options: options, cache: cache) }
            return JWSVerification(path: held.path, offset: held.offset, token: token, binding: binding,
                                   certificates: [], signature: .unsupported, chain: nil,
                                   findings: findings.aggregated(), nested: nested)
        }
        // Certificates.
        let (certificates, certificateFindings) = x5c(token, at: headerStart, cache: cache)
        findings += certificateFindings
        let signerOffset = headerStart
        let signer = try? certificates.first?.get()
        // Algorithm and signature.
        var signatureStatus = VerificationSummary.SignatureStatus.unsupported
        let algorithm = token.algorithm
        if algorithm != "ES256" {
            let shown = algorithm.map { "\"\($0)\"" } ?? "missing"
            findings.append(Finding(.jwsAlgorithmNotEs256, at: headerStart,
                                    "alg is \(shown), not ES256: Apple signs only with ES256, and a validator that follows alg can be made to accept none, an HMAC keyed with the public key, or another algorithm",
                                    fields: [FindingField("alg", algorithm ?? "")]))
        } else if token.signature.count != 64 {
            signatureStatus = .invalid
            if ECDSASignature.raw(fromDER: token.signature) != nil {
                findings.append(Finding(.jwsSignatureDer, at: signatureStart,
                                        "the signature is DER-encoded (\(token.signature.count) octets, SEQUENCE { r, s }): JOSE's ES256 signature is r ‖ s, 64 octets"))
            } else {
                findings.append(Finding(.jwsSignatureLength, at: signatureStart,
                                        "the signature has \(token.signature.count) octets; ES256's has 64"))
            }
        } else if let signer {
            if signer.keyAlgorithm != .ec || !signer.publicKeyDescription.contains("prime256v1") {
                signatureStatus = .invalid
                findings.append(Finding(.jwsKeyNotP256, at: signerOffset,
                                        "the signing certificate's key is \(signer.publicKeyDescription), not EC P-256 (prime256v1)"))
            } else if let der = ECDSASignature.der(fromRaw: token.signature) {
                let check = SignatureVerifier.verify(signature: der[...], over: [token.signingInput], digest: .sha256,
                                                     certificate: signer)
                if case .valid = check {
                    signatureStatus = .valid
                    if ECDSASignature.isHighS(token.signature) {
                        findings.append(Finding(.jwsSignatureHighS, at: signatureStart,
                                                "s is above n/2: the signature verifies, and so does its twin with n − s; a validator that keys replay protection on the signature can be fooled"))
                    }
                } else {
                    signatureStatus = .invalid
                    findings.append(Finding(.signatureInvalid, at: signatureStart,
                                            "the ES256 signature does not verify over header.payload with the x5c leaf's key: the token was changed after signing, or signed by another key"))
                }
            }
        }
        // Time.
        let (evaluatedAt, source, signedAt, timeFindings) = evaluationTime(token, binding: binding, options: options,
                                                                           at: payloadOffset)
        findings += timeFindings
        // Chain.
        var chain: VerificationSummary?
        var chainValid = false
        if let signer {
            let intermediates = certificates.dropFirst().compactMap { try? $0.get() }
            let (verified, policyFindings) = cache.chain.check(leaf: signer, intermediates: intermediates,
                                                               at: evaluatedAt, environment: binding.environment?.text,
                                                               offset: { _ in signerOffset })
            chainValid = verified.isValid
            chain = VerificationSummary(signature: signatureStatus, chain: verified.isValid ? .valid : .invalid,
                                        anchor: verified.anchorSubject, evaluatedAt: evaluatedAt,
                                        evaluatedAtSource: source, path: verified.path, errors: verified.errors)
            if !verified.isValid {
                let because = ChainAdvice.because(verified.errors.first, leaf: signer, intermediates: intermediates,
                                                  at: evaluatedAt, signed: signedAt, anchors: cache.chain.anchors,
                                                  kind: .jws)
                findings.append(Finding(.chainInvalid, at: signerOffset,
                                        "the x5c chain does not reach a trusted root at \(ReceiptDate.format(epochSeconds: evaluatedAt)): \(because)"))
            } else {
                // Apple's chains are exactly leaf, intermediate, root; its libraries refuse any other length. A
                // self-signed (Xcode) signer is judged by the signing policy below.
                if verified.certificates.count > 1 && certificates.count != 3 {
                    findings.append(Finding(.jwsX5cLength, at: headerStart,
                                            "x5c holds \(certificates.count) certificates; Apple's holds leaf, WWDR intermediate and root"))
                }
                findings += policyFindings
            }
        }
        if let carrierSigner = carrier?.signer, let signer, carrierSigner.sha256Fingerprint != signer.sha256Fingerprint {
            findings.append(Finding(.jwsNestedSignerDiffers, at: signerOffset,
                                    "this nested JWS is signed by \(signer.subject), the token holding it by \(carrierSigner.subject)"))
        }
        findings += bindingFindings(binding, carried: carrier != nil, options.expectations, at: payloadOffset)
        // Each position in Apple's documents holds one kind: a server verifies what it finds there as that kind, and
        // Apple's verifier refuses a token of another (a genuine notification in an API response's transactions).
        let claimed = JWSPayloadKind.claims(token.payload)
        if let expected = JWSPayloadKind.expected(at: held.member), claimed != .unknown, claimed != expected {
            findings.append(Finding(.jwsKindMismatch, at: token.offset,
                                    "\(held.path) holds a \(claimed.rawValue) where Apple's documents hold a \(expected.rawValue): a server reads it as one, and Apple's verifier refuses it"))
        }
        // What the payload states of the purchase at the status time (--status-at; else the chain's time): facts.
        let statusAt = options.statusTime?.resolve(signed: signedAt, now: options.clock).seconds ?? evaluatedAt
        findings += PurchaseFacts.findings(token.payload, kind: binding.kind, at: statusAt, offset: payloadOffset)
        // Nested tokens: verified the same way when this token is trusted; bound to what this token is bound to.
        let trusted = signatureStatus == .valid && chainValid
        let nested = token.nested.map {
            verify($0, carrier: Carrier(signer: signer, binding: binding, trusted: trusted), options: options, cache: cache)
        }
        if binding.kind == .notification { findings += siblingAgreement(nested, at: payloadStart) }
        for child in nested {
            let at = payloadOffset(child.offset)
            findings += agreement(of: child.binding, path: child.path, with: binding, at: at)
            if !child.isValid {
                findings.append(Finding(.jwsNestedInvalid, at: at,
                                        "the JWS at \(child.path) is not valid: \(child.findings.first { $0.severity == .error }?.code ?? "a JWS nested in it is not")",
                                        fields: [FindingField("path", child.path)]))
            }
        }
        return JWSVerification(path: held.path, offset: held.offset, token: token, binding: binding,
                               certificates: certificates, signature: signatureStatus, chain: chain,
                               findings: findings.aggregated(), nested: nested)
    }
}
