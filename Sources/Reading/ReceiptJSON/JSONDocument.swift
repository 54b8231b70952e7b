import ReceiptASN1
import ReceiptDiagnostics

/// One step of a JSON path: a member's name or an element's index.
public enum JSONPathStep: Sendable, Hashable {
    case member(String)
    case element(Int)

    /// Steps as people write them: `a.b[2]`, and `["a.b"]` for a name that is not only letters, digits and `_`.
    public static func render(_ steps: [JSONPathStep]) -> String {
        steps.reduce("") { $1.appended(to: $0) }
    }

    /// `path` followed by this step.
    public func appended(to path: String) -> String {
        switch self {
        case .element(let index): return path + "[\(index)]"
        case .member(let name):
            let plain =
                !name.isEmpty
                && name.utf8.allSatisfy {
                    (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F
                }
            if !plain { return path + "[\"\(name)\"]" }
            return path.isEmpty ? name : path + "." + name
        }
    }
}

/// Where each node of a document stands: its parent (-1 for the top-level value) and its position among the
/// parent's children.
public struct JSONPathIndex: Sendable {
    public internal(set) var parents: [Int]
    public internal(set) var ordinals: [Int]
}

/// The kind of one JSON value.
public enum JSONKind: UInt8, Sendable, Hashable {
    case object, array, string, number, `true`, `false`, null
}

/// One value of a document, in document order: where its text starts and ends, how deep it is, the member name
/// that introduces it (inside an object), and where its subtree ends in the node list.
public struct JSONNode: Sendable, Hashable {
    public var kind: JSONKind
    /// The offset of the value's first byte (`{`, `[`, `"`, a digit, `-`, `t`, `f` or `n`).
    public var start: Int
    /// The offset just past the value's last byte.
    public var end: Int
    /// 0 for the top-level value.
    package var depth: Int
    /// The member name's text between its quotes, still escaped, for a value inside an object.
    public var keyRange: Range<Int>?
    /// The index of the first node after this one's subtree (its next sibling, or the parent's next).
    public var next: Int
}

/// A name that occurs twice in one object: JSON readers disagree on which copy counts (JavaScript's `JSON.parse`,
/// Python's `json` and Foundation take the last; some streaming readers the first).
public struct JSONDuplicateKey: Sendable, Hashable {
    /// The name, unescaped.
    public var name: String
    /// The node of the first copy's value, and of this later one.
    package var first: Int
    package var duplicate: Int
}

/// A JSON text read once into a flat list of nodes (document order, each with its depth and subtree end), with
/// exact byte offsets, number text kept as written, strings checked and unescaped only on request, and the
/// anomalies other readers hide (duplicate names). The reader never recurses: an explicit stack, bounded by
/// `JSONLimits`, tracks open containers.
public struct JSONDocument: Sendable {
    public let bytes: [UInt8]
    public internal(set) var nodes: [JSONNode] = []
    /// Every name that occurs again in its object, in document order.
    public internal(set) var duplicateKeys: [JSONDuplicateKey] = []
    /// Every name that equals an earlier one of its object but for case (`SignedPayload` or `ſignedPayload` after
    /// `signedPayload`), which readers that match names without regard to case (Go, .NET) take for the same.
    public internal(set) var caseFoldedDuplicateKeys: [JSONDuplicateKey] = []
    /// Whether every member name is plain ASCII without a backslash (nearly every document): a name is then
    /// found by comparing bytes alone.
    package internal(set) var namesArePlain = true

    /// Reads `bytes` as one JSON value (RFC 8259), surrounded by nothing but white space.
    public static func read(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONDocument {
        var document = JSONDocument(bytes: bytes)
        try document.parse(limits: limits)
        return document
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: - Reading the tree

    /// The top-level value.
    public var root: Int { 0 }

    /// The nodes of the values directly inside `node` (an object's member values or an array's elements).
    public func children(of node: Int) -> [Int] {
        guard nodes.indices.contains(node), nodes[node].kind == .object || nodes[node].kind == .array else { return [] }
        var result: [Int] = []
        var child = node + 1
        while child < nodes[node].next {
            result.append(child)
            child = nodes[child].next
        }
        return result
    }

    /// The member name of `node`, unescaped, if it is a value inside an object.
    public func key(_ node: Int) -> String? {
        guard nodes.indices.contains(node), let range = nodes[node].keyRange else { return nil }
        return Self.unescape(bytes, range)
    }

    /// The value of a string node, unescaped.
    public func string(_ node: Int) -> String? {
        guard nodes.indices.contains(node), nodes[node].kind == .string else { return nil }
        return Self.unescape(bytes, nodes[node].start + 1..<nodes[node].end - 1)
    }

    /// The text of `node` exactly as written (a number's digits, `true`, an object with its white space …).
    public func text(_ node: Int) -> String {
        guard nodes.indices.contains(node) else { return "" }
        return String(decoding: bytes[nodes[node].start..<nodes[node].end], as: UTF8.self)
    }

    /// The value of the member `name` of the object `node`: the last copy when the name is duplicated, as
    /// `JSON.parse` and most readers take it (`duplicateKeys` says when that happened).
    public func member(_ name: String, of node: Int) -> Int? {
        guard nodes.indices.contains(node), nodes[node].kind == .object else { return nil }
        var utf8 = name
        return utf8.withUTF8 { wanted in
            // A name of plain ASCII without a backslash equals a key exactly when the key's bytes are the name's
            // and hold no escape: compared in place, without allocating; any other pair is compared unescaped.
            let plainName = !wanted.contains { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }
            var found: Int?
            var child = node + 1
            let end = nodes[node].next
            while child < end {
                if let range = nodes[child].keyRange, keyIs(range, wanted, plainName: plainName, name: name) {
                    found = child
                }
                child = nodes[child].next
            }
            return found
        }
    }

    /// Whether the key at `range` is the name whose UTF-8 is `wanted` (as Swift compares text).
    private func keyIs(_ range: Range<Int>, _ wanted: UnsafeBufferPointer<UInt8>, plainName: Bool, name: String)
        -> Bool
    {
        let key = bytes[range]
        if plainName {
            guard key.count == wanted.count || !namesArePlain else { return false }
            if key.count == wanted.count, key.elementsEqual(wanted) { return true }
            if namesArePlain { return false }
            // Different bytes: different text too, unless the key has an escape or a non-ASCII character.
            if !key.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }) { return false }
        }
        return Self.unescape(bytes, range) == name
    }

    /// Where each node stands in its container: its parent node (-1 for the top-level value) and its position among
    /// the parent's children. Computed in one pass without recursion, 16 bytes a node: the paths of the nodes one
    /// needs are then built from it (`steps(of:in:)`), never all of them at once.
    public func pathIndex() -> JSONPathIndex {
        var index = JSONPathIndex(
            parents: [Int](repeating: -1, count: nodes.count),
            ordinals: [Int](repeating: 0, count: nodes.count))
        // Open containers: (node, how many children seen).
        var stack: [(node: Int, seen: Int)] = []
        for node in nodes.indices {
            while let top = stack.last, node >= nodes[top.node].next { stack.removeLast() }
            if let top = stack.last {
                index.parents[node] = top.node
                index.ordinals[node] = top.seen
                stack[stack.count - 1].seen += 1
            }
            if nodes[node].kind == .object || nodes[node].kind == .array { stack.append((node, 0)) }
        }
        return index
    }

    /// The path of `node` from the top-level value as steps (a member's name, an element's index): `[]` for the
    /// top-level value. The one path of a JSON value: `paths()` renders it, and the diff takes its segments from it,
    /// never from a rendered string. At most as many steps as the document is deep.
    public func steps(of node: Int, in index: JSONPathIndex) -> [JSONPathStep] {
        var steps: [JSONPathStep] = []
        var current = node
        while index.parents.indices.contains(current), index.parents[current] >= 0 {
            let parent = index.parents[current]
            steps.append(
                nodes[parent].kind == .object ? .member(key(current) ?? "") : .element(index.ordinals[current]))
            current = parent
        }
        return steps.reversed()
    }

    /// Every node's path rendered, computed in one pass without recursion: `""` for the top-level value,
    /// `data.signedTransactionInfo` for a member, `signedTransactions[2]` for an element, `["a.b"]` for a name that is
    /// not only letters, digits and `_` (the rendering of `JSONPathStep`).
    public func paths() -> [String] {
        var paths = [String](repeating: "", count: nodes.count)
        // Open containers: (node, how many children seen).
        var stack: [(node: Int, seen: Int)] = []
        for node in nodes.indices {
            while let top = stack.last, node >= nodes[top.node].next { stack.removeLast() }
            if let top = stack.last {
                let step: JSONPathStep = nodes[top.node].kind == .object ? .member(key(node) ?? "") : .element(top.seen)
                paths[node] = step.appended(to: paths[top.node])
                stack[stack.count - 1].seen += 1
            }
            if nodes[node].kind == .object || nodes[node].kind == .array { stack.append((node, 0)) }
        }
        return paths
    }
}
