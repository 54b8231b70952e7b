import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// How a document is judged, whatever its kind: the anchors, when, what is expected of it, and the bounds of the
/// read. Receipts and JWS take the same options; what a kind does not use (a receipt's container limits for a JWS)
/// is ignored there.
public struct InspectionOptions: Sendable {
    public var anchors: TrustAnchors
    /// The anchors a JWS chains to: Apple's defaults differ per kind (Apple Inc. Root for receipts, Apple Root CA -
    /// G3 for JWS), a user's `--root` serves both.
    package var jwsAnchors: JWSAnchors = .same

    /// Where a JWS's anchors come from.
    package enum JWSAnchors: Sendable {
        /// `anchors`, as for receipts.
        case same
        /// The bundled Apple Root CA - G3, decoded only when a JWS is inspected (a receipt never pays for it).
        case appleRootG3
        case given(TrustAnchors)
    }

    /// The anchors a JWS is verified with (none, so nothing verifies, if the bundled G3 could not be decoded).
    package var resolvedJWSAnchors: TrustAnchors {
        switch jwsAnchors {
        case .same: return anchors
        case .appleRootG3: return (try? TrustAnchors.appleRootG3()) ?? TrustAnchors([])
        case .given(let given): return given
        }
    }
    public var time: EvaluationTime
    public var expectations: Expectations
    /// When subscriptions are judged active or expired; nil: at the chain's evaluation time.
    package var statusTime: EvaluationTime?
    package var inputFormat: InputFormat?
    public var limits: ASN1Limits
    /// Bounds on the SignedData's repeated parts (signers, certificates, CRLs, digest algorithms).
    package var containerLimits: ContainerLimits = .default
    /// Whether to run the content checks (required attributes, expectations, dates, records). Reading, signature
    /// and chain are always checked; callers that ignore content findings (diff) may skip them.
    package var checksContent = true
    /// Whether the receipt's index keeps the entries of its in-app records. A caller that shows no record (`rcpt
    /// verify`'s text, JSON, JSON lines, JUnit and SARIF; a server that wants the verdict) sets it false: each record
    /// is checked as it is read and its entries dropped, so the inspection's receipt then has records without
    /// attributes, and memory stays that of the input. The judgement is the same.
    public var keepsRecords = true
    /// Whether to take the input's SHA-256 for `InputSummary.sha256` (output that does not show it skips it).
    package var digestsInput = true
    /// Whether a check bound to no app is an error (`binding-required`): `--require-binding`, for CI.
    public var requiresBinding = false
    /// The strict judgement: what Apple's guidance makes ignorable (a malformed value of an undocumented receipt
    /// attribute type, a JWS claim that is null) is an error, not a warning.
    package var strict = false
    /// The current time, unix seconds: what `now`, "expired" and "in the future" mean; nil: the clock, read once
    /// when an inspection starts (so options built once serve a long-running server).
    public var now: Int64?

    /// `now`, or the clock.
    package var clock: Int64 { now ?? Int64(Date().timeIntervalSince1970) }

    /// These options with `now` fixed for one inspection.
    package var pinned: InspectionOptions {
        var options = self
        options.now = clock
        return options
    }

    public init(anchors: TrustAnchors, time: EvaluationTime = .signed,
                expectations: Expectations = Expectations(), inputFormat: InputFormat? = nil,
                limits: ASN1Limits = .default, now: Int64? = nil) {
        self.anchors = anchors
        self.now = now
        self.time = time
        self.expectations = expectations
        self.inputFormat = inputFormat
        self.limits = limits
    }
}

/// Reads, verifies and checks one receipt. Never throws: every problem becomes a finding or a read error.
public enum Inspector {
    public static func inspect(_ input: [UInt8], options: InspectionOptions) -> Inspection {
        let options = options.pinned
        let detected = options.inputFormat ?? InputDecoder.detect(input)
        // The input's SHA-256 (for output that shows it) is computed on another core while the receipt is read.
        let sha256 = options.digestsInput ? BackgroundValue(size: input.count) { InputSummary.sha256(of: input) } : nil
        var inspection = inspect(input, options: options,
                                 summary: InputSummary(size: input.count, sha256: "not computed", format: detected.rawValue))
        if let sha256 { inspection.input.sha256 = sha256.value }
        if let receipt = inspection.receipt, receipt.error == nil {
            let scope = BindingScope.of(options.expectations, production: receipt.environment == ReceiptEnvironment.production.rawValue)
            inspection.binding = scope
            inspection.findings += scope.requiredFindings(options, document: "receipt")
        }
        return inspection
    }

    private static func inspect(_ input: [UInt8], options: InspectionOptions, summary: InputSummary) -> Inspection {
        var inspection = Inspection(input: summary, inputError: nil, receipt: nil, certificates: [], signers: [],
                                    verification: nil, findings: [])
        let bytes: [UInt8]
        switch InputDecoder.decode(input, as: options.inputFormat) {
        case .failure(let error):
            inspection.inputError = error
            return inspection
        case .success(let decoded):
            bytes = decoded.bytes
            inspection.input.format = decoded.format.rawValue
            inspection.findings += decoded.repairs.map { Finding(.inputRepaired, at: 0, "the input \($0)") }
        }
        let container = SignedDataReader.read(bytes, limits: options.limits, containerLimits: options.containerLimits)
        // The content is hashed on another core while the payload is read.
        let digests = ContentDigests.start(bytes, container.signedData)
        // When the records' entries are not kept, the record checks run as each record is read (see
        // StreamedRecordChecks); otherwise after the read, with every entry at hand.
        let streamed = options.checksContent && !options.keepsRecords ? StreamedRecordChecks() : nil
        let receipt = Receipt.read(bytes, container: container, limits: options.limits, recordSink: streamed,
                                   keepsRecordEntries: options.keepsRecords)
        inspection.receipt = receipt
        if inspection.input.format == InputFormat.binary.rawValue {
            inspection.input.format = receipt.encoding.isDER ? "der" : "ber"
        }
        inspection.findings += receipt.findings.judged(strict: options.strict)
        inspection.certificates = receipt.signedData.certificates.map { decode($0, in: bytes) }
        for report in inspection.certificates where report.decodeError != nil {
            inspection.findings.append(Finding(.certificateUndecodable, at: report.embedded.offset,
                                               "certificate \(report.embedded.index) cannot be decoded: \(report.decodeError?.message ?? ""); other parsers may read it differently or fail"))
        }
        for crl in receipt.signedData.crls {
            do throws(CryptoError) {
                try RevocationList.validate(derEncoded: bytes[crl])
            } catch {
                inspection.findings.append(Finding(.crlUndecodable, at: crl.lowerBound,
                                                   "an entry of the crls set cannot be decoded: \(error.message)"))
            }
        }
        guard receipt.error == nil || !receipt.signedData.signers.isEmpty else { return inspection }

        let resolved = options.time.resolve(for: receipt, now: options.clock)
        if resolved.fellBack {
            inspection.findings.append(Finding(.noCreationDate, at: nil,
                                               "the receipt has no valid creation date: the chain is evaluated now"))
        }
        let (signers, signerFindings) = SignerVerifier.verify(receipt, certificates: inspection.certificates.map(\.certificate),
                                                              digests: digests)
        inspection.signers = signers
        inspection.findings += signerFindings
        inspection.verification = summarize(receipt, signers: signers, certificates: inspection.certificates,
                                            anchors: options.anchors, time: resolved.seconds,
                                            findings: &inspection.findings)
        inspection.verification?.evaluatedAtSource = resolved.fellBack ? .nowForWantOfCreationDate
            : VerificationSummary.TimeSource(options.time)
        if options.checksContent {
            let statusTime = options.statusTime.map { $0.resolve(for: receipt, now: options.clock).seconds }
            inspection.findings += ReceiptChecks.check(receipt, expectations: options.expectations,
                                                       at: resolved.seconds, statusAt: statusTime ?? resolved.seconds,
                                                       now: options.clock, streamed: streamed)
        }
        return inspection
    }

    static func summarize(_ receipt: Receipt, signers: [SignerVerification], certificates: [CertificateReport],
                          anchors: TrustAnchors, time: Int64, findings: inout [Finding]) -> VerificationSummary {
        var summary = VerificationSummary(signature: .invalid, chain: .unchecked, anchor: nil, evaluatedAt: time,
                                          path: [], errors: [])
        if receipt.signedData.encapsulatedContent?.isDetached ?? true {
            summary.errors.append("the receipt carries no content to verify")
        } else if signers.isEmpty {
            summary.errors.append("the receipt has no SignerInfo")
            findings.append(Finding(.noSigner, at: receipt.signedData.offset,
                                    "the receipt has no SignerInfo: it is not signed"))
        } else if signers.allSatisfy({ $0.signature == .valid }) {
            summary.signature = .valid
        } else if signers.contains(where: { if case .unsupported = $0.signature { return true } else { return false } }) {
            summary.signature = .unsupported
        }
        for signer in signers {
            switch signer.signature {
            case .valid: break
            case .invalid(let reason), .unsupported(let reason):
                summary.errors.append("signer \(signer.signerIndex): \(reason)")
            }
        }
        guard let leafIndex = signers.first?.certificateIndex, let leaf = certificates[leafIndex].certificate else {
            if !signers.isEmpty { summary.errors.append("no signer certificate to build a chain from") }
            return summary
        }
        let intermediates = certificates.enumerated().compactMap { $0.offset == leafIndex ? nil : $0.element.certificate }
        let (chain, policyFindings) = ChainCheck.receipts(anchors).check(
            leaf: leaf, intermediates: intermediates, at: time, environment: receipt.environment,
            offset: { certificate in
                certificates.first { $0.certificate?.sha256Fingerprint == certificate.sha256Fingerprint }?.embedded.offset
            })
        summary.chain = chain.isValid ? .valid : .invalid
        summary.anchor = chain.anchorSubject
        summary.path = chain.path
        summary.errors += chain.errors
        findings += policyFindings
        if !chain.isValid {
            let reason = chain.errors.first ?? "no path to a trusted root"
            var advice = ""
            if let expired = ([leaf] + intermediates).filter({ $0.notAfter < time }).min(by: { $0.notAfter < $1.notAfter }),
               receipt.creationDate.map({ expired.notAfter >= $0.secondsSinceEpoch }) ?? false {
                let which = expired === leaf ? "The signing certificate" : "The intermediate certificate"
                advice = ". \(which) expired at "
                    + "\(ReceiptDate.format(epochSeconds: expired.notAfter)), after the receipt was created: receipts are "
                    + "validated at their creation date (the default, --at creation); Apple's certificates last about two years"
            } else if leaf.isSelfIssued, !anchors.certificates.contains(where: { $0.sha256Fingerprint == leaf.sha256Fingerprint }) {
                advice = ". The signer is a self-signed certificate (\(leaf.subject)): an Xcode (StoreKit testing) receipt "
                    + "is trusted only with --root and Xcode's StoreKit certificate (Corpus/certs/StoreKitTestCertificate.cer, "
                    + "or the one Xcode exports)"
            }
            let because = reason + advice
            findings.append(Finding(.chainInvalid, at: certificates[leafIndex].embedded.offset,
                                    "the signing certificate does not chain to a trusted root at \(ReceiptDate.format(epochSeconds: time)): \(because)"))
        }
        return summary
    }

    static func decode(_ embedded: EmbeddedCertificate, in bytes: [UInt8]) -> CertificateReport {
        do throws(CryptoError) {
            let certificate = try Certificate(derEncoded: bytes[embedded.encoding])
            return CertificateReport(embedded: embedded, certificate: certificate, decodeError: nil)
        } catch {
            return CertificateReport(embedded: embedded, certificate: nil, decodeError: error)
        }
    }

}
