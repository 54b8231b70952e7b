/// Named bounds on how many of each repeated SignedData part one receipt may carry, so that a hostile container
/// cannot make verification do unbounded work (every certificate is decoded by OpenSSL, every SignerInfo costs a
/// signature check). Apple's receipts carry one digest algorithm, one SignerInfo, no CRL, no signed attributes and one
/// or three certificates. Parts past a limit are not read; the receipt gets a `container-limit-exceeded` error.
/// Beside `ASN1Limits`, which bounds the ASN.1 reading itself.
public struct ContainerLimits: Sendable, Hashable {
    /// The most SignerInfos read (each one a digest and a signature verification).
    package var maximumSignerInfos: Int
    /// The most certificates read from `certificates` (each one decoded and fingerprinted).
    package var maximumCertificates: Int
    /// The most entries read from `crls`.
    package var maximumCRLs: Int
    /// The most AlgorithmIdentifiers read from `digestAlgorithms`.
    package var maximumDigestAlgorithms: Int
    /// The most signed, and the most unsigned, attributes read from one SignerInfo (and values from one attribute).
    package var maximumAttributes: Int

    package init(maximumSignerInfos: Int = 8, maximumCertificates: Int = 16, maximumCRLs: Int = 8,
                maximumDigestAlgorithms: Int = 8, maximumAttributes: Int = 64) {
        self.maximumSignerInfos = maximumSignerInfos
        self.maximumCertificates = maximumCertificates
        self.maximumCRLs = maximumCRLs
        self.maximumDigestAlgorithms = maximumDigestAlgorithms
        self.maximumAttributes = maximumAttributes
    }

    /// The defaults used by every command.
    public static var `default`: ContainerLimits { ContainerLimits() }
}
