import ReceiptInput

/// The one way into a judgement: an input classified once (`InputClassifier`), read and judged by the reader of the
/// kind it holds, and given the one face (`Inspection`). A refusal (two documents, copies readers take differently)
/// makes it unreadable; the size and digest reported are the input's own, not the document's.
public enum Inspector {
    /// Every kind of document rcpt reads.
    static let kinds: [any InspectedDocument.Type] = [ReceiptInspection.self, JWSInspection.self]

    /// `input` classified and inspected by the reader of the kind found in it.
    public static func inspect(_ input: [UInt8], options: InspectionOptions) -> Inspection {
        inspect(InputClassifier.classify(input, forced: options.forcedFormat), input: input, options: options)
    }

    /// An input the classifier has read, inspected by the reader of the kind it found.
    package static func inspect(_ classified: ClassifiedInput, input: [UInt8], options: InspectionOptions)
        -> Inspection
    {
        let reader = kinds.first { $0.kind == classified.kind } ?? ReceiptInspection.self
        return Inspection(reader.inspect(classified, input: input, options: options))
    }

    /// What the report says of the input: the input's own size and digest when the document read is only part of
    /// it (found in pasted text), else what the reader said (`read`), in the form the reader found.
    static func summary(
        of input: [UInt8], read classified: ClassifiedInput, as read: InputSummary,
        options: InspectionOptions
    ) -> InputSummary {
        guard classified.bytes.count != input.count || classified.offset != 0 else { return read }
        return InputSummary(of: input, format: read.format, digested: options.digestsInput)
    }
}
