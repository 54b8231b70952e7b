/// What to put in a certificate issued by `Certificate.issue` (for TEST-ONLY certificate authorities).
package struct CertificateRequest: Sendable {
    /// Subject attributes in encoding order, e.g. `[("C", "US"), ("O", "rcpt TEST-ONLY"), ("CN", "Test Leaf")]`.
    ///
    /// Attribute names are OpenSSL short or long names or dotted OIDs; values are encoded as UTF-8 where allowed.
    package var subject: [(attribute: String, value: String)]
    /// The serial number.
    package var serialNumber: UInt64
    /// Start of the validity period in unix seconds.
    package var notBefore: Int64
    /// End of the validity period in unix seconds.
    package var notAfter: Int64
    /// True for a CA (critical basicConstraints CA:TRUE, keyUsage keyCertSign and cRLSign); false for an end entity
    /// (critical keyUsage digitalSignature).
    package var isCertificateAuthority: Bool
    /// The keyUsage extension as OpenSSL's configuration writes it (e.g. "critical,keyEncipherment") instead of the
    /// default for `isCertificateAuthority`; for deliberately flawed test certificates.
    package var keyUsage: String?
    /// An extendedKeyUsage extension as OpenSSL's configuration writes it (e.g. "codeSigning"); none by default.
    package var extendedKeyUsage: String?
    /// Further extensions: dotted OID, criticality and the raw extnValue contents (e.g. `[0x05, 0x00]` for NULL).
    package var extraExtensions: [(oid: String, critical: Bool, derValue: [UInt8])]

    /// Creates a request from its parts.
    package init(
        subject: [(attribute: String, value: String)],
        serialNumber: UInt64,
        notBefore: Int64,
        notAfter: Int64,
        isCertificateAuthority: Bool,
        extraExtensions: [(oid: String, critical: Bool, derValue: [UInt8])] = []
    ) {
        self.subject = subject
        self.serialNumber = serialNumber
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.isCertificateAuthority = isCertificateAuthority
        self.extraExtensions = extraExtensions
    }
}
