import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptModel
import ReceiptPKCS7

/// Reads, verifies and checks one receipt. Never throws: every problem becomes a finding or a read error.
public enum ReceiptInspector {
    /// Inspects `input`; `textOffset` is where it starts in the text it was found in (for the offsets of an error
    /// about that text, as damaged base64).
    public static func inspect(_ input: [UInt8], options: InspectionOptions, textOffset: Int = 0) -> ReceiptInspection {
        let options = options.pinned
        let detected = options.inputFormat ?? InputDecoder.detect(input)
        // The input's SHA-256 (for output that shows it) is computed on another core while the receipt is read.
        let sha256 = options.digestsInput ? BackgroundValue(size: input.count) { InputSummary.sha256(of: input) } : nil
        var inspection = inspect(
            input, options: options, textOffset: textOffset,
            summary: InputSummary(size: input.count, sha256: "not computed", format: detected.rawValue))
        if let sha256 { inspection.input.sha256 = sha256.value }
        if let receipt = inspection.receipt, receipt.error == nil {
            let scope = BindingScope.of(
                options.expectations, production: receipt.environment == ReceiptEnvironment.production.rawValue,
                carried: receipt.payload.map(ExpectedValues.carried) ?? [])
            inspection.binding = scope
            inspection.findings += scope.requiredFindings(options, document: "receipt")
        }
        return inspection
    }

    private static func inspect(
        _ input: [UInt8], options: InspectionOptions, textOffset: Int, summary: InputSummary
    ) -> ReceiptInspection {
        var inspection = ReceiptInspection(
            input: summary, inputError: nil, receipt: nil, certificates: [], signers: [],
            verification: nil, findings: [])
        let bytes: [UInt8]
        var responseDecoding: VerifyReceiptDecoding?
        switch InputDecoder.decode(input, as: options.inputFormat, base: textOffset) {
        case .failure(let error):
            inspection.inputError = error
            return inspection
        case .success(let decoded):
            bytes = decoded.bytes
            responseDecoding = decoded.responseDecoding
            inspection.input.format = decoded.format.rawValue
            inspection.findings += decoded.repairs.map { Finding(.inputRepaired, at: 0, "the input \($0)") }
        }
        let container = SignedDataReader.read(bytes, limits: options.limits, containerLimits: options.containerLimits)
        // The content is hashed on another core while the payload is read.
        let digests = ContentDigests.start(bytes, container.signedData)
        // When the records' entries are not kept, the record checks run as each record is read (see
        // StreamedRecordChecks); otherwise after the read, with every entry at hand.
        let streamed = options.checksContent && !options.keepsRecords ? StreamedRecordChecks() : nil
        let receipt = Receipt.read(
            bytes, container: container, limits: options.limits, recordSink: streamed,
            keepsRecordEntries: options.keepsRecords)
        inspection.receipt = receipt
        if inspection.input.format == InputFormat.binary.rawValue {
            inspection.input.format = receipt.encoding.isDER ? "der" : "ber"
        }
        inspection.findings += receipt.findings.judged(strict: options.strict)
        inspection.certificates = receipt.signedData.certificates.map { decode($0, in: bytes) }
        for report in inspection.certificates where report.decodeError != nil {
            inspection.findings.append(
                Finding(
                    .certificateUndecodable, at: report.embedded.offset,
                    "certificate \(report.embedded.index) cannot be decoded: \(report.decodeError?.message ?? ""); other parsers may read it differently or fail"
                ))
        }
        for crl in receipt.signedData.crls {
            do throws(CryptoError) {
                try RevocationList.validate(derEncoded: bytes[crl])
            } catch {
                inspection.findings.append(
                    Finding(
                        .crlUndecodable, at: crl.lowerBound,
                        "an entry of the crls set cannot be decoded: \(error.message)"))
            }
        }
        guard receipt.error == nil || !receipt.signedData.signers.isEmpty else { return inspection }

        let created = receipt.creationDate?.secondsSinceEpoch
        let resolved = options.time.resolve(signed: created, now: options.clock)
        if resolved.fellBack {
            inspection.findings.append(
                Finding(
                    .noCreationDate, at: nil,
                    "the receipt has no valid creation date: the chain is evaluated now"))
        }
        let (signers, signerFindings) = SignerVerifier.verify(
            receipt, certificates: inspection.certificates.map(\.certificate),
            digests: digests)
        inspection.signers = signers
        inspection.findings += signerFindings
        inspection.verification = summarize(
            receipt, signers: signers, certificates: inspection.certificates,
            anchors: options.anchors, verifications: options.chainVerifications, time: resolved.seconds,
            findings: &inspection.findings)
        inspection.verification?.evaluatedAtSource = VerificationSummary.TimeSource(
            options.time,
            fellBack: resolved.fellBack,
            kind: .receipt)
        if options.checksContent {
            let statusTime = options.statusTime.map { $0.resolve(signed: created, now: options.clock).seconds }
            // The receipt's expiration_date is compared with the current date (Apple), unless a time was named.
            let pinned: Int64? = options.time == .signed ? nil : resolved.seconds
            inspection.findings += ReceiptChecks.check(
                receipt, expectations: options.expectations,
                at: resolved.seconds, statusAt: statusTime ?? resolved.seconds,
                expiryAt: statusTime ?? pinned ?? options.clock,
                now: options.clock, streamed: streamed, responseDecoding: responseDecoding)
        }
        return inspection
    }

    static func summarize(
        _ receipt: Receipt, signers: [SignerVerification], certificates: [CertificateReport],
        anchors: TrustAnchors, verifications: ChainVerificationCache, time: Int64, findings: inout [Finding]
    ) -> VerificationSummary {
        var summary = VerificationSummary(
            signature: .invalid, chain: .unchecked, anchor: nil, evaluatedAt: time,
            path: [], errors: [])
        if receipt.signedData.encapsulatedContent?.isDetached ?? true {
            summary.errors.append("the receipt carries no content to verify")
        } else if signers.isEmpty {
            summary.errors.append("the receipt has no SignerInfo")
            findings.append(
                Finding(
                    .noSigner, at: receipt.signedData.offset,
                    "the receipt has no SignerInfo: it is not signed"))
        } else if signers.allSatisfy({ $0.signature == .valid }) {
            summary.signature = .valid
        } else if signers.contains(where: { if case .unsupported = $0.signature { return true } else { return false } })
        {
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
        let intermediates = certificates.enumerated().compactMap {
            $0.offset == leafIndex ? nil : $0.element.certificate
        }
        let (chain, policyFindings) = ChainCheck.receipts(anchors, verifications: verifications).check(
            leaf: leaf, intermediates: intermediates, at: time, environment: receipt.environment,
            offset: { certificate in
                certificates.first { $0.certificate?.sha256Fingerprint == certificate.sha256Fingerprint }?.embedded
                    .offset
            })
        summary.chain = chain.isValid ? .valid : .invalid
        summary.anchor = chain.anchorSubject
        summary.path = chain.path
        summary.errors += chain.errors
        findings += policyFindings
        if !chain.isValid {
            let because = ChainAdvice.because(
                chain.errors.first, leaf: leaf, intermediates: intermediates, at: time,
                signed: receipt.creationDate?.secondsSinceEpoch, anchors: anchors,
                kind: .receipt)
            findings.append(
                Finding(
                    .chainInvalid, at: certificates[leafIndex].embedded.offset,
                    "the signing certificate does not chain to a trusted root at \(ReceiptDate.format(epochSeconds: time)): \(because)"
                ))
        }
        return summary
    }

    static func decode(_ embedded: EmbeddedCertificate, in bytes: [UInt8]) -> CertificateReport {
        do throws(CryptoError) {
            let certificate = try CertificateCache.shared.certificate(der: bytes[embedded.encoding])
            return CertificateReport(embedded: embedded, certificate: certificate, decodeError: nil)
        } catch {
            return CertificateReport(embedded: embedded, certificate: nil, decodeError: error)
        }
    }

}
