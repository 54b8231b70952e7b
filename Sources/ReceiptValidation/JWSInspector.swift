import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases

/// The verdict on one JWS and, recursively, on the JWS nested in its payload.
public struct JWSVerification: Sendable {
    /// Where the token is: `""` for the input's own, `data.signedTransactionInfo` for a nested one.
    public var path: String
    /// Where the token's characters start in what holds it (the file, or the parent's decoded payload).
    public var offset: Int
    public var token: JWSToken
    /// The kind of payload, and the app and environment it is bound to (where Apple's verifier reads them).
    public var binding: JWSBinding
    /// The x5c certificates in order, decoded (or why not).
    package var certificates: [Result<Certificate, CryptoError>]
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

/// Everything rcpt knows about a JWS input: how it was wrapped, each token's verdict, what the document around the
/// tokens shows, and why it could not be read.
public struct JWSInspection: Sendable {
    package var input: InputSummary
    public var jws: JWSInput?
    package var readError: JWSReadError?
    public var tokens: [JWSVerification]
    /// Findings about the input as a whole: the unsigned JSON around the tokens (unreadable token positions,
    /// duplicate names, tokens with characters around them) and whether its tokens agree on the app and environment.
    public var findings: [Finding] = []
    /// What the verdict was bound to by the caller's expectations; nil when the input could not be read.
    public var binding: BindingScope? = nil

    public var isValid: Bool {
        readError == nil && !tokens.isEmpty && tokens.allSatisfy(\.isValid)
            && !findings.contains { $0.severity == .error }
    }
}

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
        let (evaluatedAt, source, timeFindings) = evaluationTime(token, binding: binding, options: options,
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
        let statusAt: Int64
        switch options.statusTime {
        case .now?: statusAt = options.clock
        case .date(let date)?: statusAt = date.secondsSinceEpoch
        case .signed?, nil: statusAt = evaluatedAt
        }
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

    /// When the chain is evaluated, why, and what is wrong with the claim that says so. The claim is `signedDate`
    /// (`receiptCreationDate` for an app transaction); a present claim is read exactly or refused, never taken as
    /// absent. A notification without one is evaluated at the latest signedDate of the tokens it carries.
    static func evaluationTime(_ token: JWSToken, binding: JWSBinding, options: InspectionOptions,
                               at offset: (Int) -> Int) -> (Int64, VerificationSummary.TimeSource, [Finding]) {
        var findings: [Finding] = []
        let name = binding.timeClaim
        let claimOffset = token.payload.flatMap { payload in
            payload.member(name, of: payload.root).map { offset(payload.nodes[$0].start) }
        } ?? token.ranges[.payload]?.lowerBound
        var signed: Int64?
        switch token.claimDate(name) {
        case .none:
            break
        case .some(.failure(let problem)):
            findings.append(Finding(.jwsDateUnusable, at: claimOffset,
                                    "\(name) is present but \(problem.phrase): the token has no usable signing time, and none is assumed",
                                    fields: [FindingField("path", name)]))
        case .some(.success(let date)):
            if date.isNegative || date.milliseconds == 0 {
                findings.append(Finding(.jwsDateUnusable, at: claimOffset,
                                        "\(name) is \(date.milliseconds) ms: a signing time at or before 1970 is no signing time, and none is assumed",
                                        fields: [FindingField("path", name)]))
            } else {
                signed = date.milliseconds
            }
        }
        // signedDate and, for an app transaction, receiptCreationDate must not be in the future.
        for claim in Set([name, "signedDate"]) {
            guard case .some(.success(let date)) = token.claimDate(claim), date.milliseconds / 1000 > options.clock + 300
            else { continue }
            findings.append(Finding(.jwsSignedDateInFuture, at: claimOffset,
                                    "\(claim) \(ReceiptDate.format(epochSeconds: date.milliseconds / 1000)) is after now (\(ReceiptDate.format(epochSeconds: options.clock)))"))
        }
        switch options.time {
        case .now: return (options.clock, .now, findings)
        case .date(let date): return (date.secondsSinceEpoch, .given, findings)
        case .signed: break
        }
        if let signed { return (signed / 1000, .signedDate, findings) }
        let present = token.claimDate(name) != nil
        if !present, binding.kind == .notification || binding.kind == .unknown,
           let carried = token.nested.compactMap({ held -> Int64? in
               guard case .some(.success(let date)) = held.token.claimDate("signedDate"), !date.isNegative,
                     date.milliseconds > 0 else { return nil }
               return date.milliseconds
           }).max() {
            findings.append(Finding(.jwsSignedDateMissing, severity: .info, at: token.ranges[.payload]?.lowerBound,
                                    "the payload has no \(name): the chain is evaluated at the signedDate of the JWS it carries"))
            return (carried / 1000, .signedDate, findings)
        }
        if !present {
            findings.append(Finding(.jwsSignedDateMissing, at: token.ranges[.payload]?.lowerBound,
                                    "the payload has no \(name): the chain is evaluated now"))
        }
        return (options.clock, .nowForWantOfSignedDate, findings)
    }

    /// The x5c certificates, in order (leaf first): each element must be a string of standard base64 with its
    /// padding and no line breaks (RFC 7515 §4.1.6), of a certificate in DER.
    static func x5c(_ token: JWSToken, at offset: Int, cache: ChainCache)
        -> ([Result<Certificate, CryptoError>], [Finding])
    {
        guard let header = token.header, let array = header.member("x5c", of: header.root) else {
            return ([], [Finding(.jwsX5cMissing, at: offset,
                                 "the header has no x5c: there is no certificate to verify the signature with")])
        }
        guard header.nodes[array].kind == .array, !header.children(of: array).isEmpty else {
            return ([], [Finding(.jwsX5cMissing, at: offset,
                                 "x5c is \(header.text(array).prefix(40)), not an array of certificates")])
        }
        let elements = header.children(of: array).prefix(16)
        let texts = elements.map { header.nodes[$0].kind == .string ? (header.string($0) ?? "") : header.text($0) }
        if let cached = cache.certificates[texts] { return cached }
        var findings: [Finding] = []
        var certificates: [Result<Certificate, CryptoError>] = []
        for (index, node) in elements.enumerated() {
            guard header.nodes[node].kind == .string else {
                findings.append(Finding(.jwsX5cEncoding, at: offset, "x5c[\(index)] is not a string",
                                        fields: [FindingField("index", String(index))]))
                certificates.append(.failure(CryptoError(.x5cNotBase64, message: "not a string")))
                continue
            }
            let text = Array(texts[index].utf8)
            let decoded = Base64Codec.decode(text, skippingWhitespace: false)
            guard case .success(let result) = decoded, !result.bytes.isEmpty else {
                findings.append(Finding(.jwsX5cEncoding, at: offset, "x5c[\(index)] is not base64",
                                        fields: [FindingField("index", String(index))]))
                certificates.append(.failure(CryptoError(.x5cNotBase64, message: "not a base64 string")))
                continue
            }
            var problems: [String] = []
            if result.urlOffset != nil { problems.append("uses base64url's '-' or '_'") }
            if text.count % 4 != 0 { problems.append("lacks its '=' padding") }
            if result.nonZeroTrailingBits { problems.append("has bits set in its last character that decoding drops") }
            let certificate = Result { () throws(CryptoError) -> Certificate in try Certificate(derEncoded: result.bytes) }
            if case .success(let decodedCertificate) = certificate, !decodedCertificate.isDistinguishedEncoding {
                problems.append("is not DER (a BER length or another non-canonical encoding)")
            }
            if case .failure(let error) = certificate {
                findings.append(Finding(.certificateUndecodable, at: offset,
                                        "x5c[\(index)] is not an X.509 certificate: \(error.message)"))
            }
            if !problems.isEmpty {
                let shown = problems.joined(separator: ", ")
                findings.append(Finding(.jwsX5cEncoding, at: offset,
                                        "x5c[\(index)] \(shown): Apple sends standard base64 of DER, and its libraries refuse anything else",
                                        fields: [FindingField("index", String(index))]))
            }
            certificates.append(certificate)
        }
        cache.certificates[texts] = (certificates, findings)
        return (certificates, findings)
    }

    /// The expectations checked where this kind of payload carries each value (Apple's `SignedDataVerifier`): a
    /// bundleId a renewal info does not carry is bound by its carrier (alone, it is a warning); appAppleId is checked
    /// where the kind carries it, and required only in Production; a notification's top-level look-alikes are not
    /// read, only reported.
    static func bindingFindings(_ binding: JWSBinding, carried: Bool, _ expectations: Expectations,
                                at offset: (Int) -> Int) -> [Finding] {
        var findings: [Finding] = []
        for conflict in binding.conflicts {
            findings.append(Finding(.jwsBindingMismatch, at: offset(conflict.value.jsonOffset), FindingMessage(conflict.reason),
                                    fields: [FindingField("path", conflict.value.path)]))
        }
        for misplaced in binding.misplaced {
            findings.append(Finding(.jwsClaimMisplaced, at: offset(misplaced.jsonOffset),
                                    "the notification has \(misplaced.path) at its top level: Apple reads the app and environment from data (summary, externalPurchaseToken, appData), and so does rcpt",
                                    fields: [FindingField("path", misplaced.path)]))
        }
        func at(_ value: JWSBinding.Value?) -> Int? { value.map { offset($0.jsonOffset) } }
        if let expected = expectations.bundleID {
            if binding.carriesBundleID {
                let actual = binding.bundleID?.text
                if actual.map({ Array($0.utf8) }) != Array(expected.utf8) {
                    findings.append(Finding(.bundleIdMismatch, at: at(binding.bundleID),
                                            "bundleId\(binding.bundleID.map { " (\($0.path))" } ?? "") is \(actual.map { "\"\($0)\"" } ?? "missing"), expected \"\(expected)\""))
                }
            } else if !carried {
                findings.append(Finding(.jwsNotBoundToApp, at: nil,
                                        "\(binding.kind.rawValue) carries no bundleId: on its own it cannot be bound to \"\(expected)\"; verify the notification or response that carries it"))
            }
        }
        if let expected = expectations.appAppleID, binding.carriesAppAppleID {
            if let actual = binding.appAppleID {
                if actual.text != expected {
                    findings.append(Finding(.appAppleIdMismatch, at: at(actual),
                                            "appAppleId (\(actual.path)) is \(actual.text), expected \(expected)"))
                }
            } else if binding.environment?.text == ReceiptEnvironment.production.rawValue {
                findings.append(Finding(.appAppleIdMismatch, at: nil,
                                        "appAppleId is missing from a Production \(binding.kind.rawValue), expected \(expected)"))
            }
        }
        if let expected = expectations.appVersion, binding.kind == .appTransaction {
            let actual = binding.appVersion?.text
            if actual.map({ Array($0.utf8) }) != Array(expected.utf8) {
                findings.append(Finding(.appVersionMismatch, at: at(binding.appVersion),
                                        "applicationVersion is \(actual.map { "\"\($0)\"" } ?? "missing"), expected \"\(expected)\""))
            }
        }
        if let device = expectations.deviceID,
           [.transaction, .renewalInfo, .appTransaction].contains(binding.kind) {
            if let verification = binding.deviceVerification,
               let expected = Expectations.deviceVerification(nonce: verification.nonce.text, deviceID: device) {
                if Base64.decode(Array(verification.value.text.utf8)) != expected {
                    findings.append(Finding(.jwsDeviceMismatch, at: at(verification.value),
                                            "deviceVerification is not SHA-384 of deviceVerificationNonce and the device \(DeviceIdentifier.text(device)): the \(binding.kind.rawValue) was issued to another device"))
                }
            } else {
                let why = binding.deviceVerification == nil
                    ? "carries no deviceVerification with its deviceVerificationNonce (StoreKit adds both to the tokens it gives a device; the App Store Server API neither)"
                    : "is bound to a device by its device verification UUID, and the device id given is a MAC address"
                findings.append(Finding(.jwsDeviceUnverifiable, at: nil,
                                        "the \(binding.kind.rawValue) \(why): it cannot be bound to the device"))
            }
        }
        if let expected = expectations.environment {
            let actual = binding.environment?.text
            if actual != expected.rawValue {
                findings.append(Finding(.environmentMismatch, at: at(binding.environment),
                                        "environment\(binding.environment.map { " (\($0.path))" } ?? "") is \(actual.map { "\"\($0)\"" } ?? "missing"), expected \"\(expected.rawValue)\"",
                                        fields: [FindingField("environment", actual ?? "unknown"),
                                                 FindingField("expected", expected.rawValue)]))
            }
        }
        return findings
    }

    /// Findings where a nested token's app or environment is not its carrier's.
    static func agreement(of nested: JWSBinding, path: String, with carrier: JWSBinding, at offset: Int) -> [Finding] {
        var findings: [Finding] = []
        let pairs: [(String, JWSBinding.Value?, JWSBinding.Value?)] = [
            ("bundleId", nested.bundleID, carrier.bundleID),
            ("appAppleId", nested.appAppleID, carrier.appAppleID),
            ("environment", nested.environment, carrier.environment),
        ]
        for (name, inner, outer) in pairs {
            guard let inner, let outer, Array(inner.text.utf8) != Array(outer.text.utf8) else { continue }
            findings.append(Finding(.jwsBindingMismatch, at: offset,
                                    "the JWS at \(path) has \(name) \"\(inner.text)\", the token carrying it \"\(outer.text)\" (\(outer.path))",
                                    fields: [FindingField("path", path), FindingField("claim", name),
                                             FindingField("nested", inner.text), FindingField("carrier", outer.text)]))
        }
        return findings
    }

    /// A finding when the transactions and renewal info one token carries name different subscriptions
    /// (`originalTransactionId`): a notification's `signedTransactionInfo` and `signedRenewalInfo` are about one.
    /// Checked on notifications, the one kind that carries both.
    static func siblingAgreement(_ nested: [JWSVerification], at offset: Int) -> [Finding] {
        let ids = nested.filter { $0.binding.kind == .transaction || $0.binding.kind == .renewalInfo }
            .compactMap { child in child.token.claimString("originalTransactionId").map { (child.path, $0) } }
        guard let first = ids.first, let other = ids.first(where: { Array($0.1.utf8) != Array(first.1.utf8) }) else {
            return []
        }
        return [Finding(.jwsBindingMismatch, at: offset,
                        "the tokens this one carries name two subscriptions: originalTransactionId \"\(first.1)\" at \(first.0), \"\(other.1)\" at \(other.0)",
                        fields: [FindingField("claim", "originalTransactionId"), FindingField("first", first.1),
                                 FindingField("other", other.1)])]
    }

    /// Findings where the tokens of one document, or the document's own (unsigned) members, disagree on the app or
    /// the environment: an API response or a notification body is about one app in one environment.
    static func documentAgreement(_ document: JSONDocument, tokens: [JWSVerification], offset: Int) -> [Finding] {
        var sources: [(String, JWSBinding.Value, Int)] = []
        var objects = [(document.root, "")]
        for name in JWSBinding.notificationObjects {
            if let node = document.member(name, of: document.root), document.nodes[node].kind == .object {
                objects.append((node, name + "."))
            }
        }
        for (object, prefix) in objects {
            for name in ["bundleId", "appAppleId", "environment"] {
                guard let value = JWSBinding.Value.member(name, of: object, in: document, prefix: prefix) else { continue }
                sources.append((name, value, offset + value.jsonOffset))
            }
        }
        for token in tokens {
            let binding = token.binding
            for (name, value) in [("bundleId", binding.bundleID), ("appAppleId", binding.appAppleID),
                                  ("environment", binding.environment)] {
                guard let value else { continue }
                sources.append((name, value.carried(by: token.path), token.offset))
            }
        }
        var findings: [Finding] = []
        for name in ["bundleId", "appAppleId", "environment"] {
            let values = sources.filter { $0.0 == name }
            guard let first = values.first,
                  let other = values.first(where: { Array($0.1.text.utf8) != Array(first.1.text.utf8) }) else { continue }
            findings.append(Finding(.jwsBindingMismatch, at: other.2,
                                    "the document names two \(name)s: \"\(first.1.text)\" (\(first.1.path)) and \"\(other.1.text)\" (\(other.1.path)); an API response or notification is about one app in one environment",
                                    fields: [FindingField("claim", name), FindingField("first", first.1.text),
                                             FindingField("other", other.1.text)]))
        }
        return findings
    }
}
