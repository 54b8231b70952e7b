import ReceiptASN1

/// Rewrites the headers of a well-formed encoding in other legal (or deliberately illegal) forms while keeping
/// every primitive content byte: indefinite lengths, non-minimal lengths, chunked strings. Used on the test CA's own
/// output, whose depth is small; the recursion is bounded by `ASN1Limits.default.maximumDepth`.
package enum ASN1Reencoder {
    /// What to do with one element.
    package struct Plan {
        var length: ASN1LengthForm = .minimal
        /// Rewrite the children too (false copies the content as it is).
        var descend = true
        /// For a primitive OCTET STRING: split the content into constructed segments of this size.
        var chunkSize: Int?
        /// Nest each segment this many constructed levels deep.
        var chunkNesting = 0
    }

    /// `bytes` rewritten element by element as `plan` says; nil when they are not well-formed BER.
    package static func rewrite(_ bytes: [UInt8], plan: (ASN1Node, _ ancestors: [ASN1Tag]) -> Plan) -> [UInt8]? {
        var reader = ASN1Reader(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var cursor = reader.elements(in: 0..<bytes.count, depth: 0)
        do {
            while let node = try reader.next(&cursor) {
                try write(node, ancestors: [], reader: &reader, plan: plan, into: &out)
            }
        } catch {
            return nil
        }
        return out
    }

    private static func write(
        _ node: ASN1Node, ancestors: [ASN1Tag], reader: inout ASN1Reader,
        plan: (ASN1Node, [ASN1Tag]) -> Plan, into out: inout [UInt8]
    ) throws(ASN1Error) {
        let bytes = reader.bytes
        let choice = plan(node, ancestors)
        let identifier = Array(bytes[node.offset..<(node.offset + identifierLength(bytes, at: node.offset))])
        if !node.tag.isConstructed, let chunk = choice.chunkSize, chunk > 0, node.tag == .octetString {
            out += [identifier[0] | 0x20, 0x80]
            var start = node.contentStart
            while start < node.contentEnd {
                let end = min(start + chunk, node.contentEnd)
                for _ in 0..<choice.chunkNesting { out += [0x24, 0x80] }
                out += [0x04] + ASN1Writer.lengthOctets(end - start) + bytes[start..<end]
                for _ in 0..<choice.chunkNesting { out += [0x00, 0x00] }
                start = end
            }
            out += [0x00, 0x00]
            return
        }
        var content: [UInt8]
        if node.tag.isConstructed && choice.descend {
            content = []
            var children = reader.children(of: node)
            while let child = try reader.next(&children) {
                try write(child, ancestors: ancestors + [node.tag], reader: &reader, plan: plan, into: &content)
            }
        } else {
            content = Array(bytes[node.contentRange])
        }
        out += identifier
        out += choice.length.octets(for: content.count, constructed: node.tag.isConstructed)
        out += content
        if choice.length.isIndefinite(constructed: node.tag.isConstructed) { out += [0x00, 0x00] }
    }

    /// The number of identifier octets at `offset`.
    static func identifierLength(_ bytes: [UInt8], at offset: Int) -> Int {
        guard offset < bytes.count, bytes[offset] & 0x1F == 0x1F else { return 1 }
        var index = offset + 1
        while index < bytes.count, bytes[index] & 0x80 != 0 { index += 1 }
        return index - offset + 1
    }
}
