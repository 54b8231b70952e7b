import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS

/// One token being judged: what it is, where its parts are, and what the checks before a check decided (the
/// certificates, the signature, the evaluation time, the chain), which a later check reads. The token's findings
/// gather here, in the order the checks run.
struct TokenJudgement {
    let held: NestedJWS
    /// The kind of payload, and the app and environment it is bound to (where Apple's verifier reads them).
    let binding: JWSBinding
    /// The token carrying this one, when it is nested.
    let carrier: JWSInspector.Carrier?
    let options: InspectionOptions
    let cache: JWSInspector.ChainCache
    var findings: [Finding]
    /// The x5c certificates in order, decoded (or why not).
    var certificates: [Result<Certificate, CryptoError>] = []
    var signature = VerificationSummary.SignatureStatus.unsupported
    /// When the chain and the certificates' validity are evaluated (unix seconds), and why then.
    var evaluatedAt: Int64 = 0
    var timeSource = VerificationSummary.TimeSource.nowForWantOfSignedDate
    /// The token's own signing time (unix seconds), when it has one.
    var signedAt: Int64?
    var chain: VerificationSummary?
    /// Whether x5c's first certificate is a CA with the leaf after it (`TokenLeafFirst`): then there is no signer.
    var isSignerMisplaced = false

    init(_ held: NestedJWS, carrier: JWSInspector.Carrier?, options: InspectionOptions, cache: JWSInspector.ChainCache)
    {
        self.held = held
        self.carrier = carrier
        self.options = options
        self.cache = cache
        binding = held.token.binding(member: held.member)
        findings = held.token.findings.judged(strict: options.strict)
    }

    var token: JWSToken { held.token }
    /// The signing certificate (x5c's first), when it decodes and is not a CA standing before the leaf.
    var signer: Certificate? { isSignerMisplaced ? nil : try? certificates.first?.get() }
    /// Whether the token is trusted: its signature verifies and its chain reaches an anchor. What it carries is
    /// verified only then.
    var isTrusted: Bool { signature == .valid && chain?.chain == .valid }

    var headerStart: Int { token.ranges[.header]?.lowerBound ?? token.offset }
    var payloadStart: Int { token.ranges[.payload]?.lowerBound ?? token.offset }
    var signatureStart: Int { token.ranges[.signature]?.lowerBound ?? token.offset }
    /// Where byte `jsonOffset` of the decoded payload is written in the token's text.
    func payloadOffset(_ jsonOffset: Int) -> Int { payloadStart + Base64URL.textOffset(ofDecodedByte: jsonOffset) }
}

/// One check of a token, in the manner of swift-certificates' `VerifierPolicy`: it reads the judgement so far and
/// adds its findings (and, for the checks others build on, what it decided). `JWSInspector.tokenChecks` lists them
/// in the order they run.
protocol TokenCheck: Sendable {
    func check(_ judgement: inout TokenJudgement)
}
