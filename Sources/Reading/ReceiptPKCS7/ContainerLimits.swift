/// Named bounds on how many of each repeated SignedData part one receipt may carry, so that a hostile container
/// cannot make verification do unbounded work (every certificate is decoded by OpenSSL, every SignerInfo costs a
/// signature check). Apple's receipts carry one digest algorithm, one SignerInfo, no CRL, no signed attributes and one
/// or three certificates. Parts past a limit are not read; the receipt gets a `container-limit-exceeded` error.
/// Beside `ASN1Limits`, which bounds the ASN.1 reading itself.
public struct ContainerLimits: Sendable, Hashable {
    /// The most SignerInfos read (each one a digest and a signature verification).
    package var maximumSignerInfos = 8
    /// The most certificates read from `certificates` (each one decoded and fingerprinted).
    package var maximumCertificates = 16
    /// The most entries read from `crls`.
    package var maximumCRLs = 8
    /// The most AlgorithmIdentifiers read from `digestAlgorithms`.
    package var maximumDigestAlgorithms = 8
    /// The most signed, and the most unsigned, attributes read from one SignerInfo (and values from one attribute).
    package var maximumAttributes = 64

    /// The defaults every command uses; a test sets one bound by assigning it.
    package init() {}

    /// The defaults used by every command.
    public static var `default`: ContainerLimits { ContainerLimits() }
}
