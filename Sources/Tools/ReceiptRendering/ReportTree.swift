/// The structure a report shows beside one byte space: nodes over ranges of those bytes, each inside its parent,
/// siblings in byte order. Built once by `ReportDocument`, written compactly for the page, which draws it.
///
/// The page receives the nodes in preorder as five varints each — how many children, the gap between where the node
/// starts and where the previous sibling ended (or its parent's content started), the header's length, the whole
/// length, and the label's index — so a 100 000-record receipt's two million nodes cost about six bytes each, and
/// no value is copied: the page reads values from the bytes, which are embedded once.
struct ReportTree {
    /// 36 bytes a node (a 100 000-record receipt has two million): positions fit 32 bits, as rcpt reads at most
    /// 1 GiB.
    struct Node {
        private var fields: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32)

        init(start: Int, headerLength: Int, end: Int, label: Int, parent: Int) {
            fields = (
                Int32(clamping: start), Int32(clamping: headerLength), Int32(clamping: end), Int32(clamping: label),
                Int32(clamping: parent), 0, -1, -1, -1
            )
        }

        var start: Int { Int(fields.0) }
        var headerLength: Int { Int(fields.1) }
        var end: Int { Int(fields.2) }
        var label: Int {
            get { Int(fields.3) }
            set { fields.3 = Int32(clamping: newValue) }
        }
        var parent: Int { Int(fields.4) }
        var childCount: Int {
            get { Int(fields.5) }
            set { fields.5 = Int32(clamping: newValue) }
        }
        var firstChild: Int {
            get { Int(fields.6) }
            set { fields.6 = Int32(clamping: newValue) }
        }
        var lastChild: Int {
            get { Int(fields.7) }
            set { fields.7 = Int32(clamping: newValue) }
        }
        var nextSibling: Int {
            get { Int(fields.8) }
            set { fields.8 = Int32(clamping: newValue) }
        }
    }

    /// Node 0 is the space itself, the root every other node hangs from; it is never written.
    private(set) var nodes: [Node]

    init(size: Int) {
        nodes = [Node(start: 0, headerLength: 0, end: size, label: 0, parent: -1)]
    }

    static let root = 0

    var count: Int { nodes.count - 1 }

    /// Appends a node as the last child of `parent`. Ranges are clamped into the parent, so a hostile length never
    /// draws outside what holds it.
    @discardableResult
    mutating func add(under parent: Int, start: Int, headerLength: Int = 0, end: Int, label: Int) -> Int {
        let outer = nodes[parent]
        let clampedStart = min(max(start, outer.start), outer.end)
        let clampedEnd = min(max(end, clampedStart), outer.end)
        let header = min(max(headerLength, 0), clampedEnd - clampedStart)
        let id = nodes.count
        nodes.append(Node(start: clampedStart, headerLength: header, end: clampedEnd, label: label, parent: parent))
        if nodes[parent].lastChild >= 0 {
            nodes[nodes[parent].lastChild].nextSibling = id
        } else {
            nodes[parent].firstChild = id
        }
        nodes[parent].lastChild = id
        nodes[parent].childCount += 1
        return id
    }

    /// The nodes from the root down to the innermost one whose range holds `range`: where a node found by its
    /// position (a token in a JSON string) hangs is the last.
    func path(holding range: Range<Int>) -> [Int] {
        var path = [ReportTree.root]
        var child = nodes[ReportTree.root].firstChild
        while child >= 0 {
            let node = nodes[child]
            if node.start <= range.lowerBound && range.upperBound <= node.end && node.end > node.start {
                path.append(child)
                child = node.firstChild
            } else {
                child = node.nextSibling
            }
        }
        return path
    }

    /// The outermost node that spans exactly `range`, when there is one.
    func node(spanning range: Range<Int>) -> Int? {
        path(holding: range).dropFirst().first {
            nodes[$0].start == range.lowerBound && nodes[$0].end == range.upperBound
        }
    }

    /// The outermost node that starts at `offset` (inside `range`, when given).
    func node(startingAt offset: Int, within range: Range<Int>? = nil) -> Int? {
        path(holding: offset..<(offset + 1)).dropFirst().first { node in
            nodes[node].start == offset && nodes[node].end <= (range?.upperBound ?? Int.max)
        }
    }

    mutating func relabel(_ node: Int, _ label: Int) { nodes[node].label = label }

    /// The nodes in preorder, five integers each (see the type's comment) as unsigned LEB128 varints (the gap
    /// zigzag-encoded, as it can be negative where a hostile length overlaps), without recursion.
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(nodes.count * 6)
        func varint(_ value: Int) {
            var rest = UInt64(bitPattern: Int64(value))
            while rest >= 0x80 {
                out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            out.append(UInt8(rest))
        }
        var cursor = [Int32](repeating: 0, count: nodes.count)
        var id = nodes[ReportTree.root].firstChild
        while id >= 0 {
            let node = nodes[id]
            let gap = node.start - Int(cursor[node.parent])
            varint(node.childCount)
            varint(gap >= 0 ? gap << 1 : ((-gap) << 1) - 1)
            varint(node.headerLength)
            varint(node.end - node.start)
            varint(node.label)
            cursor[node.parent] = Int32(clamping: node.end)
            if node.firstChild >= 0 {
                cursor[id] = Int32(clamping: node.start + node.headerLength)
                id = node.firstChild
                continue
            }
            var up = id
            while up != ReportTree.root && nodes[up].nextSibling < 0 { up = nodes[up].parent }
            id = up == ReportTree.root ? -1 : nodes[up].nextSibling
        }
        return out
    }
}
