import ReceiptASN1

/// Finds and edits elements of a definite-length DER/BER tree by a path of child indexes from the outermost
/// element (`[1, 0, 2]`: its second child's first child's third child), independently of the CMS reader, so
/// tests can say where a finding must point and splice unsigned additions into genuine receipts.
package enum DERPath {
    /// The element at `path`, if the tree has one there.
    package static func node(_ bytes: [UInt8], _ path: [Int]) -> ASN1Node? {
        var reader = ASN1Reader(bytes)
        let root = try? reader.readNode(at: 0, limit: bytes.count, depth: 0)
        return walk(&reader, from: root, path)
    }

    private static func walk(_ reader: inout ASN1Reader, from start: ASN1Node?, _ path: [Int]) -> ASN1Node? {
        guard var node = start else { return nil }
        for index in path {
            var cursor = reader.children(of: node)
            var child: ASN1Node?
            for _ in 0...index { child = try? reader.next(&cursor) }
            guard let found = child else { return nil }
            node = found
        }
        return node
    }

    /// The offset of the element at `path`.
    package static func offset(_ bytes: [UInt8], _ path: [Int]) -> Int? { node(bytes, path)?.offset }

    /// `bytes` with `element` appended as the last child of the (definite-length, constructed) element at
    /// `parentPath`, every enclosing length rewritten in DER. Nothing else changes, so a signature over content
    /// elsewhere stays valid.
    package static func appending(_ element: [UInt8], to bytes: [UInt8], under parentPath: [Int]) -> [UInt8]? {
        var reader = ASN1Reader(bytes)
        guard let root = try? reader.readNode(at: 0, limit: bytes.count, depth: 0) else { return nil }
        var chain = [root]
        for index in parentPath {
            guard let next = walk(&reader, from: chain[chain.count - 1], [index]) else { return nil }
            chain.append(next)
        }
        // Rebuild from the innermost parent outwards.
        guard let parent = chain.last, !parent.isIndefiniteLength else { return nil }
        var encoding =
            header(bytes, parent, contentLength: parent.contentLength + element.count)
            + bytes[parent.contentRange] + element
        var inner = parent
        for ancestor in chain.dropLast().reversed() {
            guard !ancestor.isIndefiniteLength else { return nil }
            let before = bytes[ancestor.contentStart..<inner.offset]
            let after = bytes[inner.end..<ancestor.contentEnd]
            let content = Array(before) + encoding + Array(after)
            encoding = header(bytes, ancestor, contentLength: content.count) + content
            inner = ancestor
        }
        return encoding + Array(bytes[root.end...])
    }

    /// The node's tag octets followed by a DER length.
    private static func header(_ bytes: [UInt8], _ node: ASN1Node, contentLength: Int) -> [UInt8] {
        let tagLength = node.headerLength - lengthOctets(bytes, node)
        return Array(bytes[node.offset..<node.offset + tagLength]) + derLength(contentLength)
    }

    /// A DER length: one octet below 128, else 0x80 | N and N big-endian octets.
    package static func derLength(_ length: Int) -> [UInt8] {
        guard length >= 0x80 else { return [UInt8(length)] }
        var octets: [UInt8] = []
        var rest = length
        while rest > 0 {
            octets.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(octets.count)] + octets
    }

    private static func lengthOctets(_ bytes: [UInt8], _ node: ASN1Node) -> Int {
        // The length octets are the last ones of the header: one, or 1 + N in the long form.
        var tagLength = 1
        if bytes[node.offset] & 0x1F == 0x1F {
            while node.offset + tagLength < bytes.count, bytes[node.offset + tagLength] & 0x80 != 0 { tagLength += 1 }
            tagLength += 1
        }
        return node.headerLength - tagLength
    }
}
