/// A layer of what `rcpt dump` shows, in the order a diff reports them.
package enum DiffLayer: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The input file: size, digest and how it was wrapped (encoding-level facts).
    case input
    /// The PKCS#7 SignedData around the content: versions, algorithms, content type, trailing bytes.
    case container
    /// The embedded certificates, matched by SHA-256 fingerprint.
    case certificates
    /// The SignerInfos: identifiers, algorithms, signed attributes and signature.
    case signers
    /// The signature and chain verdicts.
    case verification
    /// The payload: top-level attributes and in-app purchase records.
    case receipt
    /// A verifyReceipt response body against another, or against a receipt's `--format verifyreceipt` form.
    case response
    /// Apple's JWS: each token's header, payload claims and nested tokens (x5c under certificates, verdicts under
    /// verification).
    case jws

    private var rank: Int { DiffLayer.allCases.firstIndex(of: self) ?? 0 }

    package static func < (lhs: DiffLayer, rhs: DiffLayer) -> Bool { lhs.rank < rhs.rank }
}
