import Foundation
import FuzzSupport
import ReceiptModel
import ReceiptRendering
import ReceiptValidation

/// Input bytes → full inspection (any wrapper: DER, BER, base64, PEM, a verifyReceipt body) with the Apple Root CA
/// as the anchor → text and JSON dumps, each read as `rcpt dump` reads for it (the JSON keeps no record's entries
/// and reads each record again as it writes it). Oracles: the JSON parses back, with the schema named, and is byte
/// for byte the JSON of the inspection that kept every entry.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    guard let anchors = DumpHarness.anchors else { Fuzz.fail("dump", "the bundled Apple Root CA did not load") }
    // A fixed "now", so a run is reproducible when the receipt has no creation date.
    let options = InspectionOptions(anchors: anchors, now: 1_750_000_000)
    let inspection = ReceiptInspector.inspect(bytes, options: options)
    var lean = options
    lean.keepsRecords = false
    let json = DumpJSON.render(ReceiptInspector.inspect(bytes, options: lean))
    guard json == DumpJSON.render(inspection) else {
        Fuzz.fail(
            "dump",
            "the JSON dump of an inspection that dropped the records' entries differs from the one "
                + "that kept them", input: bytes)
    }
    let parsed: Any
    do {
        parsed = try JSONSerialization.jsonObject(with: Data(json))
    } catch {
        Fuzz.fail(
            "dump",
            "the JSON dump does not parse back: \(error)\n"
                + String(decoding: json.prefix(2000), as: UTF8.self), input: bytes)
    }
    guard let object = parsed as? [String: Any], object["schema"] as? String == DumpJSON.schema else {
        Fuzz.fail("dump", "the JSON dump is not an object naming \(DumpJSON.schema)", input: bytes)
    }
    let text = DumpText(style: TextStyle(useColor: false)).render(inspection, name: "fuzz-input")
    guard !text.isEmpty else { Fuzz.fail("dump", "the text dump is empty", input: bytes) }
    blackHole(inspection.description)
    return 0
}

/// State loaded once per process.
enum DumpHarness {
    static let anchors: TrustAnchors? = try? TrustAnchors.appleRoot()
}
