import COpenSSL
import ReceiptDiagnostics

/// Decoding of the CRLs a SignedData may carry (`crls [1] IMPLICIT RevocationInfoChoices`, RFC 5652 §10.2.1).
/// rcpt never uses a CRL for trust; an entry that is not an X.509 CertificateList is reported, because other
/// parsers may choke on it or read it differently.
package enum RevocationList {
    /// Throws unless `der` is exactly one DER X.509 CertificateList (d2i_X509_CRL consuming every byte).
    package static func validate(derEncoded der: ArraySlice<UInt8>) throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let bytes = Array(der)
        var consumed = 0
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            let crl = d2i_X509_CRL(nil, &cursor, buffer.count)
            if let cursor, let base = buffer.baseAddress { consumed = cursor - base }
            return crl
        }
        guard let parsed else {
            throw .openSSL(.crlDecodeFailed, "the entry is not a DER X.509 CertificateList")
        }
        X509_CRL_free(parsed)
        guard consumed == bytes.count else {
            throw CryptoError(.crlDecodeFailed, message: "\(bytes.count - consumed) trailing bytes after the CRL")
        }
    }
}
