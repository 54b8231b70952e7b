import ReceiptASN1
import ReceiptDiagnostics
import ReceiptPKCS7

/// The rules RFC 5652 sets for a SignerInfo's signed attributes (§5.3, §5.4, §11.1, §11.2): DER-encoded; a
/// contentType attribute with exactly one value, equal to the eContentType; one messageDigest attribute with one
/// value (checked against the content by `SignerVerifier`); no attribute type twice. Validators that take "the
/// first" or "the last" of two copies disagree, so every deviation is an error.
enum SignedAttributeChecks {
    static func check(_ attributes: SignedAttributes, contentType: String, bytes: [UInt8], place: String)
        -> [Finding]
    {
        var findings: [Finding] = []
        if !attributes.isDER {
            findings.append(
                Finding(
                    .signedAttributesNotDer, at: attributes.encoding.lowerBound,
                    "\(place): the signed attributes are not DER (RFC 5652 §5.3 requires it; parsers that re-encode them hash other bytes)"
                ))
        }
        var seen: Set<String> = []
        var reported: Set<String> = []
        for attribute in attributes.attributes where !seen.insert(attribute.oid).inserted {
            guard reported.insert(attribute.oid).inserted else { continue }
            findings.append(
                Finding(
                    .signedAttributeDuplicate, at: attribute.offset,
                    "\(place): signed attribute \(attribute.name) occurs more than once (RFC 5652 §5.3)"))
        }
        for oid in [ObjectIdentifierNames.contentTypeAttribute, ObjectIdentifierNames.messageDigestAttribute] {
            for attribute in attributes.all(oid) where attribute.values.count != 1 {
                findings.append(
                    Finding(
                        .signedAttributeValueCount, at: attribute.offset,
                        "\(place): signed attribute \(attribute.name) has \(attribute.values.count) values, not exactly one (RFC 5652 §11.1, §11.2)"
                    ))
            }
        }
        guard let declared = attributes.first(ObjectIdentifierNames.contentTypeAttribute) else {
            findings.append(
                Finding(
                    .contentTypeAttributeMissing, at: attributes.encoding.lowerBound,
                    "\(place): signed attributes without a contentType attribute (RFC 5652 §5.3 requires one)"))
            return findings
        }
        let values = declared.values.map { value -> String? in
            var reader = ASN1Reader(bytes)
            guard let node = try? reader.readSingle(in: value, depth: 0), node.tag == .objectIdentifier else {
                return nil
            }
            return ASN1Primitives.objectIdentifier(bytes, node.contentRange)
        }
        if let mismatch = values.first(where: { $0 != contentType }) {
            let shown = mismatch.map { ObjectIdentifierNames.name(for: $0) } ?? "not an OBJECT IDENTIFIER"
            findings.append(
                Finding(
                    .contentTypeAttributeMismatch, at: declared.offset,
                    "\(place): the signed contentType attribute says \(shown), the eContentType is \(ObjectIdentifierNames.name(for: contentType))"
                ))
        }
        return findings
    }
}
