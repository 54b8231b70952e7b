import Foundation
import ReceiptCrypto
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// One input, one judgement: every real receipt and JWS we ship, pasted in the shapes people produce, is found by
/// the one classifier as the same kind of document and gets the verdict the clean file gets.
@Suite("Pasted shapes: one kind, one verdict")
struct PastedShapesTests {
    static let receipts = Fixtures.realReceiptNames
    static let jwsSamples: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Corpus/jws").path)) ?? []
        return names.filter { $0.hasSuffix(".jws") || $0.hasSuffix(".json") }.sorted()
    }()

    static func receiptVerdict(_ classified: ClassifiedInput) throws -> (Bool, Bool) {
        let inspection = Inspector.inspect(classified.bytes, options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
        return (inspection.readError == nil, inspection.isValid)
    }

    static func jwsAnchors(_ name: String) throws -> TrustAnchors {
        if name.hasPrefix("apple-swift-mock") {
            return try TrustAnchors.load(files: ["a", "b"].map { Fixtures.url("Corpus/jws/anchors/apple-swift-mock-test-root-\($0).der").path })
        }
        if name.hasPrefix("apple-swift-xcode") {
            return try TrustAnchors.load(files: [Fixtures.url("Corpus/jws/anchors/apple-swift-xcode-storekit-testing.der").path])
        }
        return try TrustAnchors.appleRootG3()
    }

    @Test(arguments: receipts)
    func everyReceiptInEveryShape(_ name: String) throws {
        let der = Fixtures.realReceipt(name)
        let clean = try Self.receiptVerdict(InputClassifier.classify(der))
        #expect(clean.0, "\(name) reads")
        let shapes = PastedShapes.receipt(der)
        #expect(shapes.count >= 20)
        for (shape, bytes) in shapes {
            let classified = InputClassifier.classify(bytes)
            #expect(classified.kind == .receipt, "\(name), \(shape)")
            let verdict = try Self.receiptVerdict(classified)
            #expect(verdict == clean, "\(name), \(shape): \(verdict) against \(clean)")
        }
    }

    @Test(arguments: jwsSamples)
    func everyJWSInEveryShape(_ name: String) throws {
        let text = String(decoding: Fixtures.bytes("Corpus/jws/" + name), as: UTF8.self)
        let options = JWSInspectionOptions(anchors: try Self.jwsAnchors(name), now: 1_795_000_000)
        let clean = JWSInspector.inspect(Array(text.utf8), options: options)
        #expect(clean.isValid, "\(name): \(clean.errorCodes)")
        let shapes = PastedShapes.jws(text)
        #expect(shapes.count >= 12)
        for (shape, bytes) in shapes {
            let classified = InputClassifier.classify(bytes)
            #expect(classified.kind == .jws, "\(name), \(shape)")
            let inspection = JWSInspector.inspect(classified.bytes, options: options, read: classified.jws)
            #expect(inspection.isValid == clean.isValid, "\(name), \(shape): \(inspection.readError?.message ?? "") \(inspection.errorCodes)")
        }
    }

    /// What nothing can be found in is refused with what was looked for, and never dug into forever.
    @Test func nothingFoundSaysWhatWasLookedFor() {
        for text in ["hello, here is my receipt: none", "receipt=&password=x", String(repeating: "{", count: 100_000),
                     String(repeating: "%25", count: 10_000), String(repeating: "MI", count: 50_000)] {
            let classified = InputClassifier.classify(Array(text.utf8))
            #expect(classified.kind == .receipt)
            if case .failure(let error) = InputDecoder.decode(classified.bytes) {
                #expect(!error.code.isEmpty)
            }
        }
    }

    /// A refusal on purpose is never dug past: a verifyReceipt body naming receipt-data twice stays refused.
    @Test func aDeliberateRefusalStands() {
        let b = Data(Fixtures.realReceipt(Fixtures.sandboxReceipt)).base64EncodedString()
        let body = Array(#"{"receipt-data":"\#(b)","receipt-data":"\#(b)"}"#.utf8)
        let classified = InputClassifier.classify(body)
        #expect(classified.bytes == body)
        #expect(classified.findings.isEmpty)
        guard case .failure(let error) = InputDecoder.decode(classified.bytes) else {
            Issue.record("a body with two receipt-data members was read")
            return
        }
        #expect(error.code == "json-duplicate-receipt-data")
    }
}

/// Hostile text through the classifier: bounded work (each byte looked at a bounded number of times per layer, at
/// most four layers), never a crash.
@Suite("Classifier on hostile text")
struct ClassifierHostileTests {
    @Test(arguments: ["MI+", "eyJ.", "{\"a\":", "%25", "eyJ\n", "MI\nMI", "receipt-data=", "[\"", "\u{00A0}"])
    func repeatedPatternsAreLinear(_ unit: String) {
        let text = Array(String(repeating: unit, count: 200_000).utf8)
        let classified = InputClassifier.classify(text)
        #expect(classified.findings.count <= InputClassifier.maximumLayers)
    }

    @Test func randomBytesNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 3, 64, 1_000, 70_000] {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                _ = InputClassifier.classify(bytes)
                let alphabet: [UInt8] = [0x4D, 0x49, 0x65, 0x79, 0x4A, 0x2E, 0x7B, 0x7D, 0x25, 0x0A]
                let text = bytes.map { alphabet[Int($0) % alphabet.count] }
                _ = InputClassifier.classify(text)
            }
        }
    }
}
