import ReceiptBuilding

/// Edits of a BER/DER buffer's structure and values, for fuzzing the receipt readers: the buffer read as a tree
/// (`ASN1EditTree`: OCTET STRINGs holding elements opened, so an attribute's value or a record inside the
/// container is reached), one element edited, every length written again. What byte mutation rarely makes: an
/// INTEGER set to a number the reader's code compares with (a dictionary's numbers) or an edge (zero, sign
/// boundaries, 2^31, 2^53, 2^63), written minimally or not; a length re-written in long form with 1–4 octets or
/// indefinite; a leaf's content through libFuzzer's own mutator with its length kept true, or a dictionary word; a
/// tag swapped; an element removed, repeated, moved or replaced by another (one of the other input's, for
/// crossover); a length that lies. Input that does not read as BER is left to byte mutation (nil).
public struct ASN1StructureMutator: Sendable {
    private var random: SplitMix64
    /// Numbers the code compares with (a libFuzzer dictionary's numeric words), drawn as INTEGER values.
    public var numbers: [Int64] = []
    /// The numbers it compares 64-bit integers with (`int64_` words of `scripts/fuzz-words.py`: what an INTEGER read
    /// from the input is compared with, where a byte of an encoding is not): drawn first when there are any.
    public var integers: [Int64] = []
    /// Words the code compares with, drawn as a leaf's content.
    public var texts: [[UInt8]] = []
    /// A leaf's content through a byte mutator (libFuzzer's, in a harness); when nil, one byte is flipped.
    public var mutateBytes: (@Sendable ([UInt8]) -> [UInt8])?

    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// A libFuzzer dictionary's words as the mutator draws them: numbers, numbers compared as 64-bit integers, and
    /// the other printable words.
    public struct Words: Sendable {
        public var numbers: [Int64] = []
        public var integers: [Int64] = []
        public var texts: [[UInt8]] = []
    }

    /// The words of a libFuzzer dictionary.
    public static func words(_ entries: [LibFuzzerDictionary.Entry]) -> Words {
        var words = Words()
        for entry in entries where !entry.word.isEmpty && entry.word.count <= 64 {
            if let number = Int64(String(decoding: entry.word, as: UTF8.self)) {
                words.numbers.append(number)
                if entry.name.hasPrefix("int64_") { words.integers.append(number) }
            } else if entry.word.allSatisfy({ (0x20..<0x7F).contains($0) }) {
                words.texts.append(entry.word)
            }
        }
        return words
    }

    /// The mutator drawing from `words`.
    public mutating func use(_ words: Words) {
        numbers = words.numbers
        integers = words.integers
        texts = words.texts
    }

    /// Values at the edges integer readers have.
    static let edges: [Int64] = [
        0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 32767, 32768, 65535, 65536, Int64(Int32.max),
        Int64(Int32.max) + 1, Int64(UInt32.max), 1 << 53, (1 << 53) + 1, Int64.max, Int64.min,
    ]

    /// Identifiers a tag is swapped for: every universal type a receipt holds, both forms of the structured ones,
    /// context tags, end-of-contents and a high-tag-number spelling of INTEGER.
    static let identifiers: [[UInt8]] = [
        [0x01], [0x02], [0x03], [0x04], [0x05], [0x06], [0x0C], [0x13], [0x16], [0x17], [0x18], [0x30], [0x31],
        [0x24], [0x2C], [0xA0], [0xA1], [0x80], [0x00], [0x1F, 0x02], [0x10], [0x11],
    ]

    /// `input` with one edit, or nil when it does not read as BER.
    public mutating func mutate(_ input: [UInt8]) -> [UInt8]? {
        guard var tree = ASN1EditTree(input), !tree.nodes.isEmpty else { return nil }
        // INTEGERs carry a receipt's meaning (types, quantities, versions): half the edits.
        switch below(20) {
        case 0..<10: setInteger(&tree)
        case 10, 11: setLengthForm(&tree)
        case 12, 13, 14: editContent(&tree)
        case 15: setIdentifier(&tree)
        case 16, 17: removeOrRepeat(&tree)
        case 18: graft(&tree, targets: tree.nodes.indices, sources: tree.nodes.indices)
        default: lieAboutLength(&tree)
        }
        return tree.encoded()
    }

    /// An element of `first` replaced by one of `second` (with what it holds); nil when either is not BER.
    public mutating func crossover(_ first: [UInt8], _ second: [UInt8]) -> [UInt8]? {
        guard var tree = ASN1EditTree(first), let other = ASN1EditTree(second), !other.nodes.isEmpty else {
            return nil
        }
        let offset = tree.nodes.count
        for index in other.nodes.indices {
            var node = other.detached(index)
            node.children = node.children?.map { $0 + offset }
            node.parent = node.parent.map { $0 + offset }
            tree.nodes.append(node)
        }
        graft(&tree, targets: 0..<offset, sources: offset..<tree.nodes.count)
        return tree.encoded()
    }

    // MARK: - Edits

    /// An INTEGER set to a compared number (one time in four its neighbour: a range's bound compared with `<=` is
    /// crossed one past it), an edge, or its own neighbour; one time in eight written with a redundant leading octet
    /// or as nine octets. Three times in four the INTEGER is an attribute's value, its type drawn first (so a quantity
    /// is as likely as any other type, however many records hold one).
    private mutating func setInteger(_ tree: inout ASN1EditTree) {
        var chosen: Int?
        if below(4) != 0 {
            let groups = Self.valuesByType(tree)
            if !groups.isEmpty {
                let group = groups[below(groups.count)]
                chosen = group[below(group.count)]
            }
        }
        if chosen == nil { chosen = pick(tree.nodes.indices.filter { tree.isInteger($0) }) }
        guard let index = chosen else { return editContent(&tree) }
        let current = Self.integerValue(tree.content(index))
        let compared = !integers.isEmpty && below(4) != 0 ? integers : numbers
        let value: Int64
        switch below(10) {
        case 0..<5 where !compared.isEmpty:
            let word = compared[below(compared.count)]
            switch below(8) {
            case 0: value = word &+ 1
            case 1: value = word &- 1
            default: value = word
            }
        case 0..<8: value = Self.edges[below(Self.edges.count)]
        default: value = below(2) == 0 ? current &+ 1 : current &- 1
        }
        var octets = Self.integerOctets(value)
        switch below(8) {
        case 0: octets.insert(value < 0 ? 0xFF : 0x00, at: 0)
        case 1: octets = [0x01] + [UInt8](repeating: 0, count: 8)
        default: break
        }
        tree.nodes[index].contentOverride = octets
    }

    /// The INTEGERs inside attributes' OCTET STRINGs (`SEQUENCE { INTEGER type, …, OCTET STRING { INTEGER } }`),
    /// grouped by the attribute's type, in the order the types first appear.
    static func valuesByType(_ tree: ASN1EditTree) -> [[Int]] {
        var groups: [[Int]] = []
        var position: [ArraySlice<UInt8>: Int] = [:]
        for index in tree.nodes.indices where tree.isInteger(index) {
            guard let holder = tree.nodes[index].parent, tree.isOctetString(holder),
                let attribute = tree.nodes[holder].parent, let type = tree.nodes[attribute].children?.first,
                type != holder, tree.isInteger(type)
            else { continue }
            let key = tree.content(type)
            if let slot = position[key] {
                groups[slot].append(index)
            } else {
                position[key] = groups.count
                groups.append([index])
            }
        }
        return groups
    }

    /// An element's length written minimally, in long form with 1–4 octets, or (constructed) indefinite.
    private mutating func setLengthForm(_ tree: inout ASN1EditTree) {
        guard let index = pick(Array(tree.nodes.indices)) else { return }
        switch below(6) {
        case 0: tree.nodes[index].lengthForm = .minimal
        case 1 where tree.isConstructedTag(index): tree.nodes[index].lengthForm = .indefinite
        default: tree.nodes[index].lengthForm = .long(octets: 1 + below(4))
        }
    }

    /// A leaf's content through the byte mutator, or a dictionary word, its length kept true.
    private mutating func editContent(_ tree: inout ASN1EditTree) {
        guard let index = pick(tree.nodes.indices.filter { tree.nodes[$0].children == nil }) else { return }
        var content = Array(tree.content(index))
        if !texts.isEmpty, below(3) == 0 {
            content = texts[below(texts.count)]
        } else if let mutateBytes {
            content = mutateBytes(content)
        } else if !content.isEmpty {
            content[below(content.count)] ^= UInt8(truncatingIfNeeded: 1 << below(8))
        }
        tree.nodes[index].contentOverride = content
    }

    private mutating func setIdentifier(_ tree: inout ASN1EditTree) {
        guard let index = pick(Array(tree.nodes.indices)) else { return }
        tree.nodes[index].identifierOverride = Self.identifiers[below(Self.identifiers.count)]
    }

    /// An element removed (never the last outermost one), or repeated beside itself, or swapped with a sibling.
    private mutating func removeOrRepeat(_ tree: inout ASN1EditTree) {
        guard let index = pick(Array(tree.nodes.indices)) else { return }
        var list = tree.siblings(of: index)
        guard let place = list.firstIndex(of: index) else { return }
        switch below(3) {
        case 0 where list.count > 1 || tree.nodes[index].parent != nil: list.remove(at: place)
        case 1 where list.count > 1: list.swapAt(place, below(list.count))
        default: list.insert(index, at: place)
        }
        tree.setSiblings(of: index, list)
    }

    /// An element of `targets` replaced by one of `sources` (never by one that holds it: no cycle).
    private mutating func graft(_ tree: inout ASN1EditTree, targets: Range<Int>, sources: Range<Int>) {
        guard let target = pick(Array(targets)), let source = pick(Array(sources)),
            !tree.isAncestor(source, of: target)
        else { return }
        var list = tree.siblings(of: target)
        guard let place = list.firstIndex(of: target) else { return }
        list[place] = source
        tree.setSiblings(of: target, list)
        tree.nodes[source].parent = tree.nodes[target].parent
    }

    /// An element's length off by a little or a lot from its content.
    private mutating func lieAboutLength(_ tree: inout ASN1EditTree) {
        guard let index = pick(Array(tree.nodes.indices)) else { return }
        let deltas = [-1, 1, -2, 2, 127, 128, 0x7FFF_FFFF, -0x7FFF_FFFF]
        tree.nodes[index].lengthDelta = deltas[below(deltas.count)]
    }

    // MARK: - Numbers

    /// The value of an INTEGER's content octets (two's complement; the low 64 bits of a longer one).
    static func integerValue(_ octets: ArraySlice<UInt8>) -> Int64 {
        guard let first = octets.first else { return 0 }
        var value: Int64 = first & 0x80 != 0 ? -1 : 0
        for octet in octets { value = (value << 8) | Int64(octet) }
        return value
    }

    /// The fewest two's complement octets of `value`.
    static func integerOctets(_ value: Int64) -> [UInt8] {
        var octets = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        while octets.count > 1,
            (octets[0] == 0x00 && octets[1] & 0x80 == 0) || (octets[0] == 0xFF && octets[1] & 0x80 != 0)
        {
            octets.removeFirst()
        }
        return octets
    }

    private mutating func below(_ bound: Int) -> Int { bound > 0 ? Int(random.next() % UInt64(bound)) : 0 }

    private mutating func pick(_ candidates: [Int]) -> Int? {
        candidates.isEmpty ? nil : candidates[below(candidates.count)]
    }
}
