import FuzzModelSupport
import FuzzSupport
import ReceiptASN1
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptValidation

/// The type-17 record reader and the record checks. The input becomes the value of one in-app attribute inside a
/// well-formed payload, after a creation date as Apple orders them: the payload is read and its record (if the value
/// is one) iterated attribute by attribute, with the index's invariants checked. Then the payload, in a SignedData
/// with no signer, is inspected as `rcpt` inspects a receipt, twice: keeping the records' entries (the record checks
/// run after the read) and not (they run as the record is read). Oracle: one judgement either way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let value = Fuzz.bytes(data, size)
    let file = InAppHarness.payload(around: value)
    var touch = PayloadTouch(harness: "in-app", fileSize: file.count)
    let payload = touch.read(file)

    // The wrapper is well-formed whatever the value holds: the creation date, then one type-17 attribute whose value
    // is the input.
    guard payload.error == nil, payload.attributes.count == 2, let attribute = payload.attributes.last else {
        Fuzz.fail(
            "in-app", "the wrapper payload did not read as two attributes: \(String(describing: payload.error))",
            input: value)
    }
    guard attribute.type == FieldTable.inAppRecordType, attribute.version == 1,
        attribute.valueOffset == file.count - value.count, attribute.valueBytes.count == value.count
    else {
        Fuzz.fail(
            "in-app",
            "attribute type \(String(describing: attribute.type)), value "
                + "at \(String(describing: attribute.valueOffset)) do not match the wrapper", input: value)
    }
    if payload.inAppRecords.count != (attribute.record == nil ? 0 : 1) {
        Fuzz.fail("in-app", "\(payload.inAppRecords.count) records for one type-17 attribute", input: value)
    }

    guard let anchors = InAppHarness.anchors else { Fuzz.fail("in-app", "the bundled Apple Root CA did not load") }
    let container = InAppHarness.signedData(around: file)
    var options = InspectionOptions(anchors: anchors, now: InAppHarness.now)
    let kept = ReceiptInspector.inspect(container, options: options)
    options.keepsRecords = false
    let streamed = ReceiptInspector.inspect(container, options: options)
    guard kept.receipt?.error == nil, streamed.receipt?.error == nil else {
        Fuzz.fail(
            "in-app", "the wrapper SignedData did not read: \(String(describing: kept.receipt?.error))", input: value)
    }
    guard kept.findings == streamed.findings else {
        let lines = { (findings: [Finding]) in findings.map { "\($0.code) @\($0.offset ?? -1): \($0.message)" } }
        Fuzz.fail(
            "in-app",
            "the record checks judge otherwise as the record is read than after the read:\n  after: "
                + lines(kept.findings).joined(separator: "\n         ") + "\n  as read: "
                + lines(streamed.findings).joined(separator: "\n           "), input: value)
    }
    return 0
}

/// What the harness builds around each input, and loads once per process.
enum InAppHarness {
    static let anchors: TrustAnchors? = try? TrustAnchors.appleRoot()
    /// A fixed "now" (2025-06-15), so a run is reproducible.
    static let now: Int64 = 1_750_000_000
    /// The wrapper's creation date (the type of `receipt_creation_date`, taken from the field table).
    static let creationDateType: Int64 =
        FieldTable.all.first { $0.scope == .receipt && $0.name == "receipt_creation_date" }?.type ?? 12
    static let creationDate = "2025-06-01T00:00:00Z"

    /// A payload of two attributes: the creation date, then an in-app record holding `value`.
    static func payload(around value: [UInt8]) -> [UInt8] {
        var writer = ASN1Writer(reservingCapacity: value.count + 64)
        writer.appendConstructed(.set) { writer in
            writer.appendConstructed(.sequence) { writer in
                writer.appendInteger(creationDateType)
                writer.appendInteger(1)
                var date = ASN1Writer()
                date.appendIA5String(creationDate)
                writer.appendOctetString(date.bytes)
            }
            writer.appendConstructed(.sequence) { writer in
                writer.appendInteger(FieldTable.inAppRecordType)
                writer.appendInteger(1)
                writer.appendOctetString(value)
            }
        }
        return writer.bytes
    }

    /// A ContentInfo holding a SignedData with `payload` as its content, no certificate and no signer.
    static func signedData(around payload: [UInt8]) -> [UInt8] {
        var writer = ASN1Writer(reservingCapacity: payload.count + 64)
        writer.appendConstructed(.sequence) { writer in
            writer.appendObjectIdentifier(ObjectIdentifierNames.signedData)
            writer.appendConstructed(.context(0, constructed: true)) { writer in
                writer.appendConstructed(.sequence) { writer in
                    writer.appendInteger(1)
                    writer.appendConstructed(.set) { _ in }
                    writer.appendConstructed(.sequence) { writer in
                        writer.appendObjectIdentifier(ObjectIdentifierNames.data)
                        writer.appendConstructed(.context(0, constructed: true)) { writer in
                            writer.appendOctetString(payload)
                        }
                    }
                    writer.appendConstructed(.set) { _ in }
                }
            }
        }
        return writer.bytes
    }
}
