import FuzzSigningSupport
import FuzzSupport
import ReceiptFuzzing
import ReceiptModel
import ReceiptValidation

/// TEMPLATE: fuzzing your own Swift receipt validator in-process with rcpt's mutator and oracle. Copy this file
/// into a libFuzzer executable of your own, link the `ReceiptFuzzing` product, replace `YourValidator.accepts` with
/// a call to your validator, and point the CA at a folder made by `rcpt ca init` (here the committed TEST-ONLY
/// keys). libFuzzer then mutates with `InProcessFuzzing.mutate` (re-signed, structure-aware), and every input on
/// which your validator and `rcpt verify` disagree traps, so libFuzzer saves it. The validator below has a planted
/// bug (it takes the last of duplicated bundle ids and ignores the duplicate), which the fuzzer finds in seconds;
/// `scripts/fuzz.sh` builds this harness but never runs it in `--ci`, because finding the bug is its purpose.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    guard let fuzzing = ExampleSetup.fuzzing else { Fuzz.fail("example-validator", "cannot load the TEST-ONLY keys") }
    let accepted = YourValidator.accepts(
        bytes, anchors: TrustAnchors([fuzzing.kit.authority.root]),
        deviceID: fuzzing.kit.deviceID)
    if let (kind, verdict) = fuzzing.disagreement(bytes, validatorAccepted: accepted) {
        Fuzz.fail(
            "example-validator",
            "\(kind.rawValue): rcpt verify says \(verdict.isValid ? "valid" : "invalid") \(verdict.codes)",
            input: bytes)
    }
    return 0
}

@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let fuzzing = ExampleSetup.fuzzing else { return libFuzzerMutate(data, size, maxSize) }
    // A structure-aware mutation, re-signed, copied into libFuzzer's buffer when it fits; else libFuzzer's own.
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let output = fuzzing.mutated(input, seed: UInt64(seed)), !output.isEmpty, output.count <= maxSize else {
        return libFuzzerMutate(data, size, maxSize)
    }
    for (index, byte) in output.enumerated() { data[index] = byte }
    return output.count
}

enum ExampleSetup {
    static let bundleID = VerifyExpectations.expectations.bundleID
    static let fuzzing: InProcessFuzzing? = FuzzKeys.locate().flatMap {
        try? InProcessFuzzing(
            caDirectory: $0, bundleID: bundleID, appVersion: VerifyExpectations.expectations.appVersion)
    }
}

/// Stands for your validator. Its planted bug: a duplicated bundle id is "fine", and the last copy counts.
enum YourValidator {
    static func accepts(_ bytes: [UInt8], anchors: TrustAnchors, deviceID: [UInt8]) -> Bool {
        let expectations = Expectations(appVersion: VerifyExpectations.expectations.appVersion, deviceID: deviceID)
        let inspection = ReceiptInspector.inspect(
            bytes, options: InspectionOptions(anchors: anchors, expectations: expectations))
        guard inspection.readError == nil, let receipt = inspection.receipt else { return false }
        let errors = inspection.findings.filter { $0.severity == .error && $0.code != "duplicate-attribute" }
        return errors.isEmpty && receipt.attributes.filter { $0.type == 2 }.last?.text == ExampleSetup.bundleID
    }
}
