import ReceiptASN1
import ReceiptModel
import ReceiptPKCS7
import ReceiptValidation

/// Compares the SignerInfos, matched by position: identifier, algorithms, signed and unsigned attributes, the
/// signature, and which certificate (by fingerprint) the signer uses.
///
/// The signature covers the content, so any change to the receipt's content changes `signers[N].signature`
/// too: it is a real difference and is reported (`--only receipt` or `--ignore signers[*].signature` leave it
/// out).
enum SignerComparison {
    /// One signer's compared fields, with where each is.
    struct Entry {
        var offset: Int
        var fields: [(name: String, value: DiffValue?, offset: Int)]
        var signedAttributes: [CMSAttribute]?
        var unsignedAttributes: [CMSAttribute]?
        var bytes: [UInt8]
    }

    /// The signers of one side, their certificates named by fingerprint.
    static func entries(_ inspection: ReceiptInspection, fingerprints: [String]) -> [Entry] {
        guard let receipt = inspection.receipt else { return [] }
        let bytes = receipt.bytes
        return receipt.signedData.signers.enumerated().map { index, signer in
            var fields: [(name: String, value: DiffValue?, offset: Int)] = [
                (
                    "version", .number(signer.version),
                    signer.offset
                )
            ]
            switch signer.identifier {
            case .issuerAndSerialNumber(let issuer, let serial):
                let name = DistinguishedName.render(bytes, issuer) ?? "(unreadable name) " + hex(bytes, issuer)
                fields.append(("issuer", .word(name), issuer.lowerBound))
                fields.append(("serial", .word(serialHex(bytes, serial)), serial.lowerBound))
            case .subjectKeyIdentifier(let segments):
                fields.append(
                    (
                        "subjectKeyIdentifier", .bytes(ASN1Primitives.joined(segments, in: bytes)),
                        segments.first?.lowerBound ?? signer.offset
                    ))
            }
            fields.append(("digestAlgorithm", .word(signer.digestAlgorithm.name), signer.digestAlgorithm.offset))
            fields.append(
                (
                    "signatureAlgorithm", .word(signer.signatureAlgorithm.name),
                    signer.signatureAlgorithm.offset
                ))
            fields.append(("signature", .bytes(signer.signature(in: bytes)), signer.signatureOffset))
            let verified = inspection.signers.first { $0.signerIndex == index }
            let certificate = verified?.certificateIndex.flatMap { $0 < fingerprints.count ? fingerprints[$0] : nil }
            fields.append(
                (
                    "certificate", verified.map { _ in certificate.map(DiffValue.word) ?? .null },
                    signer.offset
                ))
            return Entry(
                offset: signer.offset, fields: fields, signedAttributes: signer.signedAttributes?.attributes,
                unsignedAttributes: signer.unsignedAttributes, bytes: bytes)
        }
    }

    /// Signers paired by position; extra ones are added or removed.
    static func compare(_ a: [Entry], _ b: [Entry], into sink: inout ChangeSink) {
        for index in 0..<max(a.count, b.count) {
            let path = DiffPath("signers", selector: String(index))
            guard index < a.count else {
                let entry = b[index]
                sink.append(
                    Change(
                        path: path, kind: .added, layer: .signers, old: nil, new: summary(entry),
                        offsetA: nil, offsetB: entry.offset))
                continue
            }
            guard index < b.count else {
                let entry = a[index]
                sink.append(
                    Change(
                        path: path, kind: .removed, layer: .signers, old: summary(entry), new: nil,
                        offsetA: entry.offset, offsetB: nil))
                continue
            }
            compareFields(a[index], b[index], path: path, into: &sink)
        }
    }

    /// Two signers field by field, signed attributes after the signature algorithm as `rcpt dump` shows them.
    static func compareFields(_ a: Entry, _ b: Entry, path: DiffPath, into sink: inout ChangeSink) {
        var emitted: Set<String> = []
        for field in a.fields {
            let other = b.fields.first { $0.name == field.name }
            sink.compare(
                path.appending(field.name), .signers, field.value, other?.value, offsetA: field.offset,
                offsetB: other?.offset ?? b.offset)
            emitted.insert(field.name)
            if field.name == "signatureAlgorithm" {
                compareAttributes(
                    "signedAttributes", a.signedAttributes, b.signedAttributes, a: a, b: b, path: path,
                    into: &sink)
            }
        }
        for field in b.fields where !emitted.contains(field.name) {
            sink.compare(
                path.appending(field.name), .signers, nil, field.value, offsetA: a.offset,
                offsetB: field.offset)
        }
        compareAttributes(
            "unsignedAttributes", a.unsignedAttributes, b.unsignedAttributes, a: a, b: b, path: path,
            into: &sink)
    }

    /// CMS attributes matched by OID and occurrence; a missing set on one side is one added or removed change.
    static func compareAttributes(
        _ name: String, _ left: [CMSAttribute]?, _ right: [CMSAttribute]?, a: Entry,
        b: Entry, path: DiffPath, into sink: inout ChangeSink
    ) {
        let setPath = path.appending(name)
        guard let left, let right else {
            sink.compare(
                setPath, .signers, left.map { fields($0, a.bytes) }, right.map { fields($0, b.bytes) },
                offsetA: left.map { $0.first?.offset ?? a.offset }, offsetB: right.map { $0.first?.offset ?? b.offset })
            return
        }
        let keysA = CertificateComparison.occurrenceKeys(left.map(\.oid))
        let keysB = CertificateComparison.occurrenceKeys(right.map(\.oid))
        let partner = HashJoin.match(keysA.map { Optional($0) }, keysB.map { Optional($0) })
        for (index, attribute) in left.enumerated() {
            let attributePath = path.appending(name, selector: "oid=\(keysA[index])")
            let other = partner[index].map { right[$0] }
            sink.compare(
                attributePath, .signers, values(attribute, a.bytes),
                other.map { values($0, b.bytes) }, offsetA: attribute.offset, offsetB: other?.offset,
                label: attribute.name)
        }
        let matched = Set(partner.compactMap { $0 })
        for (index, attribute) in right.enumerated() where !matched.contains(index) {
            sink.compare(
                path.appending(name, selector: "oid=\(keysB[index])"), .signers, nil,
                values(attribute, b.bytes), offsetA: nil, offsetB: attribute.offset,
                label: attribute.name)
        }
    }

    /// A CMS attribute's values, each as raw bytes.
    static func values(_ attribute: CMSAttribute, _ bytes: [UInt8]) -> DiffValue {
        .list(attribute.values.map { slice(bytes, $0) })
    }

    /// A whole set of CMS attributes, by name.
    static func fields(_ attributes: [CMSAttribute], _ bytes: [UInt8]) -> DiffValue {
        .fields(attributes.map { DiffField(name: $0.name, value: values($0, bytes)) })
    }

    /// A whole signer as an added or removed item shows it.
    static func summary(_ entry: Entry) -> DiffValue {
        .fields(entry.fields.compactMap { field in field.value.map { DiffField(name: field.name, value: $0) } })
    }

    /// The bytes of `range`, or null when the range is not in the buffer.
    static func slice(_ bytes: [UInt8], _ range: Range<Int>) -> DiffValue {
        range.upperBound <= bytes.count ? .bytes(bytes[range]) : .null
    }

    /// The hex of `range`, or empty when the range is not in the buffer.
    static func hex(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        range.upperBound <= bytes.count ? ASN1Primitives.hex(bytes, range) : ""
    }

    /// A serial INTEGER's magnitude in lowercase hex without leading zero octets, as OpenSSL prints it (and so
    /// as the certificate's `serial` shows it).
    static func serialHex(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        guard range.upperBound <= bytes.count else { return "" }
        var content = bytes[range]
        if (content.first ?? 0) >= 0x80 { return "-" + ASN1Primitives.hex(content) }
        while content.count > 1, content.first == 0 { content = content.dropFirst() }
        let text = ASN1Primitives.hex(content)
        return text.isEmpty ? "0" : text
    }
}
