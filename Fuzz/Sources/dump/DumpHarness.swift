import Foundation
import FuzzSupport
import ReceiptModel
import ReceiptRendering
import ReceiptValidation

/// Input bytes → full inspection (any wrapper: DER, BER, base64, PEM, a verifyReceipt body) with the Apple Root CA
/// as the anchor → text and JSON dumps. Oracle: the JSON parses back, with the schema named.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    guard let anchors = DumpHarness.anchors else { Fuzz.fail("dump", "the bundled Apple Root CA did not load") }
    // A fixed "now", so a run is reproducible when the receipt has no creation date.
    let inspection = Inspector.inspect(bytes, options: InspectionOptions(anchors: anchors, now: 1_750_000_000))
    let json = DumpJSON.render(inspection)
    let parsed: Any
    do {
        parsed = try JSONSerialization.jsonObject(with: Data(json))
    } catch {
        Fuzz.fail("dump", "the JSON dump does not parse back: \(error)\n"
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
