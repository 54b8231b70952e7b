import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptSigning

/// TEST-ONLY signing material generated once per test process, and receipts signed with it.
package enum TestReceipts {
    /// 2000-01-01T00:00:00Z and 2100-01-01T00:00:00Z: a window containing every date the tests use.
    package static let longAgo: Int64 = 946_684_800
    package static let farFuture: Int64 = 4_102_444_800

    /// An Apple-shaped TEST-ONLY chain valid 2000–2100.
    package static let authority: TestCertificateAuthority? = try? TestCertificateAuthority.generate(
        shape: .apple, notBefore: longAgo, notAfter: farFuture, label: "rcpt tests")

    /// A second, unrelated TEST-ONLY chain: a "foreign" CA.
    package static let foreignAuthority: TestCertificateAuthority? = try? TestCertificateAuthority.generate(
        shape: .apple, notBefore: longAgo, notAfter: farFuture, label: "foreign tests")

    /// A TEST-ONLY JWS CA (Apple-shaped, EC) labelled `label`, and a foreign one nothing trusts, valid from
    /// `longAgo` to `farFuture`: a mutation kit's pair.
    package static func jwsAuthorities(_ label: String) -> (
        own: TestCertificateAuthority, foreign: TestCertificateAuthority
    )? {
        guard
            let own = try? TestCertificateAuthority.generate(
                shape: .jws, notBefore: longAgo, notAfter: farFuture, label: label),
            let foreign = try? TestCertificateAuthority.generate(
                shape: .jws, notBefore: longAgo, notAfter: farFuture, label: label + " foreign")
        else { return nil }
        return (own, foreign)
    }

    /// A synthetic receipt signed by `authority`.
    package static func signed(
        _ synthetic: SyntheticReceipt = SyntheticReceipt(), digest: DigestAlgorithm = .sha256,
        layout: ContainerLayout = .der, signedAttributes: Bool = false,
        by authority: TestCertificateAuthority? = TestReceipts.authority
    ) throws -> [UInt8] {
        guard let authority else { throw CryptoError(.keyGenerationFailed, message: "test CA generation failed") }
        return try ReceiptSigner(authority: authority).sign(
            synthetic.payload(), digest: digest, layout: layout,
            signedAttributes: signedAttributes)
    }

    /// A payload signed by `authority`.
    package static func signed(
        payload: [UInt8], digest: DigestAlgorithm = .sha256, layout: ContainerLayout = .der,
        signedAttributes: Bool = false,
        by authority: TestCertificateAuthority? = TestReceipts.authority
    ) throws -> [UInt8] {
        guard let authority else { throw CryptoError(.keyGenerationFailed, message: "test CA generation failed") }
        return try ReceiptSigner(authority: authority).sign(
            payload, digest: digest, layout: layout,
            signedAttributes: signedAttributes)
    }
}
