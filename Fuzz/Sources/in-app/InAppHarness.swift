import FuzzModelSupport
import FuzzSupport
import ReceiptASN1
import ReceiptModel

/// The type-17 record parser: the input becomes the value of one in-app attribute inside a well-formed payload,
/// which is read and whose record (if the value is one) is iterated attribute by attribute, with the index's
/// invariants checked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let value = Fuzz.bytes(data, size)
    var writer = ASN1Writer(reservingCapacity: value.count + 16)
    writer.appendConstructed(.set) { writer in
        writer.appendConstructed(.sequence) { writer in
            writer.appendInteger(FieldTable.inAppRecordType)
            writer.appendInteger(1)
            writer.appendOctetString(value)
        }
    }
    let file = writer.bytes
    var touch = PayloadTouch(harness: "in-app", fileSize: file.count)
    let payload = touch.read(file)

    // The wrapper is well-formed whatever the value holds: exactly one type-17 attribute whose value is the input.
    guard payload.error == nil, payload.attributes.count == 1, let attribute = payload.attributes.first else {
        Fuzz.fail(
            "in-app", "the wrapper payload did not read as one attribute: \(String(describing: payload.error))",
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
    return 0
}
