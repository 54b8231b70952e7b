import ReceiptJSON
import ReceiptJWS

/// A JSON text as a structure-aware mutator edits it: objects keep their members' order and duplicate names,
/// names and scalars keep the exact text they were written with (escapes, exponents, `-0`), so an edit changes only
/// the piece it means to and the rest re-encodes byte for byte.
public indirect enum JSONTree: Sendable, Hashable {
    /// Members in order: each name as written between its quotes (still escaped), and its value.
    case object([Member])
    case array([JSONTree])
    /// A string with its quotes, a number, `true`, `false` or `null`, as written.
    case scalar([UInt8])

    public struct Member: Sendable, Hashable {
        public var name: [UInt8]
        public var value: JSONTree

        public init(name: [UInt8], value: JSONTree) {
            self.name = name
            self.value = value
        }
    }

    /// The tree of `bytes`, when they are one JSON value (nil otherwise).
    public init?(_ bytes: [UInt8]) {
        guard let document = try? JSONDocument.read(bytes), !document.nodes.isEmpty else { return nil }
        self.init(document, node: document.root)
    }

    /// The subtree of `node` (its depth bounded by the reader's `maximumDepth`).
    init(_ document: JSONDocument, node: Int) {
        let entry = document.nodes[node]
        switch entry.kind {
        case .object:
            self = .object(
                document.children(of: node).map { child in
                    let name = document.nodes[child].keyRange.map { Array(document.bytes[$0]) } ?? []
                    return Member(name: name, value: JSONTree(document, node: child))
                })
        case .array:
            self = .array(document.children(of: node).map { JSONTree(document, node: $0) })
        default:
            self = .scalar(Array(document.bytes[entry.start..<entry.end]))
        }
    }

    /// The JSON text, compact.
    public var bytes: [UInt8] {
        var output: [UInt8] = []
        write(to: &output)
        return output
    }

    func write(to output: inout [UInt8]) {
        switch self {
        case .scalar(let text): output += text
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.append(UInt8(ascii: "\""))
                output += member.name
                output += Array("\":".utf8)
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The text of a string scalar between its quotes, still escaped; nil for any other value.
    public var stringContent: ArraySlice<UInt8>? {
        guard case .scalar(let text) = self, text.count >= 2, text.first == UInt8(ascii: "\""),
            text.last == UInt8(ascii: "\"")
        else { return nil }
        return text[1..<text.count - 1]
    }

    /// How many values the tree holds (itself included).
    public var count: Int {
        switch self {
        case .scalar: return 1
        case .array(let elements): return elements.reduce(1) { $0 + $1.count }
        case .object(let members): return members.reduce(1) { $0 + $1.value.count }
        }
    }

    /// Where edits go, as `update(at:)` counts places: the scalars that are members' values (what code reading the
    /// tree compares), those of them that are strings shaped like a compact JWS (a nested token, edited inside), and
    /// the objects (where members are added and removed).
    public struct Places: Sendable {
        public var memberScalars: [Int] = []
        /// The name of the member holding each of `memberScalars` (as written).
        public var memberNames: [[UInt8]] = []
        public var nestedTokens: [Int] = []
        public var objects: [Int] = []
    }

    public var places: Places {
        var places = Places()
        var next = 0
        collectPlaces(into: &places, next: &next, member: nil)
        return places
    }

    private func collectPlaces(into places: inout Places, next: inout Int, member: [UInt8]?) {
        let place = next
        next += 1
        switch self {
        case .scalar:
            guard let member else { return }
            places.memberScalars.append(place)
            places.memberNames.append(member)
            if let content = stringContent, JWSReader.looksLikeCompactJWS(content) { places.nestedTokens.append(place) }
        case .array(let elements):
            for element in elements { element.collectPlaces(into: &places, next: &next, member: nil) }
        case .object(let members):
            places.objects.append(place)
            for member in members { member.value.collectPlaces(into: &places, next: &next, member: member.name) }
        }
    }

    /// The value `index` places into the tree in document order (0 is the tree itself) changed by `edit`, which is
    /// also given the name of the member holding the value (as written, still escaped; nil for the tree itself and
    /// an array's elements).
    public mutating func update(at index: Int, _ edit: (inout JSONTree, _ name: [UInt8]?) -> Void) {
        var remaining = index
        update(counting: &remaining, name: nil, edit)
    }

    private mutating func update(
        counting remaining: inout Int, name: [UInt8]?, _ edit: (inout JSONTree, _ name: [UInt8]?) -> Void
    ) {
        if remaining == 0 {
            edit(&self, name)
            remaining = -1
            return
        }
        remaining -= 1
        switch self {
        case .scalar: return
        case .array(var elements):
            for index in elements.indices where remaining >= 0 {
                elements[index].update(counting: &remaining, name: nil, edit)
            }
            self = .array(elements)
        case .object(var members):
            for index in members.indices where remaining >= 0 {
                members[index].value.update(counting: &remaining, name: members[index].name, edit)
            }
            self = .object(members)
        }
    }
}
