import ReceiptBuilding
import ReceiptJSON
import ReceiptJWS

/// The crossover of two inputs' meanings (`LLVMFuzzerCustomCrossOver`): a member of one's payload given to the other.
extension JWSStructureMutator {
    /// A member of `other`'s payload (or document) put into `input`'s: what two inputs' meanings give each other.
    /// Documented values preferred (`prefersDocumentedValues`), the member takes the place of the one of its name, so
    /// facts two documents state apart meet in one document Apple could sign (a family-shared purchase's ownership
    /// given to a refunded one) — three times in four one the input has with another value, else one it lacks, added;
    /// otherwise it is inserted anywhere (a duplicate name, a claim of another kind).
    public mutating func crossover(_ input: [UInt8], _ other: [UInt8]) -> [UInt8]? {
        guard let donor = Self.json(of: other[...]).flatMap(JSONTree.init),
            case .object(let members) = donor, !members.isEmpty
        else { return nil }
        let position = random.next()
        guard prefersDocumentedValues else {
            let member = members[below(members.count)]
            return transformJSON(of: input[...]) { tree in
                // Not an object: the input as it was (re-signed), as before the documented crossover existed.
                guard case .object(var own) = tree else { return true }
                own.insert(member, at: Int(position % UInt64(own.count + 1)))
                tree = .object(own)
                return true
            }
        }
        let sharesName = below(4) != 0
        // Nothing to give (the same values, no member the input lacks): nil, so the caller edits the input instead.
        return transformJSON(of: input[...]) { tree in
            guard case .object(var own) = tree else { return false }
            // A member the input has with another value, or one it lacks.
            let values = Dictionary(own.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let offered = members.filter { member in
                guard let value = values[member.name] else { return !sharesName && !member.name.isEmpty }
                return sharesName && value != member.value
            }
            guard !offered.isEmpty else { return false }
            let member = offered[Int(position % UInt64(offered.count))]
            if let index = own.firstIndex(where: { $0.name == member.name }) {
                own[index].value = member.value
            } else {
                own.append(member)
            }
            tree = .object(own)
            return true
        }
    }

    /// The JSON a token's payload or a document holds, for a crossover's donor.
    static func json(of input: ArraySlice<UInt8>) -> [UInt8]? {
        if input.first == UInt8(ascii: "{") { return Array(input) }
        let parts = JWSText.parts(input)
        guard parts.count == 3, case .success(let payload) = Base64URL.decode(parts[1]) else { return nil }
        return payload.bytes
    }
}
