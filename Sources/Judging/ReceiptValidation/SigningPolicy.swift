import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptPKCS7

/// Apple's rules for who may sign a receipt, checked on the certificates of the path OpenSSL verified (never on an
/// embedded certificate that merely shares a name with one of them). Two shapes are valid:
///
/// - **App Store**: exactly leaf → intermediate → anchor. The leaf (the signer) carries Apple's receipt-signing
///   marker 1.2.840.113635.100.6.11.1, is not a CA, and its keyUsage (if any) allows digitalSignature; the
///   intermediate carries Apple's WWDR marker 1.2.840.113635.100.6.2.1. A signer that is the intermediate or the
///   root, or a leaf issued directly by the root, is invalid. An extendedKeyUsage on the leaf is a warning.
/// - **StoreKit (Xcode)**: the signer is itself a trust anchor — a self-signed certificate passed with `--root`,
///   never the built-in Apple Root CA — its keyUsage (if any) allows digitalSignature, and the receipt's
///   environment attribute (type 0) is exactly "Xcode". Xcode's own StoreKit certificate is a self-signed CA with
///   a Code Signing extendedKeyUsage; both are allowed in this shape only. A path of any length that ends at a
///   root restricting its purposes (an extendedKeyUsage, as StoreKit's) is held to the same environment.
enum SigningPolicy {
    static let leafMarker = "1.2.840.113635.100.6.11.1"
    static let intermediateMarker = "1.2.840.113635.100.6.2.1"

    /// Findings for the verified `path` (leaf first). `offset(of:)` finds where a path certificate is embedded;
    /// `isBuiltInAnchor` says whether a certificate is the bundled Apple Root CA.
    static func check(
        path: [Certificate], environment: String?, offset: (Certificate) -> Int?,
        isBuiltInAnchor: (Certificate) -> Bool, signing what: String = "receipt"
    ) -> [Finding] {
        guard let signer = path.first else { return [] }
        let signerOffset = offset(signer)
        var findings: [Finding] = []
        if signer.keyUsageAllowsDigitalSignature == false {
            findings.append(
                Finding(
                    .signerKeyUsage, at: signerOffset,
                    "the signing certificate's keyUsage does not allow digitalSignature (RFC 5280 §4.2.1.3)"))
        }
        if path.count == 1 {
            if isBuiltInAnchor(signer) {
                findings.append(
                    Finding(
                        .chainShapeUnexpected, at: signerOffset,
                        "the \(what) is signed by the Apple Root CA itself: Apple signs with a leaf two levels below it"
                    ))
            } else if environment != "Xcode" {
                let shown = environment.map { "\"\($0)\"" } ?? "absent"
                findings.append(
                    Finding(
                        .storekitSignerOnAppStoreReceipt, at: signerOffset,
                        "a self-signed StoreKit-style certificate signs this \(what), but its environment is \(shown): only Xcode's (environment \"Xcode\") are signed that way"
                    ))
            }
            return findings
        }
        // A root that restricts its purposes (Xcode's StoreKit certificate: code signing) is no App Store root, whose
        // roots restrict none. Anyone can sign with the StoreKit key Xcode ships, so a certificate it issued, with
        // Apple's markers copied onto it, is a StoreKit signer too: valid only on Xcode's documents (a red team's
        // trial: a Production receipt signed two levels below the StoreKit certificate passed as --root was valid).
        if let anchor = path.last, anchor.hasExtendedKeyUsage, !isBuiltInAnchor(anchor), environment != "Xcode" {
            let shown = environment.map { "\"\($0)\"" } ?? "absent"
            findings.append(
                Finding(
                    .storekitSignerOnAppStoreReceipt, at: offset(anchor) ?? signerOffset,
                    "the path ends at \(anchor.subject), a root that restricts its purposes (extendedKeyUsage) as Xcode's StoreKit certificate does, and this \(what)'s environment is \(shown): what such a root vouches for is only valid on Xcode's documents (environment \"Xcode\")"
                ))
        }
        if path.count != 3 {
            let shape =
                path.count == 2
                ? "the signer is issued directly by the anchor"
                : "the path has \(path.count - 2) intermediates"
            findings.append(
                Finding(
                    .chainShapeUnexpected, at: signerOffset,
                    "the verified path has \(path.count) certificates (\(shape)); Apple's is leaf → WWDR intermediate → root"
                ))
        }
        if !signer.extensions.contains(where: { $0.oid == leafMarker }) {
            findings.append(
                Finding(
                    .leafMarkerMissing, at: signerOffset,
                    "the signing certificate lacks Apple's receipt-signing extension \(leafMarker)"))
        }
        if path.count >= 3, !path[1].extensions.contains(where: { $0.oid == intermediateMarker }) {
            findings.append(
                Finding(
                    .intermediateMarkerMissing, at: offset(path[1]),
                    "the intermediate certificate of the verified path lacks Apple's WWDR extension \(intermediateMarker)"
                ))
        }
        if signer.isCertificateAuthority {
            findings.append(
                Finding(
                    .signerIsCa, at: signerOffset,
                    "the signing certificate is a CA (basicConstraints CA:TRUE): a \(what) is signed by an end-entity certificate (RFC 5280 §4.2.1.9)"
                ))
        }
        if signer.hasExtendedKeyUsage {
            findings.append(
                Finding(
                    .signerExtendedKeyUsage, at: signerOffset,
                    "the signing certificate carries an extendedKeyUsage extension; Apple's receipt-signing certificates carry none"
                ))
        }
        return findings
    }
}
