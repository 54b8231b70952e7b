import ReceiptASN1

/// A BER/DER buffer as a tree a mutator can edit and write again with every length recomputed: each element keeps its
/// identifier octets and its length's form (short, long with so many octets, indefinite) as read, so an element no
/// edit touched is written as it was. An OCTET STRING whose content reads as elements (an attribute's value, a
/// type-17 record's SET, SignedData's eContent) holds them as children, so edits reach the payload inside the
/// container. Bounded: at most `maximumNodes` elements and `maximumEncapsulation` levels of OCTET STRINGs read
/// inside one another; what does not read as BER is no tree (nil), left to byte mutation.
struct ASN1EditTree: Sendable {
    /// How an element's length is written.
    enum LengthForm: Sendable, Hashable {
        /// Short form below 128, else the fewest long-form octets.
        case minimal
        /// Long form with this many octets (1...4), or the fewest that hold the length when more are needed.
        case long(Int)
        /// `0x80`, the content, then `00 00` (BER; constructed elements only, else written minimal).
        case indefinite
    }

    struct Node: Sendable {
        var identifier: [UInt8]
        var lengthForm: LengthForm
        /// Added to the true length when it is written: a length that lies (0 for every element read).
        var lengthDelta = 0
        /// The content octets of an element without children.
        var content: [UInt8] = []
        /// The elements inside, in order; nil for an element whose content is octets.
        var children: [Int]?
        /// The element this one sits in (nil for an outermost one). Edits that graft keep it true.
        var parent: Int?

        var isInteger: Bool { identifier == [0x02] && children == nil }
        var isConstructedTag: Bool { identifier.first.map { $0 & 0x20 != 0 } ?? false }
    }

    static let maximumNodes = 4096
    static let maximumEncapsulation = 3
    /// Deeper than any tree read here can be (64 levels a read, four reads): a guard against a graft cycle.
    static let maximumWriteDepth = 300

    var nodes: [Node] = []
    var roots: [Int] = []

    /// The tree of `bytes`, or nil when they are not one or more BER elements filling the buffer.
    init?(_ bytes: [UInt8]) {
        guard let roots = read(bytes, parent: nil, encapsulation: 0) else { return nil }
        self.roots = roots
    }

    /// Reads `bytes` as elements under `parent`; their indices, or nil (nothing added) when they do not read.
    private mutating func read(_ bytes: [UInt8], parent: Int?, encapsulation: Int) -> [Int]? {
        let budget = Self.maximumNodes - nodes.count
        guard budget > 0, !bytes.isEmpty,
            let tree = try? ASN1Tree.read(bytes, rules: .ber, limits: ASN1Limits(maximumNodes: budget))
        else { return nil }
        let first = nodes.count
        var tops: [Int] = []
        var open: [(index: Int, depth: Int)] = []
        for node in tree.nodes {
            while let last = open.last, last.depth >= node.depth { open.removeLast() }
            let header = Array(bytes[node.offset..<node.contentStart])
            let identifierCount = Self.identifierLength(header)
            let lengthForm: LengthForm
            if node.isIndefiniteLength {
                lengthForm = .indefinite
            } else if identifierCount < header.count, header[identifierCount] & 0x80 != 0 {
                lengthForm = .long(Int(header[identifierCount] & 0x7F))
            } else {
                lengthForm = .minimal
            }
            let index = nodes.count
            let owner = open.last?.index ?? parent
            var element = Node(
                identifier: Array(header.prefix(identifierCount)), lengthForm: lengthForm, parent: owner)
            if node.tag.isConstructed {
                element.children = []
            } else {
                element.content = Array(bytes[node.contentRange])
            }
            nodes.append(element)
            if let holder = open.last?.index {
                nodes[holder].children?.append(index)
            } else {
                tops.append(index)
            }
            if node.tag.isConstructed { open.append((index, node.depth)) }
        }
        // OCTET STRINGs whose content reads as elements hold them (attribute values, records, eContent).
        guard encapsulation < Self.maximumEncapsulation else { return tops }
        for index in first..<nodes.count where nodes[index].identifier == [0x04] && nodes[index].children == nil {
            let content = nodes[index].content
            guard let lead = content.first,
                lead == 0x30 || lead == 0x31 || lead == 0x02 || lead == 0x0C || lead == 0x16,
                let inner = read(content, parent: index, encapsulation: encapsulation + 1)
            else { continue }
            nodes[index].children = inner
            nodes[index].content = []
        }
        return tops
    }

    /// The number of identifier octets at the start of `header` (high-tag-number form included).
    static func identifierLength(_ header: [UInt8]) -> Int {
        guard let first = header.first, first & 0x1F == 0x1F else { return min(1, header.count) }
        var count = 1
        while count < header.count, header[count] & 0x80 != 0 { count += 1 }
        return min(count + 1, header.count)
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
        var out: [UInt8] = []
        for root in roots { write(root, into: &out, depth: 0) }
        return out
    }

    private func write(_ index: Int, into out: inout [UInt8], depth: Int) {
        guard depth < Self.maximumWriteDepth else { return }
        let node = nodes[index]
        var content = node.content
        if let children = node.children {
            content = []
            for child in children { write(child, into: &content, depth: depth + 1) }
        }
        out.append(contentsOf: node.identifier)
        if case .indefinite = node.lengthForm, node.isConstructedTag {
            out.append(0x80)
            out.append(contentsOf: content)
            out.append(contentsOf: [0, 0])
            return
        }
        let (length, overflow) = content.count.addingReportingOverflow(node.lengthDelta)
        out.append(contentsOf: Self.length(overflow ? content.count : max(0, length), form: node.lengthForm))
        out.append(contentsOf: content)
    }

    /// The length octets of `length` in `form`.
    static func length(_ length: Int, form: LengthForm) -> [UInt8] {
        var octets: [UInt8] = []
        var rest = length
        repeat {
            octets.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while rest > 0
        if case .long(let count) = form, count > octets.count, count <= 8 {
            octets.insert(contentsOf: [UInt8](repeating: 0, count: count - octets.count), at: 0)
        } else if length < 0x80, case .long = form {
            // Long form even where short would do: the octets as they are.
        } else if length < 0x80 {
            return [UInt8(length)]
        }
        return [0x80 | UInt8(octets.count)] + octets
    }
}
