import COpenSSL

/// Whether a certificate is the one a CMS SignerIdentifier names (RFC 5652 §5.3), as OpenSSL's `cms -verify`
/// matches it: by issuer Name compared in its canonical form (a Name re-encoded with other string types is the
/// same Name) and serial number, or by subjectKeyIdentifier.
extension Certificate {
    /// Whether `issuer` (a Name's whole DER encoding) is this certificate's issuer, compared canonically
    /// (X509_NAME_cmp), and `serial` (an INTEGER's content octets) its serial number.
    package func isNamed(issuer: ArraySlice<UInt8>, serial: ArraySlice<UInt8>) -> Bool {
        guard Self.serialHex(ofContent: serial) == serialHex else { return false }
        let bytes = Array(issuer)
        guard !bytes.isEmpty else { return false }
        return bytes.withUnsafeBufferPointer { buffer -> Bool in
            var cursor = buffer.baseAddress
            guard let name = d2i_X509_NAME(nil, &cursor, buffer.count) else { return false }
            defer { X509_NAME_free(name) }
            guard let cursor, let base = buffer.baseAddress, cursor - base == buffer.count else { return false }
            return X509_NAME_cmp(name, X509_get_issuer_name(x509)) == 0
        }
    }

    /// The subjectKeyIdentifier extension's key identifier, when the certificate carries one.
    package var subjectKeyIdentifier: [UInt8]? {
        guard let identifier = X509_get0_subject_key_id(x509) else { return nil }
        let length = Int(ASN1_STRING_length(identifier))
        guard length > 0, let data = ASN1_STRING_get0_data(identifier) else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: length))
    }

    /// `serialHex`'s form of a positive INTEGER's content octets: lowercase hex without leading zero octets; nil
    /// for a negative or empty one (no certificate of a CA that follows RFC 5280 has one).
    static func serialHex(ofContent content: ArraySlice<UInt8>) -> String? {
        guard let first = content.first, first & 0x80 == 0 else { return nil }
        let magnitude = content.drop { $0 == 0 }
        return magnitude.isEmpty ? "0" : Hex.lowercase(Array(magnitude))
    }
}
