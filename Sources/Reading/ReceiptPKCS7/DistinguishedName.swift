import ReceiptASN1

/// Renders an X.501 `Name` (`SEQUENCE OF SET OF AttributeTypeAndValue`) as one RFC 2253-style line, last RDN first,
/// the way OpenSSL prints `XN_FLAG_RFC2253`, so signer identifiers line up with certificate subjects.
package enum DistinguishedName {
    /// The name whose whole encoding is `range` of `bytes`, or nil when it is not a well-formed Name.
    package static func render(_ bytes: [UInt8], _ range: Range<Int>, limits: ASN1Limits = .default) -> String? {
        var reader = ASN1Reader(bytes, limits: limits)
        do {
            let name = try reader.readSingle(in: range, depth: 0)
            guard name.tag == .sequence else { return nil }
            var relativeNames: [String] = []
            var rdnCursor = reader.children(of: name)
            while let rdn = try reader.next(&rdnCursor) {
                guard rdn.tag == .set else { return nil }
                var parts: [String] = []
                var attributeCursor = reader.children(of: rdn)
                while let attribute = try reader.next(&attributeCursor) {
                    guard attribute.tag == .sequence else { return nil }
                    let pair = try reader.allChildren(of: attribute)
                    guard pair.count == 2, pair[0].tag == .objectIdentifier,
                        let oid = ASN1Primitives.objectIdentifier(bytes, pair[0].contentRange)
                    else { return nil }
                    parts.append("\(ObjectIdentifierNames.name(for: oid))=\(value(bytes, pair[1]))")
                }
                relativeNames.append(parts.joined(separator: "+"))
            }
            return relativeNames.reversed().joined(separator: ",")
        } catch {
            return nil
        }
    }

    private static func value(_ bytes: [UInt8], _ node: ASN1Node) -> String {
        if !node.tag.isConstructed, node.tag.tagClass == .universal {
            switch node.tag.number {
            case 12, 19, 22, 20, 26:
                if let text = ASN1Primitives.utf8String(bytes, node.contentRange) { return escape(text) }
            default:
                break
            }
        }
        return "#" + ASN1Primitives.hex(bytes, node.encodingRange)
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for (index, character) in text.enumerated() {
            if ",+\"\\<>;=".contains(character) || (index == 0 && (character == "#" || character == " ")) {
                out.append("\\")
            }
            out.append(character)
        }
        if out.hasSuffix(" ") {
            out.removeLast()
            out += "\\ "
        }
        return out
    }
}
