import ReceiptASN1
import ReceiptBuilding
import ReceiptJSON
import ReceiptJWS
import ReceiptSigning

/// Structure-aware mutation of Apple's JWS, for fuzzers (`LLVMFuzzerCustomMutator` of the `jws` and `jws-verify`
/// harnesses): a token's header or payload is decoded and edited as JSON — members added, removed, renamed (to
/// another claim, another case, an escaped spelling of the same name), duplicated, reordered; values replaced by
/// every JSON type, by numbers at the edges Apple's claims have (epoch milliseconds, 2^53, `-0`, exponents,
/// fractions) and by strings with escapes (surrogate pairs, lone surrogates, `\u0000`); nested tokens edited the
/// same way — then encoded again. With a signer (`jws-verify`) every changed token is signed again, so the edit
/// reaches the checks after the signature; without one (`jws`) the signature is kept, and the edit reaches the
/// reader. A notification body or API response is edited as JSON, its tokens included.
public struct JWSStructureMutator {
    public var random: SplitMix64
    /// Signs a changed token again; nil keeps each token's own signature.
    public let signer: JWSSigner?
    /// A byte mutator for a value's or a name's own bytes (a fuzzer's: libFuzzer's `LLVMFuzzerMutate`, which inserts
    /// the operands of comparisons the code made, so a value the code looks for lands inside the decoded JSON); nil
    /// edits values only from the tables below.
    public var mutateBytes: (([UInt8]) -> [UInt8])?
    /// Words the code compares with (a fuzzer's dictionary: `LibFuzzerDictionary`), drawn as whole values and names,
    /// so a value the code looks for is put where it looks.
    public var words = Words([])
    /// Whether edits mostly keep a document one Apple could have signed, for harnesses that judge what verified
    /// documents mean (`status`): a member's scalar is edited where any value would be, three times in four set to
    /// what its member is compared with (`value(for:)`: mostly its documented values, else a dictionary word, a near
    /// miss, a number for a number claim), and the header edited one time in sixteen; the other edits stay free, to
    /// reach the checks that refuse the rest.
    public var prefersDocumentedValues = false

    public init(seed: UInt64, signer: JWSSigner? = nil) {
        random = SplitMix64(seed: seed)
        self.signer = signer
    }

    /// A mutator that signs every changed token again with `kit`'s TEST-ONLY chain (as its JWS mutations are).
    public init(seed: UInt64, resigningWith kit: MutationKit) {
        self.init(seed: seed, signer: JWSSigner(authority: kit.authority))
    }

    /// The member names edits take: a header's JOSE members while a header is edited, else Apple's claims.
    var names: [String] = Self.names

    /// How deep nested tokens are edited.
    static let maximumDepth = 3

    /// `input` (a compact JWS, or a JSON document holding tokens) with one structural edit; nil when it is neither.
    public mutating func mutate(_ input: [UInt8]) -> [UInt8]? {
        if input.first == UInt8(ascii: "{") || input.first == UInt8(ascii: "[") {
            guard var tree = JSONTree(input) else { return nil }
            edit(&tree, depth: 0)
            return tree.bytes
        }
        return mutateToken(input[...], depth: 0)
    }

    // MARK: - Tokens and documents

    /// `input` with `transform` applied to its JSON: a document's tree, or a token's payload (re-encoded, and
    /// re-signed with a signer); nil when `transform` says it changed nothing (no token signed for nothing).
    func transformJSON(of input: ArraySlice<UInt8>, _ transform: (inout JSONTree) -> Bool) -> [UInt8]? {
        if input.first == UInt8(ascii: "{") {
            guard var tree = JSONTree(Array(input)), transform(&tree) else { return nil }
            return tree.bytes
        }
        let parts = JWSText.parts(input)
        guard parts.count == 3, case .success(let payload) = Base64URL.decode(parts[1]),
            var tree = JSONTree(payload.bytes), transform(&tree)
        else { return nil }
        return token(header: parts[0], payload: tree.bytes, signature: parts[2])
    }

    /// A compact token with its header or payload edited.
    mutating func mutateToken(_ text: ArraySlice<UInt8>, depth: Int) -> [UInt8]? {
        let parts = JWSText.parts(text)
        guard parts.count == 3 else { return nil }
        // The header is Apple's fixed shape and 4 KB of x5c: edited one time in four (in sixteen when documents are to
        // stay ones Apple could sign).
        let editsHeader = below(prefersDocumentedValues ? 16 : 4) == 0
        guard case .success(let decoded) = Base64URL.decode(parts[editsHeader ? 0 : 1]),
            var tree = JSONTree(decoded.bytes)
        else { return nil }
        let claims = names
        names = editsHeader ? Self.headerNames : Self.names
        edit(&tree, depth: depth)
        names = claims
        if editsHeader {
            return token(headerJSON: tree.bytes, payload: parts[1], signature: parts[2])
        }
        return token(header: parts[0], payload: tree.bytes, signature: parts[2])
    }

    /// The token of an encoded header and a new payload: signed again, or with its signature kept.
    func token(header: ArraySlice<UInt8>, payload: [UInt8], signature: ArraySlice<UInt8>) -> [UInt8] {
        token(encodedHeader: header, encodedPayload: Array(Base64URL.encode(payload).utf8), signature: signature)
    }

    /// The token of a new header and an encoded payload: signed again, or with its signature kept.
    func token(headerJSON: [UInt8], payload: ArraySlice<UInt8>, signature: ArraySlice<UInt8>) -> [UInt8] {
        token(
            encodedHeader: Array(Base64URL.encode(headerJSON).utf8)[...], encodedPayload: payload, signature: signature)
    }

    /// The token of two encoded parts, the part left unedited kept to the byte (the signature covers the text as it
    /// stands): signed again, or with its signature kept.
    private func token<Payload: Collection<UInt8>>(
        encodedHeader: ArraySlice<UInt8>, encodedPayload: Payload, signature: ArraySlice<UInt8>
    ) -> [UInt8] {
        if let signer, let signed = try? signer.sign(encodedHeader: encodedHeader, encodedPayload: encodedPayload) {
            return signed
        }
        return Array(encodedHeader) + [UInt8(ascii: ".")] + Array(encodedPayload) + [UInt8(ascii: ".")]
            + Array(signature)
    }

    // MARK: - Edits

    /// One edit at a value: three times in eight a nested token (when there is one: edited inside — a notification's
    /// facts are in its transaction and renewal tokens), three a member's scalar (what code compares; one time in two
    /// one whose values Apple enumerates, where readers branch), one an object (its members), one any value.
    mutating func edit(_ tree: inout JSONTree, depth: Int) {
        let places = tree.places
        let roll = below(8)
        let nested = depth < Self.maximumDepth ? places.nestedTokens : []
        // Documented values preferred: a member's scalar instead of any value (an object's members are still edited:
        // a claim added, removed or renamed).
        let picksScalar = roll < 6 || (prefersDocumentedValues && roll == 7)
        var scalars = places.memberScalars
        if roll >= 3 || nested.isEmpty, picksScalar, below(2) == 0 {
            let enumerated = zip(places.memberScalars, places.memberNames).filter { _, name in
                Self.memberValues[String(decoding: name, as: UTF8.self)] != nil
            }
            if !enumerated.isEmpty { scalars = enumerated.map(\.0) }
        }
        let choices =
            roll < 3 && !nested.isEmpty
            ? nested : picksScalar ? scalars : roll == 6 ? places.objects : []
        let index = choices.isEmpty ? below(tree.count) : choices[below(choices.count)]
        var mutator = self
        tree.update(at: index) { value, name in mutator.edit(value: &value, of: name, depth: depth) }
        random = mutator.random
    }

    /// `value` (of the member `name`, when a member holds it) edited in one way.
    mutating func edit(value: inout JSONTree, of name: [UInt8]?, depth: Int) {
        if let content = value.stringContent, depth < Self.maximumDepth, JWSReader.looksLikeCompactJWS(content),
            below(4) != 0, let nested = mutateToken(content, depth: depth + 1)
        {
            value = .scalar([UInt8(ascii: "\"")] + nested + [UInt8(ascii: "\"")])
            return
        }
        switch value {
        case .object(var members):
            editMembers(&members)
            value = .object(members)
        case .array(var elements):
            switch below(5) {
            case 0: elements.insert(randomValue(), at: below(elements.count + 1))
            case 1 where !elements.isEmpty: elements.remove(at: below(elements.count))
            case 2 where !elements.isEmpty: elements.insert(elements[below(elements.count)], at: below(elements.count))
            case 3 where elements.count > 1: elements.swapAt(below(elements.count), below(elements.count))
            default:
                value = randomValue()
                return
            }
            value = .array(elements)
        case .scalar(let text):
            if prefersDocumentedValues, name != nil, below(4) != 0 {
                value = self.value(for: name)
                return
            }
            switch below(mutateBytes == nil ? 6 : 8) {
            case 0: value = randomValue()
            case 1, 2, 3: value = self.value(for: name)
            case 4, 5: value = .scalar(edited(scalar: text))
            default: value = .scalar(byteMutated(scalar: text))
            }
        }
    }

    mutating func editMembers(_ members: inout [JSONTree.Member]) {
        switch below(7) {
        case 0, 1:
            let name = randomName()
            let value = below(2) == 0 ? value(for: name) : randomValue()
            members.insert(JSONTree.Member(name: name, value: value), at: below(members.count + 1))
        case 2 where !members.isEmpty: members.remove(at: below(members.count))
        case 3 where !members.isEmpty:
            let index = below(members.count)
            members[index].name = renamed(members[index].name)
        case 4 where !members.isEmpty:
            // The same name again, with another value: readers disagree on which copy counts.
            let original = members[below(members.count)]
            members.insert(
                JSONTree.Member(name: below(2) == 0 ? original.name : renamed(original.name), value: randomValue()),
                at: below(members.count + 1))
        case 5 where members.count > 1: members.swapAt(below(members.count), below(members.count))
        default:
            guard !members.isEmpty else { return }
            let index = below(members.count)
            members[index].value = below(2) == 0 ? value(for: members[index].name) : randomValue()
        }
    }

    /// A value for the member `name`: what the code reading it compares it with most of the time — one of the
    /// values Apple documents for the claim (`AppleClaims.enumerations`, JOSE's for a header member) or a near miss
    /// of one, a number for a number claim, a boolean for a boolean — else a value of its type drawn afresh (a string
    /// from the byte mutator's words: the operand of a comparison the code made).
    mutating func value(for name: [UInt8]?) -> JSONTree {
        guard let name else { return randomValue() }
        let key = String(decoding: name, as: UTF8.self)
        if let compared = words.byMember[key], below(2) == 0 {
            // What the code compared right after this member's name: a number as written, else as a string.
            let word = compared[below(compared.count)]
            return .scalar(words.numbers.contains(word) && below(2) == 0 ? word : Self.quoted(word))
        }
        if let values = Self.memberValues[key], below(4) != 0 {
            let chosen = Array(values[below(values.count)].utf8)
            return .scalar(below(4) == 0 ? nearMiss(of: chosen) : chosen)
        }
        if AppleClaims.numbers.contains(key) {
            if !words.numbers.isEmpty, below(3) == 0 { return .scalar(words.numbers[below(words.numbers.count)]) }
            if AppleClaims.dates.contains(key) || below(2) == 0 { return .scalar(randomNumber()) }
            return .scalar(byteMutated(scalar: Array(String(below(10)).utf8)))
        }
        if AppleClaims.booleans.contains(key) || key == "b64" {
            return .scalar(Array(["true", "false", "\"true\"", "0", "1", "null"][below(6)].utf8))
        }
        if !words.texts.isEmpty, below(2) == 0 { return .scalar(Self.quoted(words.texts[below(words.texts.count)])) }
        if below(2) == 0 { return .scalar(Array("\"\(Self.strings[below(Self.strings.count)])\"".utf8)) }
        return .scalar(byteMutated(scalar: Array("\"\"".utf8)))
    }

    /// A documented value just missed: a string in another case, with a space, a NUL or a character less; a number
    /// one more or negated.
    mutating func nearMiss(of text: [UInt8]) -> [UInt8] {
        guard text.count >= 2, text.first == UInt8(ascii: "\""), text.last == UInt8(ascii: "\"") else {
            guard let number = Int(String(decoding: text, as: UTF8.self)) else { return text }
            return Array(String(below(2) == 0 ? number + 1 : -number).utf8)
        }
        var content = Array(text.dropFirst().dropLast())
        switch below(4) {
        case 0: content = Array(String(decoding: content, as: UTF8.self).lowercased().utf8)
        case 1: content += Array(" ".utf8)
        case 2: content += Array("\\u0000".utf8)
        default: if !content.isEmpty { content.removeLast() }
        }
        return [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
    }

    /// A member name: another claim, another case, an escaped spelling of the same name, or with a byte more.
    mutating func renamed(_ name: [UInt8]) -> [UInt8] {
        if let mutateBytes, below(4) == 0 {
            let fresh = below(2) == 0
            var drawn = mutateBytes(fresh ? [] : name)
            while fresh, drawn.last == 0 { drawn.removeLast() }
            return Self.escaped(drawn)
        }
        switch below(4) {
        case 0: return randomName()
        case 1:
            // One ASCII letter as \u00XX: the same name to a reader that unescapes, another to one that does not.
            guard let index = name.indices.first(where: { (0x41...0x7A).contains(name[$0]) }) else { return name }
            let hex = Array("0123456789abcdef".utf8)
            let byte = name[index]
            return Array(name[..<index]) + Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                + Array(name[(index + 1)...])
        case 2:
            guard let index = name.indices.first(where: { (0x61...0x7A).contains(name[$0]) }) else { return name }
            var upper = name
            upper[index] -= 0x20
            return upper
        default: return name + (below(2) == 0 ? Array(" ".utf8) : Array("\\u0000".utf8))
        }
    }

    /// A scalar's text edited in place: a number nudged or given another form, a string given an escape.
    mutating func edited(scalar text: [UInt8]) -> [UInt8] {
        if text.first == UInt8(ascii: "\"") {
            var content = Array(text.dropFirst().dropLast())
            let escape = below(2) == 0 ? Array(Self.escapes[below(Self.escapes.count)].utf8) : randomUnicodeEscape()
            content.insert(contentsOf: escape, at: below(content.count + 1))
            return [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
        }
        guard let first = text.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first) else {
            return randomNumber()
        }
        switch below(6) {
        case 5: return randomNumber()
        case 0: return text + Array(".5".utf8)
        case 1: return text + Array("e0".utf8)
        case 2: return first == UInt8(ascii: "-") ? Array(text.dropFirst()) : [UInt8(ascii: "-")] + text
        case 3: return text + [UInt8(ascii: "0") + UInt8(below(10))]
        default: return text.count > 1 ? Array(text.dropLast()) : Array("0".utf8)
        }
    }

    /// A scalar whose own bytes the byte mutator changed, or replaced by a word it draws from nothing (libFuzzer:
    /// a dictionary word or a comparison's operand): a string's content (trailing NULs of a word dropped, escaped so
    /// it stays one string), or a number (a drawn 4- or 8-byte binary word read as a little-endian integer, so an
    /// integer the code compares with becomes its digits).
    mutating func byteMutated(scalar text: [UInt8]) -> [UInt8] {
        guard let mutateBytes else { return text }
        let fresh = below(2) == 0
        if text.count >= 2, text.first == UInt8(ascii: "\""), text.last == UInt8(ascii: "\"") {
            var content = mutateBytes(fresh ? [] : Array(text.dropFirst().dropLast()))
            while fresh, content.last == 0 { content.removeLast() }
            return Self.quoted(content)
        }
        let mutated = mutateBytes(fresh ? [] : text)
        for candidate in [mutated, Self.numberText(mutated)] {
            // A number or literal stays one (bytes that are no JSON value would only make the document unreadable).
            if let document = try? JSONDocument.read(candidate), document.nodes.count == 1 { return candidate }
        }
        return text
    }

    /// `\uXXXX` of any code unit, one time in two a surrogate (high or low, to stand alone or pair).
    mutating func randomUnicodeEscape() -> [UInt8] {
        let unit = below(2) == 0 ? 0xD800 + below(0x800) : below(0x10000)
        let hex = Array("0123456789abcdef".utf8)
        return Array("\\u".utf8) + [12, 8, 4, 0].map { hex[(unit >> $0) & 0xF] }
    }

    /// A number: from the table of edges, or an integer of random size (small ones most often).
    mutating func randomNumber() -> [UInt8] {
        switch below(4) {
        case 0, 1: return Array(Self.numbers[below(Self.numbers.count)].utf8)
        case 2: return Array(String(below(10_000)).utf8)
        default:
            let digits = 1 + below(19)
            return [UInt8(ascii: "1") + UInt8(below(9))]
                + (1..<digits).map { _ in UInt8(ascii: "0") + UInt8(below(10)) }
        }
    }

    mutating func randomValue() -> JSONTree {
        if below(8) == 0 {
            // A number the code compares with as a number, a text as a string.
            if !words.numbers.isEmpty, below(2) == 0 { return .scalar(words.numbers[below(words.numbers.count)]) }
            if !words.texts.isEmpty { return .scalar(Self.quoted(words.texts[below(words.texts.count)])) }
        }
        switch below(8) {
        case 0, 1: return .scalar(randomNumber())
        case 2, 3: return .scalar(Array("\"\(Self.strings[below(Self.strings.count)])\"".utf8))
        case 4: return .scalar(Array(["true", "false", "null"][below(3)].utf8))
        case 5: return .object([])
        case 6: return .array([])
        default:
            return .object([JSONTree.Member(name: randomName(), value: .scalar(Array("\"\"".utf8)))])
        }
    }

    /// A member name: one the edited part defines, one time in four a word the code compares with.
    mutating func randomName() -> [UInt8] {
        if !words.names.isEmpty, below(4) == 0 { return words.names[below(words.names.count)] }
        return Array(names[below(names.count)].utf8)
    }

    mutating func below(_ bound: Int) -> Int { bound > 0 ? Int(random.next() % UInt64(bound)) : 0 }
}
