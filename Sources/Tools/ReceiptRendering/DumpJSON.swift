import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel
import ReceiptPKCS7
import ReceiptValidation

/// Renders an inspection as the `rcpt.dump/1` JSON document (see DESIGN.md).
public enum DumpJSON {
    public static let schema = "rcpt.dump/1"

    /// The document's bytes, newline-terminated.
    public static func render(_ inspection: ReceiptInspection, pretty: Bool = true) -> [UInt8] {
        JSONWriter.document(pretty: pretty, reservingCapacity: 4096 + (inspection.receipt?.bytes.count ?? 0) * 4) {
            write(inspection, to: &$0)
        }
    }

    /// Writes the newline-terminated document to `sink` in chunks, never holding all of it.
    package static func stream(
        _ inspection: ReceiptInspection, pretty: Bool = true, to sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        JSONWriter.streamDocument(pretty: pretty, to: sink) { write(inspection, to: &$0) }
    }

    /// Writes the document as one JSON value, with a leading `file` member when given (batch output).
    public static func write(_ inspection: ReceiptInspection, file: String? = nil, to json: inout JSONWriter) {
        json.object { json in
            writeHeader(file: file, schema: schema, kind: "receipt", input: inspection.input, to: &json)
            if let receipt = inspection.receipt {
                writeContainer(receipt, to: &json)
                writeCertificates(inspection.certificates, to: &json)
                writeSigners(receipt, inspection.signers, to: &json)
            } else {
                json.key("container")
                json.null()
                json.member(name: "certificates")
                json.member(name: "signers")
            }
            writeVerification(inspection.verification, to: &json)
            json.key("attributes")
            if let payload = inspection.receipt?.payload {
                // Both lists show every record: a record whose entries the read dropped is read again for each.
                RecordRereader.reading(payload.index) { records in
                    let table = payload.index.table
                    json.array { json in
                        table.bytes.withUnsafeBufferPointer { buffer in
                            for entry in payload.index.topLevel {
                                AttributeJSON.writeAttribute(
                                    Int(entry), in: table, buffer: buffer, to: &json,
                                    records: &records)
                            }
                        }
                    }
                    json.key("receipt")
                    ReceiptObjectJSON.write(payload, to: &json, records: &records)
                }
            } else {
                json.array { _ in }
                json.key("receipt")
                json.null()
            }
            json.array("findings") { json in
                for finding in inspection.findings { writeFinding(finding, to: &json) }
            }
            writeReadError(inspection.readError, to: &json)
            json.member("valid", inspection.isValid)
        }
    }

    /// The `input` member: size, digest and detected format.
    static func writeInput(_ input: InputSummary, to json: inout JSONWriter) {
        json.object("input") { json in
            json.member("size", input.size)
            json.member("sha256", input.sha256)
            json.member("format", input.format)
        }
    }

    /// The `error` member: where and why reading stopped, or null.
    static func writeReadError(_ error: CodedError?, to json: inout JSONWriter) {
        json.key("error")
        writeReadErrorValue(error, to: &json)
    }

    /// Where and why reading stopped, as an object, or null.
    static func writeReadErrorValue(_ error: CodedError?, to json: inout JSONWriter) {
        guard let error else { return json.null() }
        writeErrorObject(error, to: &json)
    }

    /// The one shape of an `error` object, for every document kind: layer, code, offset (null when the reason is not
    /// about a place in the input) and message.
    static func writeErrorObject(_ error: CodedError, to json: inout JSONWriter) {
        json.object { json in
            json.member("layer", error.layer.rawValue)
            json.member("code", error.code)
            json.member("offset", error.offset)
            json.member("message", error.message)
        }
    }

    static func writeFinding(_ finding: Finding, to json: inout JSONWriter) {
        json.object { json in
            json.member("severity", finding.severity.rawValue)
            json.member("code", finding.code)
            json.member("offset", finding.offset)
            json.member("message", finding.message)
            if !finding.fields.isEmpty {
                json.object("fields") { json in
                    for field in finding.fields {
                        json.key(named: field.name)
                        json.string(field.value)
                    }
                }
            }
        }
    }

    static func writeContainer(_ receipt: Receipt, to json: inout JSONWriter) {
        let signedData = receipt.signedData
        json.object("container") { json in
            json.member("contentType", signedData.contentType)
            json.member("offset", signedData.offset)
            json.member("version", signedData.version)
            json.member("digestAlgorithms", strings: signedData.digestAlgorithms.map(\.name))
            let content = signedData.encapsulatedContent
            json.member("encapsulatedContentType", content?.contentType)
            json.member("contentOffset", content?.contentOffset)
            json.member("contentLength", content?.isDetached == false ? content?.length : nil)
            json.member("contentSegments", content?.segments.count)
            json.member("certificateCount", signedData.certificates.count)
            json.member("crlCount", signedData.crls.count)
            json.member("signerCount", signedData.signers.count)
            json.member("trailingBytes", signedData.trailingBytes?.count)
        }
    }

    static func writeCertificates(_ reports: [CertificateReport], to json: inout JSONWriter) {
        json.objects("certificates", reports) { report, json in
            json.member("index", report.embedded.index)
            json.member("offset", report.embedded.offset)
            json.member("length", report.embedded.length)
            guard let certificate = report.certificate else {
                json.member("error", report.decodeError?.message ?? "undecodable")
                return
            }
            writeCertificateFields(certificate, to: &json)
        }
    }

    /// A decoded certificate's members: subject, issuer, serial, validity, algorithms, key, fingerprint, extensions.
    static func writeCertificateFields(_ certificate: Certificate, to json: inout JSONWriter) {
        json.member("subject", certificate.subject)
        json.member("issuer", certificate.issuer)
        json.member("serial", certificate.serialHex)
        json.member("notBefore", ReceiptDate.format(epochSeconds: certificate.notBefore))
        json.member("notAfter", ReceiptDate.format(epochSeconds: certificate.notAfter))
        json.member("signatureAlgorithm", certificate.signatureAlgorithm)
        json.member("publicKey", certificate.publicKeyDescription)
        json.member("sha256Fingerprint", certificate.sha256Fingerprint)
        json.member("selfIssued", certificate.isSelfIssued)
        json.objects("extensions", certificate.extensions) { item, json in
            json.member("oid", item.oid)
            json.member("name", item.name)
            json.member("critical", item.critical)
            json.member("value", item.value)
        }
    }

    static func writeSigners(_ receipt: Receipt, _ results: [SignerVerification], to json: inout JSONWriter) {
        let bytes = receipt.bytes
        json.array("signers") { json in
            for (index, signer) in receipt.signedData.signers.enumerated() {
                let result = results.first { $0.signerIndex == index }
                json.object { json in
                    json.member("index", index)
                    json.member("offset", signer.offset)
                    json.member("version", signer.version)
                    switch signer.identifier {
                    case .issuerAndSerialNumber(let issuer, let serial):
                        json.member("issuer", DistinguishedName.render(bytes, issuer))
                        json.member("serial", SignerText.serialHex(bytes, serial))
                    case .subjectKeyIdentifier(let segments):
                        json.member(
                            "subjectKeyIdentifier", ASN1Primitives.hex(ASN1Primitives.joined(segments, in: bytes)))
                    }
                    json.member("digestAlgorithm", signer.digestAlgorithm.name)
                    json.member("signatureAlgorithm", signer.signatureAlgorithm.name)
                    writeCMSAttributes(
                        "signedAttributes", signer.signedAttributes?.attributes, bytes: bytes,
                        to: &json)
                    json.member("signature", ASN1Primitives.hex(signer.signature(in: bytes)))
                    writeCMSAttributes("unsignedAttributes", signer.unsignedAttributes, bytes: bytes, to: &json)
                    json.member("certificateIndex", result?.certificateIndex)
                    json.member("messageDigest", result?.messageDigest?.rawValue)
                    json.member("verifiedAs", result?.scheme)
                    json.member("result", result.map { SignerText.status($0.signature) })
                }
            }
        }
    }

    /// A member holding CMS attributes (type and hex values), or null when the signer has none.
    static func writeCMSAttributes(
        _ name: String, _ attributes: [CMSAttribute]?, bytes: [UInt8],
        to json: inout JSONWriter
    ) {
        json.key(named: name)
        guard let attributes else {
            json.null()
            return
        }
        json.array { json in
            for attribute in attributes {
                json.object { json in
                    json.member("oid", attribute.oid)
                    json.member("name", attribute.name)
                    json.member("values", strings: attribute.values.map { ASN1Primitives.hex(bytes, $0) })
                }
            }
        }
    }

    static func writeVerification(_ summary: VerificationSummary?, to json: inout JSONWriter) {
        json.key("verification")
        guard let summary else {
            json.null()
            return
        }
        json.object { json in
            json.member("signature", summary.signature.rawValue)
            json.member("chain", summary.chain.rawValue)
            json.member("anchor", summary.anchor)
            json.member("evaluatedAt", ReceiptDate.format(epochSeconds: summary.evaluatedAt))
            json.member("evaluatedAtSource", summary.evaluatedAtSource.rawValue)
            json.member("path", strings: summary.path)
            json.member("errors", strings: summary.errors)
        }
    }

    // MARK: - batch lines (one compact object per input, `dump --format jsonl`)

    /// A compact `rcpt.dump/1` object with a leading `file` member.
    package static let batchLine: @Sendable (ReceiptInspection, String) -> [UInt8] = { inspection, path in
        var json = JSONWriter(pretty: false)
        write(inspection, file: path, to: &json)
        return json.bytes + [0x0A]
    }

    /// The members every document starts with, whatever its kind: the file (in a batch), the schema, the kind
    /// (`receipt` or `jws`) and the input.
    static func writeHeader(file: String?, schema: String, kind: String, input: InputSummary, to json: inout JSONWriter)
    {
        if let file { json.member("file", file) }
        json.member("schema", schema)
        json.member("kind", kind)
        writeInput(input, to: &json)
    }

    /// The line for a file that could not be read at all, and why (`InputFile`'s reason: "no such file" …).
    package static func unreadableLine(_ path: String, schema: String, reason: String) -> [UInt8] {
        unreadableDocument(path, schema: schema, reason: reason, file: path, pretty: false)
    }

    /// The document for an input that could not be read at all: its schema, an `error` of code `unreadable`
    /// saying why, and `valid: false`; with a leading `file` member when given (batch output).
    package static func unreadableDocument(
        _ path: String, schema: String, reason: String, file: String?,
        pretty: Bool
    ) -> [UInt8] {
        var json = JSONWriter(pretty: pretty)
        json.object { json in
            if let file { json.member("file", file) }
            json.member("schema", schema)
            json.key("error")
            writeErrorObject(CodedError(.fileUnreadable, "cannot read \(path): \(reason)"), to: &json)
            json.member("valid", false)
        }
        return json.bytes + [0x0A]
    }
}

extension JSONWriter {
    /// An empty array member.
    mutating func member(name: String) {
        key(named: name)
        array { _ in }
    }

}
