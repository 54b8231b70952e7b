import ReceiptBuilding
import ReceiptCrypto
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptMutation
import ReceiptSigning

/// One generated input and how it was made from its seed: the edits in order, smallest first when minimised.
package struct GeneratedInput: Sendable {
    package var bytes: [UInt8]
    /// The index of the seed it was made from.
    package var seed: Int
    /// What was done, in order (`catalogue:foreign-ca`, `payload:value type=2`, …): fewer edits is a smaller input.
    package var edits: [String]
    /// Whether the input is a JWS (else a receipt).
    package var isJWS: Bool
    /// For an input made by several edits, each edit applied to the seed alone: what minimisation tries first.
    package var components: [GeneratedInput] = []

    package init(bytes: [UInt8], seed: Int, edits: [String], isJWS: Bool, components: [GeneratedInput] = []) {
        self.bytes = bytes
        self.seed = seed
        self.edits = edits
        self.isJWS = isJWS
        self.components = components
    }
}

/// Makes inputs from seeds by structure-aware mutation, re-signed with the TEST-ONLY kit so they get past the
/// signature check and reach the validator's parser and checks: catalogue mutations (receipt or JWS, by the seed's
/// kind), two of them composed, and payload edits (an attribute's value bytes, type or version changed, an
/// attribute dropped or repeated, a record edited; for a JWS, a claim set, removed or repeated, or its JSON
/// mutated), each signed again. Deterministic for a `random` state.
package struct FuzzInputGenerator: Sendable {
    package let seeds: [[UInt8]]
    /// Which seeds are JWS, as the one classifier says.
    let seedIsJWS: [Bool]
    package let kit: MutationKit
    /// A JWS kit (EC chain) for JWS seeds, when there is one.
    package let jwsKit: MutationKit?
    package var random: SplitMix64

    package init(seeds: [[UInt8]], kit: MutationKit, jwsKit: MutationKit?, seed: UInt64) {
        self.seeds = seeds
        self.seedIsJWS = seeds.map { InputClassifier.classify($0).kind == .jws }
        self.kit = kit
        self.jwsKit = jwsKit
        self.random = SplitMix64(seed: seed)
    }

    /// Each seed re-signed unchanged by the kit (the catalogue's `baseline`): what a correctly configured validator
    /// must accept, run before any mutation, and written first to a findings folder. Nil for a seed the kit cannot
    /// re-sign (a JWS seed without a JWS kit).
    package func baselines() -> [GeneratedInput?] {
        seeds.indices.map { index in
            if seedIsJWS[index] {
                guard let jwsKit, let bytes = try? JWSMutationCatalogue.baseline.apply(to: seeds[index], kit: jwsKit)
                else {
                    return nil
                }
                return GeneratedInput(bytes: bytes, seed: index, edits: ["baseline"], isJWS: true)
            }
            guard let bytes = try? MutationCatalogue.baseline.apply(to: seeds[index], kit: kit, seed: 0) else {
                return nil
            }
            return GeneratedInput(bytes: bytes, seed: index, edits: ["baseline"], isJWS: false)
        }
    }

    mutating func below(_ bound: Int) -> Int { bound > 0 ? Int(random.next() % UInt64(bound)) : 0 }

    /// The next input, or nil when the chosen edit does not apply to the chosen seed (the caller draws again).
    package mutating func next() -> GeneratedInput? {
        let index = below(seeds.count)
        let seed = seeds[index]
        let isJWS = seedIsJWS[index]
        let roll = below(100)
        if isJWS {
            guard let jwsKit else { return nil }
            if roll < 45 { return jwsCatalogue(seed, index: index, kit: jwsKit) }
            return jwsEdit(seed, index: index, kit: jwsKit)
        }
        switch roll {
        case 0..<40: return catalogue(seed, index: index)
        case 40..<50: return composed(seed, index: index)
        default: return payloadEdit(seed, index: index)
        }
    }

    // MARK: - Receipts

    mutating func catalogue(_ seed: [UInt8], index: Int) -> GeneratedInput? {
        let mutation = MutationCatalogue.all[below(MutationCatalogue.all.count)]
        guard let bytes = try? mutation.apply(to: seed, kit: kit, seed: random.next()) else { return nil }
        return GeneratedInput(bytes: bytes, seed: index, edits: ["catalogue:\(mutation.name)"], isJWS: false)
    }

    mutating func composed(_ seed: [UInt8], index: Int) -> GeneratedInput? {
        guard let first = catalogue(seed, index: index) else { return nil }
        let mutation = MutationCatalogue.all[below(MutationCatalogue.all.count)]
        let mutationSeed = random.next()
        guard let bytes = try? mutation.apply(to: first.bytes, kit: kit, seed: mutationSeed) else { return nil }
        var components = [first]
        if let alone = try? mutation.apply(to: seed, kit: kit, seed: mutationSeed) {
            components.append(
                GeneratedInput(bytes: alone, seed: index, edits: ["catalogue:\(mutation.name)"], isJWS: false))
        }
        return GeneratedInput(
            bytes: bytes, seed: index, edits: first.edits + ["catalogue:\(mutation.name)"], isJWS: false,
            components: components)
    }

    mutating func payloadEdit(_ seed: [UInt8], index: Int) -> GeneratedInput? {
        guard case .success(let decoded) = InputDecoder.decode(seed) else { return nil }
        let receipt = Receipt.read(decoded.bytes)
        guard var blueprint = try? ReceiptBlueprint.of(receipt), !blueprint.attributes.isEmpty else { return nil }
        let position = below(blueprint.attributes.count)
        var spec = blueprint.attributes[position]
        let edit: String
        switch below(7) {
        case 0:
            spec.value = randomBytes(below(40))
            edit = "payload:value type=\(spec.type)"
        case 6:
            // Nested SEQUENCEs of indefinite length, 64 deep: a recursive parser's stack.
            spec.value = Array(repeating: [0x30, 0x80], count: 64).flatMap { $0 } + [UInt8](repeating: 0, count: 128)
            edit = "payload:nesting type=\(spec.type)"
        case 1:
            spec.type = [0, 1, 2, 3, 4, 5, 12, 17, 19, 21, 1701, 1703, 1708, 1712, Int64.max][below(15)]
            edit = "payload:type \(blueprint.attributes[position].type)→\(spec.type)"
        case 2:
            spec.version = [0, 2, -1, 255][below(4)]
            edit = "payload:version type=\(spec.type)"
        case 3:
            blueprint.attributes.remove(at: position)
            edit = "payload:drop type=\(spec.type)"
        case 4:
            blueprint.attributes.insert(spec, at: position)
            edit = "payload:repeat type=\(spec.type)"
        default:
            var changed = false
            blueprint.editFirstRecord { record in
                guard !record.isEmpty else { return }
                let field = Int(random.next() % UInt64(record.count))
                record[field].value = randomBytes(Int(random.next() % 24))
                changed = true
            }
            guard changed else { return nil }
            edit = "payload:record value"
        }
        if edit.hasPrefix("payload:value") || edit.hasPrefix("payload:type") || edit.hasPrefix("payload:version")
            || edit.hasPrefix("payload:nesting")
        {
            blueprint.attributes[position] = spec
        }
        // Half the edits keep the seed's device hash (for another device than the kit's): named, so a group is not
        // blamed on the edit for a hash mismatch the stale hash makes.
        let recomputed = random.next() & 1 == 0
        if recomputed { try? blueprint.computeHash(forDevice: kit.deviceID) }
        guard let bytes = try? ReceiptSigner(authority: kit.authority).sign(blueprint.payload) else { return nil }
        return GeneratedInput(
            bytes: bytes, seed: index, edits: recomputed ? [edit] : [edit, Self.staleHash], isJWS: false)
    }

    /// The edit that names a payload edit's input keeping its seed's device hash.
    package static let staleHash = "hash:seed-device"

    mutating func randomBytes(_ count: Int) -> [UInt8] {
        // Mostly ASN.1-shaped: a UTF8String, an IA5String or an INTEGER with random contents and length octets.
        var body = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        switch below(4) {
        case 0: body = [0x0C, UInt8(min(count, 127))] + body
        case 1: body = [0x16, UInt8(min(count, 127))] + body
        case 2: body = [0x02, 0x84, 0xFF, 0xFF, 0xFF, 0xF0] + body
        default: break
        }
        return body
    }

    // MARK: - JWS

    mutating func jwsCatalogue(_ seed: [UInt8], index: Int, kit: MutationKit) -> GeneratedInput? {
        let mutation = JWSMutationCatalogue.all[below(JWSMutationCatalogue.all.count)]
        guard let bytes = try? mutation.apply(to: seed, kit: kit) else { return nil }
        return GeneratedInput(bytes: bytes, seed: index, edits: ["jws-catalogue:\(mutation.name)"], isJWS: true)
    }

    mutating func jwsEdit(_ seed: [UInt8], index: Int, kit: MutationKit) -> GeneratedInput? {
        guard let context = try? JWSMutationContext.baseline(of: seed, kit: kit) else { return nil }
        let claims = [
            "bundleId", "environment", "transactionId", "signedDate", "productId", "quantity",
            "expiresDate", "appAppleId", "type", "data",
        ]
        let values = [
            #""com.example.attacker""#, "0", "-1", "null", "true", #""""#, "[]", "{}", "9007199254740993",
            #""Production""#, #""Sandbox""#, "4000000000000", "1e400", #""\u0000""#,
        ]
        let claim = claims[below(claims.count)]
        var payload = context.payload
        let edit: String
        switch below(3) {
        case 0:
            let value = values[below(values.count)]
            payload = JWSMutationContext.setting(claim, to: value, in: payload)
            edit = "jws-payload:set \(claim)=\(value)"
        case 1:
            payload = JWSMutationContext.removing(claim, from: payload)
            edit = "jws-payload:remove \(claim)"
        default:
            guard
                let repeated = try? JWSMutationContext.duplicating(claim, as: values[below(values.count)], in: payload)
            else { return nil }
            payload = repeated
            edit = "jws-payload:repeat \(claim)"
        }
        guard let token = try? context.signed(payload: payload) else { return nil }
        return GeneratedInput(bytes: Array((token + "\n").utf8), seed: index, edits: [edit], isJWS: true)
    }
}
