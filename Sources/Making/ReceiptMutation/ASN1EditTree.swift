import ReceiptASN1

/// A BER/DER buffer as a tree a mutator can edit and write again with every length recomputed: each element keeps its
/// identifier octets and its length's form (short, long with so many octets, indefinite) as read, so an element no
/// edit touched is written as it was. An OCTET STRING whose content reads as elements (an attribute's value, a
/// type-17 record's SET, SignedData's eContent) holds them as children, so edits reach the payload inside the
/// container. Bounded: at most `maximumNodes` elements and `maximumEncapsulation` levels of OCTET STRINGs read
/// inside one another; what does not read as BER is no tree (nil), left to byte mutation.
struct ASN1EditTree: Sendable {
    struct Node: Sendable {
        /// Where the identifier and the content octets of an element without children lie in `source`, until an
        /// edit gives them octets of their own.
        var identifierRange: Range<Int>
        var contentRange: Range<Int>
        var identifierOverride: [UInt8]?
        var contentOverride: [UInt8]?
        var lengthForm: ASN1LengthForm
        /// Added to the true length when it is written: a length that lies (0 for every element read).
        var lengthDelta = 0
        /// The elements inside, in order; nil for an element whose content is octets.
        var children: [Int]?
        /// The element this one sits in (nil for an outermost one). Edits that graft keep it true.
        var parent: Int?
    }

    static let maximumNodes = 4096
    static let maximumEncapsulation = 3
    /// Deeper than any tree read here can be (64 levels a read, four reads): a guard against a graft cycle.
    static let maximumWriteDepth = 300

    /// The buffer the tree was read from.
    let source: [UInt8]
    var nodes: [Node] = []
    var roots: [Int] = []

    /// The tree of `bytes`, or nil when they are not one or more BER elements filling the buffer.
    init?(_ bytes: [UInt8]) {
        source = bytes
        guard !bytes.isEmpty else { return nil }
        var roots: [Int]?
        bytes.withUnsafeBufferPointer { buffer in
            roots = read(buffer, 0..<buffer.count, parent: nil, encapsulation: 0)
        }
        guard let roots else { return nil }
        self.roots = roots
    }

    /// Reads `range` of `buffer` as elements under `parent`: their indices, or nil (nothing added) when the range
    /// does not read as BER elements that fill it.
    private mutating func read(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, parent: Int?, encapsulation: Int
    ) -> [Int]? {
        let first = nodes.count
        let budget = Self.maximumNodes - first
        guard budget > 0, !range.isEmpty else { return nil }
        var reader = ASN1BufferReader(
            buffer, state: ASN1ReadState(rules: .ber, limits: ASN1Limits(maximumNodes: budget)))
        var tops: [Int] = []
        var stack: [(cursor: ASN1Cursor, owner: Int?)] = [
            (ASN1Cursor(position: range.lowerBound, end: range.upperBound, depth: 0), nil)
        ]
        do {
            while var top = stack.popLast() {
                guard let node = try reader.next(&top.cursor) else { continue }
                stack.append(top)
                let index = nodes.count
                nodes.append(element(node, buffer, parent: top.owner ?? parent))
                if let owner = top.owner {
                    nodes[owner].children?.append(index)
                } else {
                    tops.append(index)
                }
                if node.tag.isConstructed { stack.append((reader.children(of: node), index)) }
            }
        } catch {
            nodes.removeSubrange(first...)
            return nil
        }
        // OCTET STRINGs whose content reads as elements hold them (attribute values, records, eContent).
        guard encapsulation < Self.maximumEncapsulation else { return tops }
        for index in first..<nodes.count where nodes[index].children == nil && isOctetString(index) {
            let content = nodes[index].contentRange
            guard let lead = content.first.map({ buffer[$0] }), Self.encapsulatedLeads.contains(lead),
                let inner = read(buffer, content, parent: index, encapsulation: encapsulation + 1)
            else { continue }
            nodes[index].children = inner
        }
        return tops
    }

    /// First octets of content that may be elements: SEQUENCE, SET, INTEGER, UTF8String, IA5String.
    static let encapsulatedLeads: Set<UInt8> = [0x30, 0x31, 0x02, 0x0C, 0x16]

    /// The edit tree's element for a node read from `buffer`.
    private func element(_ node: ASN1Node, _ buffer: UnsafeBufferPointer<UInt8>, parent: Int?) -> Node {
        let identifierEnd = min(
            node.offset + ASN1Reencoder.identifierLength(source, at: node.offset), node.contentStart)
        let lengthForm: ASN1LengthForm
        if node.isIndefiniteLength {
            lengthForm = .indefinite
        } else if identifierEnd < node.contentStart, buffer[identifierEnd] & 0x80 != 0 {
            lengthForm = .long(octets: Int(buffer[identifierEnd] & 0x7F))
        } else {
            lengthForm = .minimal
        }
        return Node(
            identifierRange: node.offset..<identifierEnd,
            contentRange: node.tag.isConstructed ? node.contentStart..<node.contentStart : node.contentRange,
            lengthForm: lengthForm, children: node.tag.isConstructed ? [] : nil, parent: parent)
    }

    /// An element's identifier octets.
    func identifier(_ index: Int) -> ArraySlice<UInt8> {
        nodes[index].identifierOverride.map { $0[...] } ?? source[nodes[index].identifierRange]
    }

    /// The content octets of an element without children.
    func content(_ index: Int) -> ArraySlice<UInt8> {
        nodes[index].contentOverride.map { $0[...] } ?? source[nodes[index].contentRange]
    }

    /// Whether the element is a primitive INTEGER (`02`).
    func isInteger(_ index: Int) -> Bool { nodes[index].children == nil && identifier(index).elementsEqual([0x02]) }

    /// Whether the element's identifier is an OCTET STRING's (`04`).
    func isOctetString(_ index: Int) -> Bool { identifier(index).elementsEqual([0x04]) }

    /// Whether the element's identifier says constructed.
    func isConstructedTag(_ index: Int) -> Bool { identifier(index).first.map { $0 & 0x20 != 0 } ?? false }

    /// `index` with its identifier and content as octets of its own, for a tree that does not hold `source`.
    func detached(_ index: Int) -> Node {
        var node = nodes[index]
        node.identifierOverride = Array(identifier(index))
        node.contentOverride = Array(content(index))
        return node
    }

    /// Whether `ancestor` is `index` or holds it.
    func isAncestor(_ ancestor: Int, of index: Int) -> Bool {
        var current: Int? = index
        var steps = 0
        while let node = current, steps <= Self.maximumWriteDepth {
            if node == ancestor { return true }
            current = nodes[node].parent
            steps += 1
        }
        return false
    }

    /// The elements holding `index`, outermost last.
    func siblings(of index: Int) -> [Int] {
        if let parent = nodes[index].parent { return nodes[parent].children ?? [] }
        return roots
    }

    /// Replaces the list `index` sits in (its parent's children, or the roots) with `list`.
    mutating func setSiblings(of index: Int, _ list: [Int]) {
        if let parent = nodes[index].parent {
            nodes[parent].children = list
        } else {
            roots = list
        }
    }

    /// The buffer the tree now stands for.
    func encoded() -> [UInt8] {
        var sizes = [Int](repeating: -1, count: nodes.count)
        var total = 0
        for root in roots { total += size(root, &sizes, depth: 0) }
        var out: [UInt8] = []
        out.reserveCapacity(total)
        for root in roots { write(root, sizes, into: &out, depth: 0) }
        return out
    }

    /// The content length of `index` (its children's encodings, or its octets), memoised in `sizes`.
    private func size(_ index: Int, _ sizes: inout [Int], depth: Int) -> Int {
        guard depth < Self.maximumWriteDepth else { return 0 }
        if sizes[index] < 0 {
            var length = 0
            if let children = nodes[index].children {
                for child in children {
                    let inner = size(child, &sizes, depth: depth + 1)
                    length &+= identifier(child).count &+ headerCount(child, inner) &+ inner &+ trailer(child)
                }
            } else {
                length = content(index).count
            }
            sizes[index] = length
        }
        return sizes[index]
    }

    /// The length octets an element of `contentLength` is written with (`80` for an indefinite one).
    private func header(_ index: Int, _ contentLength: Int) -> [UInt8] {
        nodes[index].lengthForm.octets(for: statedLength(index, contentLength), constructed: isConstructedTag(index))
    }

    /// How many octets `header(index, contentLength)` has.
    private func headerCount(_ index: Int, _ contentLength: Int) -> Int {
        nodes[index].lengthForm.count(for: statedLength(index, contentLength), constructed: isConstructedTag(index))
    }

    /// The length an element's header states: its content's, plus the lie an edit told (never below zero; the true
    /// length when the lie overflows).
    private func statedLength(_ index: Int, _ contentLength: Int) -> Int {
        let (length, overflow) = contentLength.addingReportingOverflow(nodes[index].lengthDelta)
        return overflow ? contentLength : max(0, length)
    }

    /// The end-of-contents octets after an indefinite element's content.
    private func trailer(_ index: Int) -> Int {
        nodes[index].lengthForm.isIndefinite(constructed: isConstructedTag(index)) ? 2 : 0
    }

    private func write(_ index: Int, _ sizes: [Int], into out: inout [UInt8], depth: Int) {
        guard depth < Self.maximumWriteDepth else { return }
        out.append(contentsOf: identifier(index))
        out.append(contentsOf: header(index, max(0, sizes[index])))
        if let children = nodes[index].children {
            for child in children { write(child, sizes, into: &out, depth: depth + 1) }
        } else {
            out.append(contentsOf: content(index))
        }
        if trailer(index) > 0 { out.append(contentsOf: [0, 0]) }
    }

}
