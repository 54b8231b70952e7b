import ReceiptASN1
import ReceiptDiagnostics
import ReceiptPKCS7

/// Everything read from one receipt file: the container, the payload, findings about both, and the error that
/// stopped reading, if any. Reading never throws and never stops early on a finding.
public struct Receipt: Sendable {
    /// The DER/BER bytes of the receipt (after any base64/PEM/JSON unwrapping).
    public var bytes: [UInt8]
    public var signedData: SignedData
    /// The payload, when the container held content to read.
    public var payload: ReceiptPayload?
    /// Container and payload findings, in reading order.
    public var findings: [Finding]
    /// The error that stopped reading, if any.
    public var error: ReceiptReadError?
    /// The container's non-DER choices (the payload's are `payload.encoding`).
    package var containerEncoding: EncodingSummary

    /// Reads a receipt from its DER/BER bytes.
    public static func read(
        _ bytes: [UInt8], limits: ASN1Limits = .default,
        containerLimits: ContainerLimits = .default
    ) -> Receipt {
        read(
            bytes, container: SignedDataReader.read(bytes, limits: limits, containerLimits: containerLimits),
            limits: limits)
    }

    /// Reads the payload of `bytes` whose container `SignedDataReader.read(bytes, limits: limits, …)` has read:
    /// for a caller that starts work on the container (hashing the content) before the payload is read.
    /// Each in-app record goes to `recordSink` as it is read; with `keepsRecordEntries` false the payload's index
    /// drops the entries of each record the sink took (its records then hold no attribute: for a caller that shows
    /// none).
    package static func read(
        _ bytes: [UInt8], container: SignedDataReadResult, limits: ASN1Limits,
        recordSink: RecordSink? = nil, keepsRecordEntries: Bool = true
    ) -> Receipt {
        var receipt = Receipt(
            bytes: bytes, signedData: container.signedData, payload: nil,
            findings: container.findings, error: nil, containerEncoding: container.encoding)
        // A truncated input explains whatever else went wrong after the cut: report the cut, read on.
        if let stop = container.truncation ?? container.error {
            receipt.error = ReceiptReadError(container: stop)
            if container.truncation == nil { return receipt }
        }
        guard let content = container.signedData.encapsulatedContent else { return receipt }
        if content.contentType != ObjectIdentifierNames.data {
            receipt.findings.append(
                Finding(
                    .contentTypeNotData, at: content.offset,
                    "eContentType is \(ObjectIdentifierNames.name(for: content.contentType)), not pkcs7-data"))
        }
        guard let octets = content.octetString else {
            receipt.findings.append(
                Finding(
                    .contentDetached, at: content.offset,
                    "the signature is detached: the receipt carries no content"))
            return receipt
        }
        let payload = PayloadReader.read(
            file: bytes, segments: content.segments, depth: octets.depth + 1,
            limits: limits, nodesRead: container.nodesRead,
            truncated: container.truncation != nil, recordSink: recordSink,
            keepsRecordEntries: keepsRecordEntries)
        receipt.findings += payload.findings
        receipt.error = container.truncation.map(ReceiptReadError.init(container:)) ?? payload.error
        receipt.payload = payload
        return receipt
    }

    /// Every attribute of the payload, in order (empty when there is none).
    public var attributes: [Attribute] { payload.map { Array($0.attributes) } ?? [] }

    /// The in-app purchase records, in order.
    public var inAppRecords: [InAppRecord] { payload.map { Array($0.inAppRecords) } ?? [] }

    /// The first attribute of `type` in the payload.
    public func first(_ type: Int64) -> Attribute? { payload?.first(type) }

    /// The first attribute named `field` in the payload.
    public func first(_ field: ReceiptField) -> Attribute? { payload?.first(field) }

    /// The parsed creation date (type 12), when present and valid.
    package var creationDate: ReceiptDate? { first(.receiptCreationDate)?.date }

    /// The environment attribute (type 0) when it is text: "Production", "ProductionSandbox", "Xcode" ….
    public var environment: String? {
        guard let attribute = first(.receiptType), attribute.kind == .text else { return nil }
        return attribute.text
    }

    /// Every non-DER choice of the read, container and payload.
    public var encoding: EncodingSummary { containerEncoding + (payload?.encoding ?? EncodingSummary()) }

    /// The most severe finding's severity, if any.
    package var worstSeverity: Severity? { findings.map(\.severity).max() }
}

extension Receipt: CustomStringConvertible {
    /// A one-line summary: size, attribute and record counts, findings and the read error.
    public var description: String {
        let read = error.map { ", error: \($0.code) at \($0.offset)" } ?? ""
        let attributeCount = payload?.attributes.count ?? 0
        let recordCount = payload?.inAppRecords.count ?? 0
        return "Receipt(\(bytes.count) bytes, \(attributeCount) attributes, \(recordCount) records, "
            + "findings: \(findings.map(\.code))\(read))"
    }
}
