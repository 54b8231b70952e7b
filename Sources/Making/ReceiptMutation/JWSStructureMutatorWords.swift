extension JWSStructureMutator {
    /// A dictionary's words sorted once by what they can be: any string, a number, a member name, the value of one
    /// member (`value_of_<member>_<n>` entries: a word the code compares next after that member's name, as
    /// `scripts/fuzz-words.py` writes them).
    public struct Words: Sendable {
        /// Words that are neither numbers nor JSON of their own (a committed entry such as `"alg":` is for the byte
        /// mutator), for a string's content.
        let texts: [[UInt8]]
        let numbers: [[UInt8]]
        let names: [[UInt8]]
        let byMember: [String: [[UInt8]]]

        public init(_ entries: [LibFuzzerDictionary.Entry]) {
            let words = entries.map(\.word)
            var byMember: [String: [[UInt8]]] = [:]
            for entry in entries where entry.name.hasPrefix(Self.memberPrefix) {
                let rest = entry.name.dropFirst(Self.memberPrefix.count)
                guard let end = rest.lastIndex(of: "_"), end > rest.startIndex else { continue }
                byMember[String(rest[..<end]), default: []].append(entry.word)
            }
            self.byMember = byMember
            func isNumber(_ word: [UInt8]) -> Bool {
                !word.isEmpty && word.allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
            }
            func isName(_ word: [UInt8]) -> Bool {
                word.count >= 2
                    && word.allSatisfy { byte in
                        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                            || byte == UInt8(ascii: "_")
                    }
            }
            let json = Set(Array("\":{}[]".utf8))
            numbers = words.filter(isNumber)
            names = words.filter(isName)
            texts = words.filter { word in !word.isEmpty && !isNumber(word) && !word.contains(where: json.contains) }
        }

        static let memberPrefix = "value_of_"
    }
}
