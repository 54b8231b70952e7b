import ReceiptASN1
import ReceiptCrypto
import ReceiptInput
import ReceiptModel
import ReceiptValidation

/// An input inspected as the one classifier found it: the reader of its kind reads the document found in it, the
/// classifier's steps come first among the findings, a refusal (two documents, copies readers take differently)
/// makes it unreadable, and the size and digest reported are the input's own, not the document's.
package enum ClassifiedInspection {
    package static func receipt(_ classified: ClassifiedInput, input: [UInt8], options: InspectionOptions) -> Inspection {
        if let refusal = classified.refusal {
            let digest = options.digestsInput ? digest(input) : "not computed"
            let format = options.inputFormat ?? InputDecoder.detect(input)
            return .refused(InputSummary(size: input.count, sha256: digest, format: format.rawValue), refusal,
                            findings: classified.findings)
        }
        var inspection = Inspector.inspect(classified.bytes, options: options)
        inspection.findings = classified.findings + inspection.findings
        if classified.bytes.count != input.count || classified.offset != 0 {
            inspection.input.size = input.count
            if options.digestsInput { inspection.input.sha256 = digest(input) }
        }
        return inspection
    }

    package static func jws(_ classified: ClassifiedInput, input: [UInt8], options: InspectionOptions) -> JWSInspection {
        var inspection = JWSInspector.inspect(classified.bytes, options: options, read: classified.jws)
        inspection.findings = classified.findings + inspection.findings
        if classified.bytes.count != input.count || classified.offset != 0 {
            inspection.input.size = input.count
            inspection.input.sha256 = digest(input)
        }
        return inspection
    }

    static func digest(_ bytes: [UInt8]) -> String {
        (try? Digest.hash(bytes, algorithm: .sha256)).map { ASN1Primitives.hex($0) } ?? "unavailable"
    }
}
