import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJWS
import ReceiptModel

/// What the caller expects of Apple's JWS payloads (top level, or in a notification's `data`).
public struct JWSExpectations: Sendable, Hashable {
    public var bundleID: String?
    /// `appAppleId`, as its decimal digits.
    public var appAppleID: String?
    public var environment: ReceiptEnvironment?

    public init(bundleID: String? = nil, appAppleID: String? = nil, environment: ReceiptEnvironment? = nil) {
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.environment = environment
    }
}

/// How JWS are judged: the anchors (Apple Root CA - G3 unless `--root`), when, and what the payload must say.
public struct JWSInspectionOptions: Sendable {
    /// When the chain is evaluated.
    public enum Time: Sendable, Hashable {
        /// At the payload's `signedDate` (now when it has none).
        case signed
        case now
        /// At this instant, in unix seconds.
        case date(Int64)
    }

    public var anchors: TrustAnchors
    public var time: Time
    public var expectations: JWSExpectations
    /// The current time, unix seconds (what "now" and "in the future" mean).
    public var now: Int64

    public init(anchors: TrustAnchors, time: Time = .signed, expectations: JWSExpectations = JWSExpectations(),
                now: Int64 = Int64(Date().timeIntervalSince1970)) {
        self.anchors = anchors
        self.time = time
        self.expectations = expectations
        self.now = now
    }
}

/// The verdict on one JWS and, recursively, on the JWS nested in its payload.
public struct JWSVerification: Sendable {
    /// Where the token is: `""` for the input's own, `data.signedTransactionInfo` for a nested one.
    public var path: String
    /// Where the token's characters start in what holds it (the file, or the parent's decoded payload).
    public var offset: Int
    public var token: JWSToken
    /// The x5c certificates in order, decoded (or why not).
    public var certificates: [Result<Certificate, CryptoError>]
    /// `valid`, `invalid` or `unsupported` (an algorithm rcpt does not verify).
    public var signature: VerificationSummary.SignatureStatus
    public var chain: VerificationSummary?
    public var findings: [Finding]
    public var nested: [JWSVerification]

    /// No error of its own, and every nested token valid.
    public var isValid: Bool { !findings.contains { $0.severity == .error } && nested.allSatisfy(\.isValid) }

    /// The signing certificate (x5c's first), when it decodes.
    public var signer: Certificate? { try? certificates.first?.get() }
}

/// Everything rcpt knows about a JWS input: how it was wrapped, each token's verdict, and why it could not be read.
public struct JWSInspection: Sendable {
    public var input: InputSummary
    public var jws: JWSInput?
    public var readError: JWSReadError?
    public var tokens: [JWSVerification]

    public var isValid: Bool { readError == nil && !tokens.isEmpty && tokens.allSatisfy(\.isValid) }
}

/// Verifies Apple's JWS as Apple's server libraries do: ES256 only, an x5c chain to a trusted anchor (Apple Root CA
/// - G3 unless `--root`) at the payload's signedDate, Apple's markers on the leaf and intermediate, the signature
/// with the leaf's P-256 key, and the payload's bundleId, appAppleId and environment when expected. Nested JWS are
/// verified the same way; an invalid nested token makes its parent invalid.
public enum JWSInspector {
    public static func inspect(_ bytes: [UInt8], options: JWSInspectionOptions) -> JWSInspection {
        let digest = (try? Digest.hash(bytes, algorithm: .sha256)).map { ASN1Primitives.hex($0) } ?? "unavailable"
        switch JWSInput.read(bytes) {
        case .failure(let error):
            return JWSInspection(input: InputSummary(size: bytes.count, sha256: digest, format: "jws"), jws: nil,
                                 readError: error, tokens: [])
        case .success(let input):
            let tokens = input.tokens.map { verify($0, parentSigner: nil, options: options) }
            return JWSInspection(input: InputSummary(size: bytes.count, sha256: digest, format: input.form.rawValue),
                                 jws: input, readError: nil, tokens: tokens)
        }
    }

    /// Verifies one token and its nested ones.
    static func verify(_ held: NestedJWS, parentSigner: Certificate?, options: JWSInspectionOptions)
        -> JWSVerification
    {
        let token = held.token
        var findings = token.findings
        let headerStart = token.ranges[.header]?.lowerBound ?? token.offset
        let signatureStart = token.ranges[.signature]?.lowerBound ?? token.offset
        // Certificates.
        let certificates = x5c(token)
        let signerOffset = headerStart
        if certificates.isEmpty {
            findings.append(Finding(.jwsX5cMissing, at: headerStart,
                                    "the header has no x5c: there is no certificate to verify the signature with"))
        }
        for (index, entry) in certificates.enumerated() {
            if case .failure(let error) = entry {
                findings.append(Finding(.certificateUndecodable, at: headerStart,
                                        "x5c[\(index)] is not an X.509 certificate: \(error.message)"))
            }
        }
        let signer = try? certificates.first?.get()
        // Algorithm and signature.
        var signatureStatus = VerificationSummary.SignatureStatus.unsupported
        let algorithm = token.algorithm
        if algorithm != "ES256" {
            let shown = algorithm.map { "\"\($0)\"" } ?? (token.header.map { _ in "missing" } ?? "missing")
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
        let (signedMilliseconds, signedFrom) = signingTime(token)
        let evaluatedAt: Int64
        var source = VerificationSummary.TimeSource.signedDate
        switch options.time {
        case .signed:
            if let signedMilliseconds {
                evaluatedAt = signedMilliseconds / 1000
                if signedFrom != "signedDate" {
                    findings.append(Finding(.jwsSignedDateMissing, severity: .info, at: token.ranges[.payload]?.lowerBound,
                                            "the payload has no signedDate: the chain is evaluated at \(signedFrom)"))
                }
            } else {
                evaluatedAt = options.now
                source = .nowForWantOfSignedDate
                findings.append(Finding(.jwsSignedDateMissing, at: token.ranges[.payload]?.lowerBound,
                                        "the payload has no signedDate: the chain is evaluated now"))
            }
        case .now:
            evaluatedAt = options.now
            source = .now
        case .date(let seconds):
            evaluatedAt = seconds
            source = .given
        }
        if let signedMilliseconds, signedMilliseconds / 1000 > options.now + 300 {
            findings.append(Finding(.jwsSignedDateInFuture, at: token.ranges[.payload]?.lowerBound,
                                    "signedDate \(ReceiptDate.format(epochSeconds: signedMilliseconds / 1000)) is after now (\(ReceiptDate.format(epochSeconds: options.now)))"))
        }
        // Chain.
        var chain: VerificationSummary?
        if let signer {
            let intermediates = certificates.dropFirst().compactMap { try? $0.get() }
            let verified = ChainVerifier.verify(leaf: signer, intermediates: intermediates,
                                                anchors: options.anchors.certificates, at: evaluatedAt)
            chain = VerificationSummary(signature: signatureStatus, chain: verified.isValid ? .valid : .invalid,
                                        anchor: verified.anchorSubject, evaluatedAt: evaluatedAt,
                                        evaluatedAtSource: source, path: verified.path, errors: verified.errors)
            if !verified.isValid {
                let reason = verified.errors.first ?? "no path to a trusted root"
                let advice = signer.isSelfIssued
                    ? " (a self-signed signer, as Xcode's StoreKit testing uses, is trusted only with --root)" : ""
                findings.append(Finding(.chainInvalid, at: signerOffset,
                                        "the x5c chain does not reach a trusted root at \(ReceiptDate.format(epochSeconds: evaluatedAt)): \(reason)\(advice)"))
            } else {
                // Apple's chains are exactly leaf, intermediate, root; its libraries refuse any other length. A
                // self-signed (Xcode) signer is judged by the signing policy below.
                if verified.certificates.count > 1 && certificates.count != 3 {
                    findings.append(Finding(.jwsX5cLength, at: headerStart,
                                            "x5c holds \(certificates.count) certificates; Apple's holds leaf, WWDR intermediate and root"))
                }
                let builtIn = options.anchors.builtInFingerprints
                findings += SigningPolicy.check(
                    path: verified.certificates, environment: environment(token),
                    offset: { _ in signerOffset }, isBuiltInAnchor: { builtIn.contains($0.sha256Fingerprint) },
                    signing: "JWS")
            }
        }
        if let parentSigner, let signer, parentSigner.sha256Fingerprint != signer.sha256Fingerprint {
            findings.append(Finding(.jwsNestedSignerDiffers, at: signerOffset,
                                    "this nested JWS is signed by \(signer.subject), the token holding it by \(parentSigner.subject)"))
        }
        findings += expectationFindings(token, options.expectations)
        // Nested tokens, verified the same way.
        let nested = token.nested.map { verify($0, parentSigner: signer, options: options) }
        for child in nested where !child.isValid {
            let payloadStart = token.ranges[.payload]?.lowerBound ?? token.offset
            findings.append(Finding(.jwsNestedInvalid, at: payloadStart + Base64URL.textOffset(ofDecodedByte: child.offset),
                                    "the JWS at \(child.path) is not valid: \(child.findings.first { $0.severity == .error }?.code ?? "a JWS nested in it is not")",
                                    fields: [FindingField("path", child.path)]))
        }
        return JWSVerification(path: held.path, offset: held.offset, token: token, certificates: certificates,
                               signature: signatureStatus, chain: chain, findings: findings, nested: nested)
    }

    /// The environment a payload names: `environment` (top level or in a notification's `data`), or an app
    /// transaction's `receiptType`.
    static func environment(_ token: JWSToken) -> String? {
        token.claimStringHere(orInData: "environment") ?? token.claimString("receiptType")
    }

    /// When the token was signed, in milliseconds, and which claim said so: `signedDate`; an app transaction's
    /// `receiptCreationDate`; for a notification without one, the latest `signedDate` of the tokens it carries.
    static func signingTime(_ token: JWSToken) -> (Int64?, String) {
        if let signed = token.claimMilliseconds("signedDate") { return (signed, "signedDate") }
        if token.claimString("receiptType") != nil, let created = token.claimMilliseconds("receiptCreationDate") {
            return (created, "receiptCreationDate (an app transaction)")
        }
        let nested = token.nested.compactMap { $0.token.claimMilliseconds("signedDate") }.max()
        if let nested { return (nested, "the signedDate of the JWS it carries") }
        return (nil, "now")
    }

    /// The x5c certificates: standard base64 DER, in order (leaf first).
    static func x5c(_ token: JWSToken) -> [Result<Certificate, CryptoError>] {
        guard let header = token.header, let array = header.member("x5c", of: header.root),
              header.nodes[array].kind == .array else { return [] }
        return header.children(of: array).prefix(16).map { node in
            guard let text = header.string(node), let der = Base64.decode(Array(text.utf8)), !der.isEmpty else {
                return .failure(CryptoError(code: "x5c-not-base64", message: "not a base64 string"))
            }
            return Result { () throws(CryptoError) -> Certificate in try Certificate(derEncoded: der) }
        }
    }

    static func expectationFindings(_ token: JWSToken, _ expectations: JWSExpectations) -> [Finding] {
        var findings: [Finding] = []
        let at = token.ranges[.payload]?.lowerBound
        if let expected = expectations.bundleID {
            let actual = token.claimStringHere(orInData: "bundleId")
            if actual.map({ Array($0.utf8) }) != Array(expected.utf8) {
                findings.append(Finding(.bundleIdMismatch, at: at,
                                        "bundleId is \(actual.map { "\"\($0)\"" } ?? "missing"), expected \"\(expected)\""))
            }
        }
        if let expected = expectations.appAppleID {
            let actual = token.appAppleIdText()
            if actual != expected {
                findings.append(Finding(.appAppleIdMismatch, at: at,
                                        "appAppleId is \(actual ?? "missing"), expected \(expected)"))
            }
        }
        if let expected = expectations.environment {
            let actual = environment(token)
            if actual != expected.rawValue {
                findings.append(Finding(.environmentMismatch, at: at,
                                        "environment is \(actual.map { "\"\($0)\"" } ?? "missing"), expected \"\(expected.rawValue)\"",
                                        fields: [FindingField("environment", actual ?? "unknown"),
                                                 FindingField("expected", expected.rawValue)]))
            }
        }
        return findings
    }
}
