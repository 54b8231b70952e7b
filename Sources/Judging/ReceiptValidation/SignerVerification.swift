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
        func contentDigest(_ algorithm: DigestAlgorithm) -> [UInt8]? { digests.digest(algorithm) }
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
            guard let certificateIndex = matchCertificate(signer.identifier, receipt: receipt),
                let certificate = certificates[certificateIndex]
            else {
                result.signature = .invalid(reason: "the signer's certificate is not in the receipt")
                findings.append(
                    Finding(
                        .signerCertificateMissing, at: signer.offset,
                        "\(place) names a certificate that the receipt does not carry"))
                continue
            }
            result.certificateIndex = certificateIndex
            switch SignatureAlgorithmPolicy.check(
                signer.signatureAlgorithm, digest: algorithm,
                key: certificate.keyAlgorithm, place: place)
            {
            case .failure(let finding):
                findings.append(finding)
                result.signature =
                    finding.kind == .signatureAlgorithmUnsupported
                    ? .unsupported(reason: finding.message) : .invalid(reason: finding.message)
                continue
            case .success(let scheme):
                result.scheme = scheme
            }
            let signature = receipt.bytes[signer.signature]
            guard let digest = contentDigest(algorithm) else {
                result.signature = .unsupported(reason: "OpenSSL cannot compute \(algorithm.rawValue) here")
                continue
            }
            if let signedAttributes = signer.signedAttributes {
                findings += SignedAttributeChecks.check(
                    signedAttributes, contentType: content.contentType,
                    bytes: receipt.bytes, place: place)
                result.messageDigest = messageDigestCheck(signedAttributes, digest: digest, bytes: receipt.bytes)
                if result.messageDigest != .matches {
                    let what =
                        result.messageDigest == .missing
                        ? "has no single messageDigest attribute"
                        : "messageDigest does not match the content"
                    findings.append(
                        Finding(
                            .messageDigestMismatch, at: signedAttributes.encoding.lowerBound,
                            "\(place): \(what)"))
                    result.signature = .invalid(reason: "signed attributes \(what)")
                    continue
                }
                let signedBytes = signedAttributes.signedBytes(in: receipt.bytes)
                result.signature = SignatureVerifier.verify(
                    signature: signature, over: [signedBytes[...]],
                    digest: algorithm, certificate: certificate)
            } else {
                result.signature = SignatureVerifier.verify(
                    signature: signature, digestValue: digest,
                    digest: algorithm, certificate: certificate)
            }
            switch result.signature {
            case .valid:
                break
            case .invalid(let reason):
                findings.append(
                    Finding(
                        .signatureInvalid, at: signer.signature.lowerBound,
                        "\(place): the signature does not verify: \(reason)"))
            case .unsupported(let reason):
                findings.append(
                    Finding(
                        .signatureUnsupported, at: signer.signature.lowerBound,
                        "\(place): cannot verify: \(reason)"))
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

    /// The embedded certificate whose issuer and serial number equal the signer identifier's, byte for byte.
    static func matchCertificate(_ identifier: SignerIdentifier, receipt: Receipt) -> Int? {
        guard case .issuerAndSerialNumber(let issuer, let serial) = identifier else { return nil }
        let bytes = receipt.bytes
        return receipt.signedData.certificates.first { certificate in
            guard let certificateIssuer = certificate.issuer, let certificateSerial = certificate.serialNumber else {
                return false
            }
            return bytes[certificateIssuer].elementsEqual(bytes[issuer])
                && bytes[certificateSerial].elementsEqual(bytes[serial])
        }?.index
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
