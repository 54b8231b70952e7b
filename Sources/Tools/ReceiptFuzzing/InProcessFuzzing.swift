import ReceiptCrypto
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptMutation
import ReceiptSigning
import ReceiptValidation

/// For a Swift validator's own libFuzzer harness: rcpt's structure-aware mutator, which re-signs what it changes
/// with a TEST-ONLY CA (call `mutate` from `LLVMFuzzerCustomMutator`), and `rcpt verify`'s verdict as the oracle
/// (call `check` from `LLVMFuzzerTestOneInput` with your validator's verdict: it traps, so libFuzzer keeps the input,
/// when your validator accepts what rcpt rejects or the other way round). `Fuzz/Sources/example-validator/` is a
/// template; `Fuzz/README.md` the guide.
public final class InProcessFuzzing: @unchecked Sendable {
    public let kit: MutationKit
    package let jwsKit: MutationKit?
    let judge: Judge

    /// The kit of `caDirectory` (made by `rcpt ca init`; `jwsCADirectory` by `rcpt ca init --shape jws`) and the
    /// expectations your validator is built with.
    public init(caDirectory: String, jwsCADirectory: String? = nil, bundleID: String?, appVersion: String? = nil)
        throws
    {
        kit = try MutationKit.load(
            from: caDirectory,
            deviceID: Expectations.parseDeviceID(MutationKit.defaultDeviceID) ?? [])
        jwsKit = try jwsCADirectory.map { directory throws(CryptoError) in
            try MutationKit.load(from: directory, deviceID: [])
        }
        let expectations = Expectations(bundleID: bundleID, appVersion: appVersion, deviceID: kit.deviceID)
        let receiptOptions = InspectionOptions(
            anchors: TrustAnchors([kit.authority.root]), time: .signed,
            expectations: expectations)
        let jwsOptions = jwsKit.map { kit in
            InspectionOptions(
                anchors: TrustAnchors([kit.authority.root]), time: .signed,
                expectations: Expectations(bundleID: bundleID))
        }
        judge = Judge(receiptOptions: receiptOptions, jwsOptions: jwsOptions)
    }

    /// Replaces the input in `data` (capacity `maxSize`) with a structure-aware mutation of it, re-signed, and
    /// returns its size; when no such mutation applies, hands over to `fallback` (pass libFuzzer's
    /// `LLVMFuzzerMutate`). Deterministic for `seed`.
    package func mutate(
        _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, seed: UInt32,
        fallback: (UnsafeMutablePointer<UInt8>, Int, Int) -> Int
    ) -> Int {
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        if let output = mutated(input, seed: UInt64(seed)), output.count <= maxSize, !output.isEmpty {
            output.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { data.update(from: base, count: buffer.count) }
            }
            return output.count
        }
        return fallback(data, size, maxSize)
    }

    /// A structure-aware mutation of `input`, re-signed, or nil when none applies (three draws).
    public func mutated(_ input: [UInt8], seed: UInt64) -> [UInt8]? {
        guard !input.isEmpty else { return nil }
        var generator = FuzzInputGenerator(seeds: [input], kit: kit, jwsKit: jwsKit, seed: seed)
        for _ in 0..<3 {
            if let next = generator.next() { return next.bytes }
        }
        return nil
    }

    /// `rcpt verify`'s verdict on `bytes`, under the expectations given at creation.
    package func reference(_ bytes: [UInt8]) -> ReferenceVerdict {
        judge.verdict(
            GeneratedInput(bytes: bytes, seed: 0, edits: [], isJWS: InputClassifier.classify(bytes).kind == .jws))
    }

    /// The disagreement between your validator's verdict and rcpt's on `bytes`, if any.
    public func disagreement(_ bytes: [UInt8], validatorAccepted: Bool) -> (Disagreement, ReferenceVerdict)? {
        let verdict = reference(bytes)
        if validatorAccepted && !verdict.isValid { return (.acceptedWhatRcptRejects, verdict) }
        if !validatorAccepted && verdict.isValid { return (.rejectedWhatRcptAccepts, verdict) }
        return nil
    }
}
