import ReceiptCrypto
import ReceiptDiagnostics

/// What a verified path is judged by beyond reaching a trusted anchor. Each policy looks at the path OpenSSL
/// verified (leaf first, anchor last) and reports findings; policies compose, in the spirit of swift-certificates'
/// `VerifierPolicy`.
package protocol ChainPolicy: Sendable {
    func findings(_ path: [Certificate], _ context: ChainContext) -> [Finding]
}

/// What a policy knows besides the path: the document's environment (`Xcode` allows a self-signed signer), where each
/// certificate stands in the input, and whether a certificate is Apple's built-in root (rather than a `--root`).
package struct ChainContext {
    package var environment: String?
    package var offset: (Certificate) -> Int?
    package var isBuiltInAnchor: (Certificate) -> Bool
}

/// Apple's signing shape and markers (`SigningPolicy`): App Store leaf → WWDR intermediate → root, or Xcode's
/// self-signed StoreKit signer given with `--root`. `extendedKeyUsageIsError`: Apple's JWS leaves carry no
/// extendedKeyUsage, so one below an intermediate is an error there, a warning on a receipt.
package struct AppleSigningPolicy: ChainPolicy {
    package var signing: String
    package var extendedKeyUsageIsError: Bool

    package func findings(_ path: [Certificate], _ context: ChainContext) -> [Finding] {
        var findings = SigningPolicy.check(
            path: path, environment: context.environment, offset: context.offset,
            isBuiltInAnchor: context.isBuiltInAnchor, signing: signing)
        if extendedKeyUsageIsError && path.count > 1 {
            for index in findings.indices where findings[index].kind == .signerExtendedKeyUsage {
                findings[index].severity = .error
            }
        }
        return findings
    }
}

/// No certificate below the anchor signed with SHA-1 or MD5 (Apple's JWS chains are ECDSA with SHA-384).
package struct StrongCertificateDigestPolicy: ChainPolicy {
    package func findings(_ path: [Certificate], _ context: ChainContext) -> [Finding] {
        var findings: [Finding] = []
        for (index, certificate) in path.dropLast().enumerated() where certificate.isSignedWithWeakDigest {
            findings.append(
                Finding(
                    .jwsCertificateWeakDigest, at: context.offset(certificate),
                    "\(index == 0 ? "the leaf" : "certificate \(index) of the path") (\(certificate.subject)) is signed with \(certificate.signatureAlgorithm)",
                    fields: [FindingField("certificate", String(index))]))
        }
        return findings
    }
}

/// The one chain check of every document kind: the path is built and verified by OpenSSL at the evaluation time to
/// the anchors (Apple's roots, or the user's `--root`: Xcode's StoreKit certificate for local testing), then judged
/// by the policies when it verifies. A verification that succeeded is kept for the process
/// (`ChainVerificationCache`); every result, a failure too, is kept for one inspection, so the tokens of a document
/// that share a chain verify it once. The policies run for every document: they depend on its environment and say
/// where each certificate stands in it.
package final class ChainCheck {
    package let anchors: TrustAnchors
    package let policies: [any ChainPolicy]
    private let verifications: ChainVerificationCache
    private var verified: [Key: ChainVerification] = [:]

    private struct Key: Hashable {
        var fingerprints: [String]
        var at: Int64
    }

    package init(anchors: TrustAnchors, policies: [any ChainPolicy], verifications: ChainVerificationCache) {
        self.anchors = anchors
        self.policies = policies
        self.verifications = verifications
    }

    /// Apple's policy for receipts.
    package static func receipts(_ anchors: TrustAnchors, verifications: ChainVerificationCache) -> ChainCheck {
        ChainCheck(
            anchors: anchors, policies: [AppleSigningPolicy(signing: "receipt", extendedKeyUsageIsError: false)],
            verifications: verifications)
    }

    /// Apple's policy for StoreKit 2 JWS.
    package static func jws(_ anchors: TrustAnchors, verifications: ChainVerificationCache) -> ChainCheck {
        ChainCheck(
            anchors: anchors,
            policies: [
                AppleSigningPolicy(signing: "JWS", extendedKeyUsageIsError: true),
                StrongCertificateDigestPolicy(),
            ], verifications: verifications)
    }

    /// Verifies `leaf` with `intermediates` at `time` and, when the path verifies, applies every policy.
    package func check(
        leaf: Certificate, intermediates: [Certificate], at time: Int64, environment: String?,
        offset: @escaping (Certificate) -> Int?
    ) -> (verification: ChainVerification, findings: [Finding]) {
        let key = Key(fingerprints: ([leaf] + intermediates).map(\.sha256Fingerprint), at: time)
        let verification =
            verified[key]
            ?? verifications.verify(leaf: leaf, intermediates: intermediates, anchors: anchors.certificates, at: time)
        verified[key] = verification
        guard verification.isValid else { return (verification, []) }
        let builtIn = anchors.builtInFingerprints
        let context = ChainContext(
            environment: environment, offset: offset,
            isBuiltInAnchor: { builtIn.contains($0.sha256Fingerprint) })
        return (verification, policies.flatMap { $0.findings(verification.certificates, context) })
    }
}
