import ReceiptDiagnostics

/// Every element of a buffer, in document order, read without recursion: the full structure view behind
/// structure dumps and the round-trip law `ASN1Tree.read(x).write() == x`.
public struct ASN1Tree: Sendable {
    /// Elements in document order; a node's descendants follow it directly, with greater depth.
    public private(set) var nodes: [ASN1Node]
    /// The buffer the nodes index into.
    public let bytes: [UInt8]

    /// Reads every element of `bytes`: one or more outermost elements that together fill the buffer exactly.
    public static func read(_ bytes: [UInt8], rules: ASN1Rules = .ber, limits: ASN1Limits = .default)
        throws(ASN1Error) -> ASN1Tree
    {
        if bytes.isEmpty {
            throw ASN1Error(.asn1TruncatedHeader, at: 0, "the input is empty")
        }
        var nodes: [ASN1Node] = []
        // The buffer is borrowed once for the whole walk, not once per element.
        try bytes.withUnsafeBufferPointer { (buffer) throws(ASN1Error) in
            var reader = ASN1BufferReader(buffer, state: ASN1ReadState(rules: rules, limits: limits))
            var stack: [ASN1Cursor] = [ASN1Cursor(position: 0, end: buffer.count, depth: 0)]
            while var cursor = stack.popLast() {
                guard let node = try reader.next(&cursor) else { continue }
                stack.append(cursor)
                nodes.append(node)
                if node.tag.isConstructed {
                    stack.append(reader.children(of: node))
                }
            }
        }
        return ASN1Tree(nodes: nodes, bytes: bytes)
    }

    /// Re-emits the structure from its nodes: each header as it was read, primitive contents, and an
    /// end-of-contents marker after each indefinite-length element's last child.
    public func write() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var openIndefinite: [Int] = []  // depths of indefinite elements still open
        for node in nodes {
            while let depth = openIndefinite.last, depth >= node.depth {
                out.append(contentsOf: [0, 0])
                openIndefinite.removeLast()
            }
            out.append(contentsOf: bytes[node.headerRange])
            if node.tag.isConstructed {
                if node.isIndefiniteLength { openIndefinite.append(node.depth) }
            } else {
                out.append(contentsOf: bytes[node.contentRange])
            }
        }
        while !openIndefinite.isEmpty {
            out.append(contentsOf: [0, 0])
            openIndefinite.removeLast()
        }
        return out
    }
}
