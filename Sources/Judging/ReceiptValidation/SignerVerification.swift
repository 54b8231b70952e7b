import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// Whether a SignerInfo's messageDigest signed attribute matches the content.
package enum MessageDigestCheck: String, Sendable, Hashable {
    case matches
    case mismatch
    case missing
}

/// The outcome of verifying one SignerInfo.
public struct SignerVerification: Sendable {
    public var signerIndex: Int
    /// The embedded certificate the signer identifier names, if found.
    public var certificateIndex: Int?
    public var digestAlgorithm: DigestAlgorithm?
    /// Present when the signer has signed attributes.
    package var messageDigest: MessageDigestCheck?
    public var signature: SignatureCheck
    /// What was checked, e.g. "RSA PKCS#1 v1.5 with SHA-256", once the algorithms passed the policy.
    package var scheme: String?
}

/// Verifies every SignerInfo of a receipt against its embedded certificates (RFC 5652 §5.4, §5.6, §11).
/// The content is hashed once per digest algorithm, however many SignerInfos use it.
enum SignerVerifier {
    /// `digests`: the content's digests, started before the payload was read (`ContentDigests.start`).
    static func verify(_ receipt: Receipt, certificates: [Certificate?], digests: ContentDigests)
        -> ([SignerVerification], [Finding])
    {
        let signedData = receipt.signedData
        var findings: [Finding] = []
        var results: [SignerVerification] = []
        guard let content = signedData.encapsulatedContent, !content.isDetached else {
            return ([], findings)
        }
        for (index, signer) in signedData.signers.enumerated() {
            var result = SignerVerification(
                signerIndex: index, certificateIndex: nil, digestAlgorithm: nil,
                messageDigest: nil, signature: .invalid(reason: "not verified"))
            defer { results.append(result) }
            let place = "signer \(index) at offset \(signer.offset)"
            guard let algorithm = DigestAlgorithm(oid: signer.digestAlgorithm.oid) else {
                result.signature = .unsupported(reason: "digest algorithm \(signer.digestAlgorithm.name)")
                findings.append(
                    Finding(
                        .signatureUnsupportedDigest, at: signer.digestAlgorithm.offset,
                        "\(place) uses digest \(signer.digestAlgorithm.name), which is not SHA-1 or SHA-2"))
                continue
            }
            result.digestAlgorithm = algorithm
            if !signedData.digestAlgorithms.contains(where: { $0.oid == signer.digestAlgorithm.oid }) {
                findings.append(
                    Finding(
                        .digestAlgorithmNotDeclared, at: signer.digestAlgorithm.offset,
                        "\(place) digests with \(algorithm.rawValue), which SignedData.digestAlgorithms does not list"))
            }
            // The certificates it names and carries decoded, each distinct encoding once (a copy of the leaf is no
            // second leaf).
            let candidates = distinct(
                matchingCertificates(signer.identifier, receipt: receipt, certificates: certificates), in: receipt
            ).compactMap { index in index < certificates.count ? certificates[index].map { (index, $0) } : nil }
            guard let first = candidates.first else {
                result.signature = .invalid(reason: "the signer's certificate is not in the receipt")
                findings.append(
                    Finding(
                        .signerCertificateMissing, at: signer.offset,
                        "\(place) names a certificate that the receipt does not carry"))
                continue
            }
            // Each is tried in turn; the first the signature verifies with is the signer's (the chain is then built
            // from it). The outcome with the first is kept when none does.
            func outcome(_ certificate: Certificate) -> SignerOutcome {
                verifyOne(
                    signer, certificate: certificate, algorithm: algorithm, content: content, digests: digests,
                    receipt: receipt, place: place)
            }
            var chosen = (index: first.0, outcome: outcome(first.1))
            for (index, certificate) in candidates.dropFirst() where chosen.outcome.signature != .valid {
                let tried = outcome(certificate)
                if tried.signature == .valid { chosen = (index, tried) }
            }
            result.certificateIndex = chosen.index
            result.scheme = chosen.outcome.scheme
            result.messageDigest = chosen.outcome.messageDigest
            result.signature = chosen.outcome.signature
            findings += chosen.outcome.findings
            if candidates.count > 1 {
                let positions = candidates.map { "[\($0.0)]" }.joined(separator: ", ")
                let verdict =
                    result.signature == .valid
                    ? "the signature verifies with [\(chosen.index)]"
                    : "the signature verifies with none of them"
                findings.append(
                    Finding(
                        .signerCertificateAmbiguous, at: signer.offset,
                        "\(place) names \(candidates.count) certificates (\(positions)) by one issuer and serial number: a CA issues a serial once, so all but one were added after signing, which anyone can do; \(verdict), and validators that take the first or verify with one and chain another disagree"
                    ))
            }
        }
        if signedData.signers.count > 1 {
            findings.append(
                Finding(
                    .multipleSigners, at: signedData.signers[1].offset,
                    "the receipt has \(signedData.signers.count) SignerInfos; Apple's have one, and validators disagree on which counts"
                ))
        }
        return (results, findings)
    }

    /// What verifying one SignerInfo with one certificate gave.
    struct SignerOutcome {
        var signature: SignatureCheck = .invalid(reason: "not verified")
        var scheme: String?
        var messageDigest: MessageDigestCheck?
        var findings: [Finding] = []
    }

    /// Verifies `signer`'s signature with `certificate`: the algorithm policy, the signed attributes and the
    /// signature itself.
    static func verifyOne(
        _ signer: SignerInfo, certificate: Certificate, algorithm: DigestAlgorithm,
        content: EncapsulatedContent, digests: ContentDigests, receipt: Receipt, place: String
    ) -> SignerOutcome {
        var outcome = SignerOutcome()
        switch SignatureAlgorithmPolicy.check(
            signer.signatureAlgorithm, digest: algorithm,
            key: certificate.keyAlgorithm, place: place)
        {
        case .failure(let finding):
            outcome.findings.append(finding)
            outcome.signature =
                finding.kind == .signatureAlgorithmUnsupported
                ? .unsupported(reason: finding.message) : .invalid(reason: finding.message)
            return outcome
        case .success(let scheme):
            outcome.scheme = scheme
        }
        let signature = signer.signature(in: receipt.bytes)
        guard let digest = digests.digest(algorithm) else {
            outcome.signature = .unsupported(reason: "OpenSSL cannot compute \(algorithm.rawValue) here")
            return outcome
        }
        if let signedAttributes = signer.signedAttributes {
            outcome.findings += SignedAttributeChecks.check(
                signedAttributes, contentType: content.contentType,
                bytes: receipt.bytes, place: place)
            outcome.messageDigest = messageDigestCheck(signedAttributes, digest: digest, bytes: receipt.bytes)
            if outcome.messageDigest != .matches {
                let what =
                    outcome.messageDigest == .missing
                    ? "has no single messageDigest attribute"
                    : "messageDigest does not match the content"
                outcome.findings.append(
                    Finding(
                        .messageDigestMismatch, at: signedAttributes.encoding.lowerBound,
                        "\(place): \(what)"))
                outcome.signature = .invalid(reason: "signed attributes \(what)")
                return outcome
            }
            let signedBytes = signedAttributes.signedBytes(in: receipt.bytes)
            outcome.signature = SignatureVerifier.verify(
                signature: signature, over: [signedBytes[...]],
                digest: algorithm, certificate: certificate)
        } else {
            outcome.signature = SignatureVerifier.verify(
                signature: signature, digestValue: digest,
                digest: algorithm, certificate: certificate)
        }
        switch outcome.signature {
        case .valid:
            break
        case .invalid(let reason):
            outcome.findings.append(
                Finding(
                    .signatureInvalid, at: signer.signatureOffset,
                    "\(place): the signature does not verify: \(reason)"))
        case .unsupported(let reason):
            outcome.findings.append(
                Finding(
                    .signatureUnsupported, at: signer.signatureOffset,
                    "\(place): cannot verify: \(reason)"))
        }
        return outcome
    }

    /// `indexes` of embedded certificates without those whose encoding an earlier one has.
    static func distinct(_ indexes: [Int], in receipt: Receipt) -> [Int] {
        let embedded = receipt.signedData.certificates
        var kept: [Int] = []
        for index in indexes where index < embedded.count {
            let bytes = receipt.bytes[embedded[index].encoding]
            if !kept.contains(where: { receipt.bytes[embedded[$0].encoding].elementsEqual(bytes) }) {
                kept.append(index)
            }
        }
        return kept
    }

    /// The embedded certificates the signer identifier names, in the order the receipt carries them: those whose
    /// issuer and serial number equal the identifier's byte for byte; else, as OpenSSL matches them, those whose
    /// issuer Name is the same compared canonically (a red team's trial: a Name re-encoded with UTF8String was "a
    /// certificate the receipt does not carry"), or whose subjectKeyIdentifier is the one named.
    static func matchingCertificates(
        _ identifier: SignerIdentifier, receipt: Receipt, certificates: [Certificate?]
    ) -> [Int] {
        let bytes = receipt.bytes
        let embedded = receipt.signedData.certificates
        func decoded(_ certificate: EmbeddedCertificate) -> Certificate? {
            certificate.index < certificates.count ? certificates[certificate.index] : nil
        }
        switch identifier {
        case .issuerAndSerialNumber(let issuer, let serial):
            let exact = embedded.filter { certificate in
                guard let certificateIssuer = certificate.issuer, let certificateSerial = certificate.serialNumber
                else { return false }
                return bytes[certificateIssuer].elementsEqual(bytes[issuer])
                    && bytes[certificateSerial].elementsEqual(bytes[serial])
            }
            if !exact.isEmpty { return exact.map(\.index) }
            return embedded.filter { decoded($0)?.isNamed(issuer: bytes[issuer], serial: bytes[serial]) ?? false }
                .map(\.index)
        case .subjectKeyIdentifier(let segments):
            let identifier = ASN1Primitives.joined(segments, in: bytes)
            return embedded.filter { certificate in
                decoded(certificate)?.subjectKeyIdentifier.map { $0[...].elementsEqual(identifier) } ?? false
            }.map(\.index)
        }
    }

    /// Whether the one messageDigest attribute, with one value, holds `digest`.
    static func messageDigestCheck(_ attributes: SignedAttributes, digest: [UInt8], bytes: [UInt8])
        -> MessageDigestCheck
    {
        let all = attributes.all(ObjectIdentifierNames.messageDigestAttribute)
        guard all.count == 1, let attribute = all.first, attribute.values.count == 1, let value = attribute.values.first
        else { return .missing }
        var reader = ASN1Reader(bytes)
        guard let node = try? reader.readSingle(in: value, depth: 0), node.tag == .octetString else {
            return .mismatch
        }
        return bytes[node.contentRange].elementsEqual(digest) ? .matches : .mismatch
    }
}
