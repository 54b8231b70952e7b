import ReceiptModel
import ReceiptPKCS7

/// Compares the SignedData around the content: content types, version, digest algorithms, CRLs, trailing bytes,
/// and (encoding-level) how many elements use BER-only encodings.
enum ContainerComparison {
    /// The container fields in the order `rcpt dump` shows them, then the encoding counts.
    static func compare(
        _ a: Receipt?, _ b: Receipt?, factsA: EncodingFacts, factsB: EncodingFacts,
        into sink: inout ChangeSink
    ) {
        let root = DiffPath("container")
        let left = a?.signedData ?? SignedData()
        let right = b?.signedData ?? SignedData()
        func field(_ name: String, _ old: DiffValue?, _ new: DiffValue?, _ offsetA: Int?, _ offsetB: Int?) {
            sink.compare(root.appending(name), .container, old, new, offsetA: offsetA, offsetB: offsetB)
        }
        field(
            "contentType", .word(left.contentType.map(ObjectIdentifierNames.name(for:))),
            .word(right.contentType.map(ObjectIdentifierNames.name(for:))),
            left.contentType == nil ? nil : 0, right.contentType == nil ? nil : 0)
        field("version", .number(left.version), .number(right.version), left.offset, right.offset)
        field(
            "digestAlgorithms", algorithms(left), algorithms(right),
            left.digestAlgorithms.first?.offset ?? left.offset, right.digestAlgorithms.first?.offset ?? right.offset)
        let contentA = left.encapsulatedContent
        let contentB = right.encapsulatedContent
        field(
            "encapsulatedContentType", .word(contentA.map { ObjectIdentifierNames.name(for: $0.contentType) }),
            .word(contentB.map { ObjectIdentifierNames.name(for: $0.contentType) }), contentA?.offset,
            contentB?.offset)
        field(
            "detached", contentA.map { .bool($0.isDetached) }, contentB.map { .bool($0.isDetached) },
            contentA?.offset, contentB?.offset)
        field(
            "crlCount", .number(Int64(left.crls.count)), .number(Int64(right.crls.count)), left.offset,
            right.offset)
        field(
            "trailingBytes", trailing(a), trailing(b), left.trailingBytes?.lowerBound,
            right.trailingBytes?.lowerBound)
        EncodingFacts.compare(factsA.container, factsB.container, root: root, layer: .container, into: &sink)
    }

    /// The digest algorithms' names, when the SignedData was read.
    static func algorithms(_ signedData: SignedData) -> DiffValue? {
        guard signedData.offset != nil else { return nil }
        return .list(signedData.digestAlgorithms.map { .word($0.name) })
    }

    /// The bytes after the ContentInfo, if any.
    static func trailing(_ receipt: Receipt?) -> DiffValue? {
        guard let receipt, let range = receipt.signedData.trailingBytes, range.upperBound <= receipt.bytes.count
        else { return nil }
        return .bytes(receipt.bytes[range])
    }
}
