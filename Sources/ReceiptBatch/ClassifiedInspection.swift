import ReceiptASN1
import ReceiptCrypto
import ReceiptInput
import ReceiptModel
import ReceiptValidation

/// An input inspected as the one classifier found it: the reader of its kind reads the document found in it, the
/// classifier's steps come first among the findings, a refusal (two documents, copies readers take differently)
/// makes it unreadable, and the size and digest reported are the input's own, not the document's.
package enum ClassifiedInspection {
    /// The input inspected by the reader of the kind the classifier found.
    package static func inspect(_ classified: ClassifiedInput, input: [UInt8], options: InspectionOptions)
        -> DocumentInspection
    {
        switch classified.kind {
        case .receipt: return .receipt(receipt(classified, input: input, options: options))
        case .jws: return .jws(jws(classified, input: input, options: options))
        }
    }

    package static func receipt(_ classified: ClassifiedInput, input: [UInt8], options: InspectionOptions) -> Inspection {
        if let refusal = classified.refusal {
            let format = options.inputFormat ?? InputDecoder.detect(input)
            return .refused(InputSummary(of: input, format: format.rawValue, digested: options.digestsInput), refusal,
                            findings: classified.findings)
        }
        var inspection = Inspector.inspect(classified.bytes, options: options)
        inspection.findings = classified.findings + inspection.findings
        inspection.input = summary(of: input, read: classified, as: inspection.input, options: options)
        return inspection
    }

    package static func jws(_ classified: ClassifiedInput, input: [UInt8], options: InspectionOptions) -> JWSInspection {
        var inspection = JWSInspector.inspect(classified.bytes, options: options, read: classified.jws)
        inspection.findings = classified.findings + inspection.findings
        inspection.input = summary(of: input, read: classified, as: inspection.input, options: options)
        return inspection
    }

    /// What the report says of the input: the input's own size and digest when the document read is only part of
    /// it (found in pasted text), else what the reader said (`read`), in the form the reader found.
    static func summary(of input: [UInt8], read classified: ClassifiedInput, as read: InputSummary,
                        options: InspectionOptions) -> InputSummary {
        guard classified.bytes.count != input.count || classified.offset != 0 else { return read }
        return InputSummary(of: input, format: read.format, digested: options.digestsInput)
    }
}
