import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptValidation

/// Renders an inspection as a readable tree: container, certificates, signers, verification, every attribute
/// with offset, version, ASN.1 type and decoded value (hex for raw bytes), findings, then the read error if any.
public struct DumpText {
    public var style: TextStyle
    /// Raw values longer than this many bytes are shown truncated (the JSON output always has them whole).
    package var rawPreviewBytes: Int

    /// Only the header and the summary.
    package var brief = false
    /// Show OpenSSL's raw error entries after the sentence that explains them.
    package var verbose = false

    /// A message as shown: OpenSSL's raw entries (`[OpenSSL: …]`) only when verbose.
    func shown(_ message: String) -> String {
        guard !verbose, let marker = message.range(of: OpenSSLErrorText.rawMarker) else { return message }
        return String(message[..<marker.lowerBound])
    }

    public init(style: TextStyle, rawPreviewBytes: Int = 32) {
        self.style = style
        self.rawPreviewBytes = rawPreviewBytes
    }

    /// The whole rendering as one string.
    public func render(_ inspection: ReceiptInspection, name: String) -> String {
        var text = ""
        stream(inspection, name: name) { text += $0 }
        return text
    }

    /// Writes the rendering to `sink` in chunks of about a megabyte, never holding all of it.
    package func stream(_ inspection: ReceiptInspection, name: String, to sink: (String) -> Void) {
        var out = ""
        let input = inspection.input
        out +=
            style.bold("Receipt")
            + " \(TerminalText.safe(name))  \(input.size) bytes, \(input.format), sha256 \(input.sha256)\n"
        out += DumpSummary(style: style).render(inspection)
        if brief {
            sink(out)
            return
        }
        if let receipt = inspection.receipt {
            out += container(receipt)
            out += certificates(inspection.certificates)
            out += signers(receipt, inspection.signers)
        }
        if let summary = inspection.verification { out += verification(summary) }
        if let payload = inspection.receipt?.payload {
            sink(out)
            out = ""
            attributes(payload, to: sink)
        }
        out += findings(inspection.findings)
        if let error = inspection.readError {
            out +=
                "\n" + style.red(style.bold("error")) + " \(error.layer.rawValue): \(TerminalText.safe(error.message)) "
                + style.dim("(\(error.code) at offset \(error.offset ?? 0))") + "\n"
        } else {
            out += "\n" + (inspection.isValid ? style.green("valid") : style.red("invalid")) + "\n"
        }
        sink(out)
    }

    // MARK: Sections

    func section(_ title: String) -> String { "\n" + style.bold(title) + "\n" }

    func row(_ label: String, _ value: String, indent: Int = 1) -> String {
        let pad = String(repeating: "  ", count: indent)
        let padded = label.count < 20 ? label + String(repeating: " ", count: 20 - label.count) : label + " "
        return pad + style.dim(padded) + value + "\n"
    }

    func container(_ receipt: Receipt) -> String {
        let signedData = receipt.signedData
        var out = section("Container")
        out += row("content type", signedData.contentType.map(ObjectIdentifierNames.name(for:)) ?? "?")
        out += row(
            "SignedData",
            "version \(signedData.version.map(String.init) ?? "?") at offset \(signedData.offset.map(String.init) ?? "?")"
        )
        out += row("digest algorithms", signedData.digestAlgorithms.map(\.name).joined(separator: ", "))
        if let content = signedData.encapsulatedContent {
            var description = ObjectIdentifierNames.name(for: content.contentType)
            if content.isDetached {
                description += ", detached (no content)"
            } else {
                description += ", \(content.length) bytes at offset \(content.contentOffset ?? 0)"
                if content.isConstructed { description += " in \(content.segments.count) BER segment(s)" }
            }
            out += row("content", description)
        }
        out += row("certificates", String(signedData.certificates.count))
        if !signedData.crls.isEmpty { out += row("CRLs", String(signedData.crls.count)) }
        out += row("signers", String(signedData.signers.count))
        if let trailing = signedData.trailingBytes {
            out += row("trailing bytes", "\(trailing.count) at offset \(trailing.lowerBound)")
        }
        return out
    }

    func certificates(_ reports: [CertificateReport]) -> String {
        guard !reports.isEmpty else { return "" }
        var out = section("Certificates")
        for report in reports {
            let place = style.dim("@\(report.embedded.offset) (\(report.embedded.length) bytes)")
            guard let certificate = report.certificate else {
                out +=
                    "  [\(report.embedded.index)] \(place) " + style.red("undecodable") + ": "
                    + TerminalText.safe(report.decodeError?.message ?? "") + "\n"
                continue
            }
            out += "  [\(report.embedded.index)] \(place) " + style.cyan(TerminalText.safe(certificate.subject)) + "\n"
            out += row("issuer", TerminalText.safe(certificate.issuer), indent: 3)
            out += row("serial", certificate.serialHex, indent: 3)
            out += row(
                "validity",
                ReceiptDate.format(epochSeconds: certificate.notBefore) + " .. "
                    + ReceiptDate.format(epochSeconds: certificate.notAfter), indent: 3)
            out += row(
                "key", "\(certificate.publicKeyDescription), signed with \(certificate.signatureAlgorithm)",
                indent: 3)
            out += row("sha256", certificate.sha256Fingerprint, indent: 3)
            for item in certificate.extensions {
                let label = item.name + (item.critical ? " (critical)" : "")
                out += row(TerminalText.safe(label), TerminalText.safe(item.value), indent: 3)
            }
        }
        return out
    }

    func signers(_ receipt: Receipt, _ results: [SignerVerification]) -> String {
        let bytes = receipt.bytes
        var out = ""
        for (index, signer) in receipt.signedData.signers.enumerated() {
            out += section("Signer \(index)")
            out += row("offset", String(signer.offset))
            switch signer.identifier {
            case .issuerAndSerialNumber(let issuer, let serial):
                out += row("issuer", TerminalText.safe(DistinguishedName.render(bytes, issuer) ?? "(unreadable name)"))
                out += row("serial", SignerText.serialHex(bytes, serial))
            case .subjectKeyIdentifier(let segments):
                out += row("key identifier", ASN1Primitives.hex(ASN1Primitives.joined(segments, in: bytes)))
            }
            out += row("digest", signer.digestAlgorithm.name)
            out += row("signature algorithm", signer.signatureAlgorithm.name)
            if let attributes = signer.signedAttributes {
                out += row("signed attributes", attributes.attributes.map(\.name).joined(separator: ", "))
            }
            out += row("signature", preview(signer.signature(in: bytes)))
            if let result = results.first(where: { $0.signerIndex == index }) {
                out += row("certificate", result.certificateIndex.map { "[\($0)]" } ?? style.red("not found"))
                if let digest = result.messageDigest { out += row("messageDigest", digest.rawValue) }
                if let scheme = result.scheme { out += row("verified as", scheme) }
                out += row("result", colored(SignerText.status(result.signature)))
            }
        }
        return out
    }

    func verification(_ summary: VerificationSummary) -> String {
        var out = section(
            "Verification at \(ReceiptDate.format(epochSeconds: summary.evaluatedAt)) "
                + "(\(summary.evaluatedAtSource.phrase))")
        out += row("signature", colored(summary.signature.rawValue))
        var chain = colored(summary.chain.rawValue)
        if let anchor = summary.anchor { chain += " → " + TerminalText.safe(anchor) }
        out += row("chain", chain)
        for (depth, subject) in summary.path.enumerated() {
            out += row("  depth \(depth)", TerminalText.safe(subject))
        }
        for error in summary.errors {
            out += row("error", style.red(TerminalText.safe(shown(error))))
        }
        return out
    }

    func attributes(_ payload: ReceiptPayload, to sink: (String) -> Void) {
        var out = section(
            "Attributes (\(payload.attributes.count), \(payload.inAppRecords.count) in-app record(s)) at offset \(payload.offset)"
        )
        for attribute in payload.attributes {
            out += attributeLine(attribute, indent: 1)
            if let record = attribute.record {
                for inner in record.attributes {
                    out += attributeLine(inner, indent: 3)
                }
            }
            if out.utf8.count >= 1 << 20 {
                sink(out)
                out = ""
            }
        }
        sink(out)
    }

    func attributeLine(_ attribute: Attribute, indent: Int) -> String {
        let pad = String(repeating: "  ", count: indent)
        let type = attribute.type.map(String.init) ?? ("0x" + (attribute.typeHex ?? "?"))
        var name = attribute.name
        if let descriptor = attribute.descriptor, !descriptor.isDocumented { name += " (undocumented)" }
        if attribute.descriptor == nil { name += " (unknown)" }
        let offset = style.dim(TextLayout.leftPad("@\(attribute.offset)", 8))
        let version = attribute.version.map { "v\($0)" } ?? "v?"
        let head =
            "\(pad)\(offset) \(TextLayout.leftPad(type, 5)) \(TextLayout.rightPad(name, 34)) \(TextLayout.rightPad(version, 3)) "
            + style.dim(TextLayout.rightPad(attribute.asn1TypeName, 12))
        return head + " " + valueText(attribute) + "\n"
    }

    func valueText(_ attribute: Attribute) -> String {
        switch attribute.value {
        case .text(let text): return style.green(TerminalText.quoted(text))
        case .date(let text, let parsed):
            if text.isEmpty { return style.dim("\"\" (no date)") }
            guard let parsed else { return style.red(TerminalText.quoted(text)) + " (not a date)" }
            let utc = parsed.rfc3339UTC
            return style.green(TerminalText.quoted(text)) + (utc == text ? "" : style.dim(" = \(utc)"))
        case .integer(let number): return String(number)
        case .largeInteger(let hex): return "0x" + hex
        case .boolean(let flag): return flag ? "true" : "false"
        case .raw: return preview(attribute.valueBytes)
        case .record:
            let count = attribute.record?.attributes.count ?? 0
            return "in-app record, \(count) attribute(s)"
        case .absent: return style.red("(no value)")
        }
    }

    func findings(_ findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "" }
        var out = section("Findings (\(findings.count))")
        for finding in findings {
            let severity: String
            switch finding.severity {
            case .error: severity = style.red(TextLayout.rightPad("error", 7))
            case .warning: severity = style.yellow(TextLayout.rightPad("warning", 7))
            case .info: severity = style.dim(TextLayout.rightPad("info", 7))
            }
            let place = finding.offset.map { "@\($0)" } ?? ""
            out += "  \(severity) \(finding.code) \(style.dim(place))  \(TerminalText.safe(shown(finding.message)))\n"
        }
        return out
    }

    // MARK: Helpers

    func colored(_ status: String) -> String {
        switch status {
        case "valid": return style.green(status)
        case "unchecked": return style.yellow(status)
        default: return style.red(status)
        }
    }

    func preview(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.count <= rawPreviewBytes { return ASN1Primitives.hex(bytes) }
        return ASN1Primitives.hex(bytes.prefix(rawPreviewBytes)) + style.dim("… (\(bytes.count) bytes)")
    }

}
