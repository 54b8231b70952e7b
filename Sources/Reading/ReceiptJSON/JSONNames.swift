/// Duplicate member names, as the reader meets them: exact duplicates (JSON.parse, Python and Foundation take the
/// later copy, some readers the first) and names equal but for case (Go and .NET match names without regard to
/// case: ASCII's, and the few letters outside ASCII they take for an ASCII one, `caseFolded`). One check per object, in place while its names are few and plain, by tables after.
extension JSONDocument {
    /// A container the reader has opened and not closed: its node, its kind, and the names an object has held.
    struct Open {
        var node: Int
        var isObject: Bool
        /// The first names of an object while they are few and plain (ASCII, no escape: their bytes are their text),
        /// with their nodes: compared in place, without a string or a table. The tables below take over at the
        /// first name that is not plain, or past `plainNamesKept`.
        var plainNames: [(range: Range<Int>, node: Int)] = []
        var usesTables = false
        /// Names seen so far (unescaped, case folded: `caseFolded`) and the node of each first copy.
        var names: [String: Int] = [:]
        /// The other spellings of a folded name, and the node of each first copy (rare: filled only on a collision).
        var spellings: [String: Int] = [:]
    }

    /// How many plain names an object is checked for duplicates by comparison before tables take over.
    static let plainNamesKept = 16

    /// Records the name of the value about to be appended in its object, noting a duplicate, and a name that equals
    /// an earlier one but for case. One table per object, keyed by the case-folded name.
    mutating func noteName(_ key: Range<Int>?, stack: inout [Open]) {
        guard let key, !stack.isEmpty else { return }
        let top = stack.count - 1
        if !stack[top].usesTables {
            if isPlain(key) && stack[top].plainNames.count < Self.plainNamesKept {
                notePlainName(key, in: &stack[top])
                return
            }
            // Tables from here on: filled with the names so far as they would have been, name by name.
            stack[top].usesTables = true
            for earlier in stack[top].plainNames {
                let name = String(decoding: bytes[earlier.range], as: UTF8.self)
                let folded = Self.caseFolded(name)
                if let first = stack[top].names[folded] {
                    if self.key(first) != name && stack[top].spellings[name] == nil {
                        stack[top].spellings[name] = earlier.node
                    }
                } else {
                    stack[top].names[folded] = earlier.node
                }
            }
            stack[top].plainNames = []
        }
        let name = Self.unescape(bytes, key)
        let folded = Self.caseFolded(name)
        if let first = stack[top].names[folded] {
            if self.key(first) == name {
                duplicateKeys.append(JSONDuplicateKey(name: name, first: first, duplicate: nodes.count))
            } else if let spelled = stack[top].spellings[name] {
                duplicateKeys.append(JSONDuplicateKey(name: name, first: spelled, duplicate: nodes.count))
            } else {
                caseFoldedDuplicateKeys.append(JSONDuplicateKey(name: name, first: first, duplicate: nodes.count))
                stack[top].spellings[name] = nodes.count
            }
        } else {
            stack[top].names[folded] = nodes.count
        }
    }

    /// What the tables decide for a plain name among the object's plain names, by comparing bytes: a duplicate of
    /// the first name equal to it (but for ASCII case: of the first spelled as it is), or a name equal to another
    /// but for case.
    private mutating func notePlainName(_ key: Range<Int>, in open: inout Open) {
        let current = nodes.count
        defer { open.plainNames.append((key, current)) }
        guard let first = open.plainNames.first(where: { sameName(key, $0.range, foldingCase: true) }) else { return }
        let name = String(decoding: bytes[key], as: UTF8.self)
        if sameName(key, first.range, foldingCase: false) {
            duplicateKeys.append(JSONDuplicateKey(name: name, first: first.node, duplicate: current))
        } else if let spelled = open.plainNames.first(where: { sameName(key, $0.range, foldingCase: false) }) {
            duplicateKeys.append(JSONDuplicateKey(name: name, first: spelled.node, duplicate: current))
        } else {
            caseFoldedDuplicateKeys.append(JSONDuplicateKey(name: name, first: first.node, duplicate: current))
        }
    }

    /// Whether a name's bytes are its text: ASCII without a backslash.
    private func isPlain(_ range: Range<Int>) -> Bool {
        !bytes[range].contains { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }
    }

    /// Whether two plain names are the same, or the same but for ASCII case.
    private func sameName(_ a: Range<Int>, _ b: Range<Int>, foldingCase: Bool) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count {
            var left = bytes[a.lowerBound + offset]
            var right = bytes[b.lowerBound + offset]
            if foldingCase {
                if (0x41...0x5A).contains(left) { left |= 0x20 }
                if (0x41...0x5A).contains(right) { right |= 0x20 }
            }
            if left != right { return false }
        }
        return true
    }

    /// `name` with ASCII capitals lowered, and the three letters outside ASCII that case-insensitive readers match
    /// with an ASCII one taken for it: `ſ` (U+017F) for `s` (Go's folding and .NET's upper-casing), the Kelvin sign
    /// (U+212A) for `k` (Go), dotless `ı` (U+0131) for `i` (.NET). Itself, without a copy, when it has none.
    package static func caseFolded(_ name: String) -> String {
        guard name.utf8.contains(where: { (0x41...0x5A).contains($0) || $0 >= 0x80 }) else { return name }
        var folded = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A: folded.append(Unicode.Scalar(UInt8(scalar.value) | 0x20))
            case 0x017F: folded.append("s")
            case 0x212A: folded.append("k")
            case 0x0131: folded.append("i")
            default: folded.append(scalar)
            }
        }
        return String(folded)
    }
}
