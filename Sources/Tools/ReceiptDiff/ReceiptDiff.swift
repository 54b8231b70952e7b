import Dispatch
import ReceiptDiagnostics
import ReceiptInput
import ReceiptModel
import ReceiptPKCS7
import ReceiptValidation

/// One input to a diff: the name to show for it and everything read from it.
package typealias DiffInput = ComparedInput<ReceiptInspection>

/// One input of a diff: the name it is shown by and what was inspected (a receipt's `ReceiptInspection`, a JWS input's
/// `JWSInspection`).
package struct ComparedInput<Inspected: Sendable>: Sendable {
    package var name: String
    package var inspection: Inspected

    package init(name: String, inspection: Inspected) {
        self.name = name
        self.inspection = inspection
    }
}

/// The semantic receipt diff: compares two inspected receipts layer by layer (input, container, certificates,
/// signers, verification, receipt) and reports each difference with a stable path, old and new values and the
/// byte offsets on both sides. BER and DER encodings of the same receipt are equal unless encoding-level
/// differences are asked for.
package enum ReceiptDiff {
    package static let schema = "rcpt.diff/1"

    /// Compares A with B under `options`.
    package static func compare(_ a: DiffInput, _ b: DiffInput, options: DiffOptions = DiffOptions()) -> DiffResult {
        var sink = ChangeSink(options: options)
        let left = a.inspection
        let right = b.inspection
        if options.compares(.input) {
            InputComparison.compare(left.input, right.input, into: &sink)
            compareReadErrors(left, right, layer: .input, into: &sink)
        }
        let factsA = EncodingFacts(left.receipt)
        let factsB = EncodingFacts(right.receipt)
        if options.compares(.container) {
            ContainerComparison.compare(left.receipt, right.receipt, factsA: factsA, factsB: factsB, into: &sink)
            compareReadErrors(left, right, layer: .container, into: &sink)
        }
        if options.compares(.certificates) || options.compares(.signers) {
            let certificatesA = CertificateComparison.entries(left)
            let certificatesB = CertificateComparison.entries(right)
            if options.compares(.certificates) {
                CertificateComparison.compare(certificatesA, certificatesB, into: &sink)
            }
            if options.compares(.signers) {
                let signersA = SignerComparison.entries(left, fingerprints: certificatesA.map(\.fingerprint))
                let signersB = SignerComparison.entries(right, fingerprints: certificatesB.map(\.fingerprint))
                SignerComparison.compare(signersA, signersB, into: &sink)
            }
        }
        if options.compares(.verification) {
            VerificationComparison.compare(left.verification, right.verification, into: &sink)
            VerdictComparison.compare(left, right, into: &sink)
        }
        if options.compares(.receipt) {
            let (indexA, indexB) = both({ PayloadSide(left.receipt) }, { PayloadSide(right.receipt) })
            ReceiptComparison.compare(indexA, indexB, into: &sink)
            EncodingFacts.compare(
                factsA.payload, factsB.payload, root: DiffPath("payload"), layer: .receipt,
                into: &sink)
            compareReadErrors(left, right, layer: .receipt, into: &sink)
        }
        var result = DiffResult(
            a: side(a), b: side(b), changes: sink.changes, ignoredCount: sink.ignoredCount,
            hiddenEncodingCount: sink.hiddenEncodingCount)
        result.unusedIgnorePatterns = zip(options.ignore, sink.ignoredByPattern).filter { $0.1 == 0 }.map(\.0)
        return result
    }

    /// Why an inspection holds nothing to compare (no receipt bytes, or not even a ContentInfo), or nil when it
    /// can be diffed, however malformed.
    package static func unreadableReason(_ inspection: ReceiptInspection) -> String? {
        if let error = inspection.inputError { return error.message }
        guard let receipt = inspection.receipt else { return "nothing could be read" }
        if let error = receipt.error, error.layer == .container, receipt.signedData.contentType == nil {
            return "\(error.message) (\(error.code) at offset \(error.offset))"
        }
        return nil
    }

    /// Inspects A and B at the same time, one on each core, each as the one classifier found it (`classified`, read
    /// from `input`: the document it found, as verify reads it). Content checks are skipped: their findings are
    /// consequences of field changes the diff reports itself.
    package static func inspect(
        _ a: (classified: ClassifiedInput, input: [UInt8]), _ b: (classified: ClassifiedInput, input: [UInt8]),
        options: InspectionOptions
    ) -> (ReceiptInspection, ReceiptInspection) {
        var reading = options
        reading.checksContent = false
        let fixed = reading
        return both(
            { ReceiptInspection.inspect(a.classified, input: a.input, options: fixed) },
            { ReceiptInspection.inspect(b.classified, input: b.input, options: fixed) })
    }

    /// The header facts of one input.
    static func side(_ input: DiffInput) -> DiffSide {
        DiffSide(
            name: input.name, input: input.inspection.input, readError: input.inspection.readError,
            made: input.inspection.receipt?.creationDate?.millisecondsSinceEpoch)
    }

    /// Where reading stopped, compared by layer and code: `input.readError`, `container.readError`,
    /// `payload.readError`. The offsets are on the change; the message is in the value.
    static func compareReadErrors(
        _ a: ReceiptInspection, _ b: ReceiptInspection, layer: DiffLayer, into sink: inout ChangeSink
    ) {
        let readLayer: ErrorLayer
        let root: String
        switch layer {
        case .input: (readLayer, root) = (.input, "input")
        case .container: (readLayer, root) = (.container, "container")
        default: (readLayer, root) = (.payload, "payload")
        }
        let errorA = a.readError.flatMap { $0.layer == readLayer ? $0 : nil }
        let errorB = b.readError.flatMap { $0.layer == readLayer ? $0 : nil }
        if let errorA, let errorB, errorA.code == errorB.code { return }
        func value(_ error: CodedError?) -> DiffValue? { error.map { .word("\($0.code): \($0.message)") } }
        sink.compare(
            DiffPath(root).appending("readError"), layer, value(errorA), value(errorB),
            offsetA: errorA?.offset, offsetB: errorB?.offset)
    }

    /// Runs two independent pieces of work on two threads and returns both results.
    static func both<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
        var resultA: A?
        var resultB: B?
        withUnsafeMutablePointer(to: &resultA) { slotA in
            withUnsafeMutablePointer(to: &resultB) { slotB in
                let slots = (UncheckedSendable(slotA), UncheckedSendable(slotB))
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 {
                        slots.0.value.pointee = first()
                    } else {
                        slots.1.value.pointee = second()
                    }
                }
            }
        }
        guard let resultA, let resultB else { return (first(), second()) }
        return (resultA, resultB)
    }
}

/// A pointer handed to exactly one worker of `ReceiptDiff.both`, which writes it before the call returns.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
