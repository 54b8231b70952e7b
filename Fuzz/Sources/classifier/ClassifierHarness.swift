import FuzzSupport
import ReceiptInput
import ReceiptJWS

/// Input bytes → `InputClassifier.classify`: JSON strings, form fields, URL-encoding, text around documents and
/// blocks wrapped over lines, layer by layer. Oracles: at most `maximumLayers` steps; a document found as a slice is
/// the input's bytes at its offset; a refusal is a receipt-kind answer with no document; a JWS read while
/// classifying has its tokens inside what the classifier handed over; the same input classifies the same way twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    let classified = InputClassifier.classify(bytes)
    guard classified.findings.count <= InputClassifier.maximumLayers else {
        Fuzz.fail(
            "classifier", "\(classified.findings.count) steps, more than \(InputClassifier.maximumLayers)", input: bytes
        )
    }
    if let offset = classified.offset {
        guard offset >= 0, offset <= bytes.count, classified.bytes.count <= bytes.count - offset,
            bytes[offset..<offset + classified.bytes.count].elementsEqual(classified.bytes)
        else {
            Fuzz.fail(
                "classifier", "the document found at offset \(offset) is not the input's bytes there", input: bytes)
        }
    }
    if classified.refusal != nil, classified.kind != .receipt || classified.isDocument {
        Fuzz.fail("classifier", "a refusal that names a document", input: bytes)
    }
    if case .success(let input)? = classified.jws {
        for held in input.tokens where held.offset < 0 || held.offset > classified.bytes.count {
            Fuzz.fail(
                "classifier", "a token at \(held.offset), outside the \(classified.bytes.count) bytes read",
                input: bytes)
        }
    }
    if Fuzz.sample(bytes, oneIn: 16) {
        let again = InputClassifier.classify(bytes)
        guard again.kind == classified.kind, again.bytes == classified.bytes, again.refusal == classified.refusal else {
            Fuzz.fail("classifier", "the same input classified two ways", input: bytes)
        }
    }
    for finding in classified.findings { blackHole(finding.message) }
    return 0
}
