/// The outcome of building and verifying a certificate chain.
package struct ChainVerification: Sendable, Equatable {
    /// True when a chain to one of the anchors was built and no check failed.
    package var isValid: Bool
    /// Subject of the trusted root the chain ends at, when valid; nil otherwise.
    package var anchorSubject: String?
    /// Subjects, leaf first, as OpenSSL built the chain — also when invalid, as far as it got.
    package var path: [String]
    /// Every problem found, e.g. "certificate has expired (depth 0: CN=...)"; empty when valid.
    package var errors: [String]
    /// The certificates of the path OpenSSL built, leaf first (the anchor last when one was reached): the ones
    /// policy checks must look at, never an embedded certificate that merely has a matching name.
    package var certificates: [Certificate]

    /// Creates a verification result from its parts.
    package init(
        isValid: Bool, anchorSubject: String?, path: [String], errors: [String],
        certificates: [Certificate] = []
    ) {
        self.isValid = isValid
        self.anchorSubject = anchorSubject
        self.path = path
        self.errors = errors
        self.certificates = certificates
    }

    package static func == (lhs: ChainVerification, rhs: ChainVerification) -> Bool {
        lhs.isValid == rhs.isValid && lhs.anchorSubject == rhs.anchorSubject && lhs.path == rhs.path
            && lhs.errors == rhs.errors
            && lhs.certificates.map(\.sha256Fingerprint) == rhs.certificates.map(\.sha256Fingerprint)
    }
}
