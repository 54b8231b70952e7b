import ReceiptCrypto
import ReceiptPKCS7

/// Apple's marker extensions: a receipt-signing leaf carries 1.2.840.113635.100.6.11.1 and the WWDR intermediate
/// that issued it carries 1.2.840.113635.100.6.2.1. Checked on three-certificate (App Store shaped) chains only;
/// Xcode's single StoreKit certificate has neither.
enum AppleMarkers {
    static let leafMarker = "1.2.840.113635.100.6.11.1"
    static let intermediateMarker = "1.2.840.113635.100.6.2.1"

    static func check(leaf: Certificate, leafOffset: Int, issuerSubject: String,
                      certificates: [CertificateReport]) -> [Finding] {
        var findings: [Finding] = []
        if !leaf.extensions.contains(where: { $0.oid == leafMarker }) {
            findings.append(Finding(.error, "leaf-marker-missing", at: leafOffset,
                                    "the signing certificate lacks Apple's receipt-signing extension \(leafMarker)"))
        }
        let issuer = certificates.first { $0.certificate?.subject == issuerSubject }
        if let issuer, let certificate = issuer.certificate,
           !certificate.extensions.contains(where: { $0.oid == intermediateMarker }) {
            findings.append(Finding(.error, "intermediate-marker-missing", at: issuer.embedded.offset,
                                    "the intermediate certificate lacks Apple's WWDR extension \(intermediateMarker)"))
        }
        return findings
    }
}
