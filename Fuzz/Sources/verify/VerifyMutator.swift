import FuzzMutationSupport
import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptMutation
import ReceiptPKCS7
import ReceiptSigning

/// The structure-aware mutator: one of
/// - a catalogue mutation (`MutationCatalogue.all`, chosen at random), which re-signs with the TEST-ONLY kit;
/// - a payload edit (`VerifyMutator.editPayload`): the receipt decoded, its payload or one attribute value (or one
///   in-app record's attribute value) changed by libFuzzer's mutator, an attribute dropped or repeated, then signed
///   again with the TEST-ONLY key, digest, layout and signed attributes kept;
/// - libFuzzer's mutator on the whole input, which is also the fallback when the others cannot apply (not a receipt,
///   a mutation that refuses it, a result over `maxSize`).
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    if let kit = VerifySetup.shared?.kit, size > 0 {
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        var mutator = VerifyMutator(kit: kit, maxSize: maxSize, random: SplitMix64(seed: UInt64(seed)))
        let roll = mutator.random.next() % 100
        var output: (bytes: [UInt8], strategy: VerifyStatistics.Strategy)?
        if roll < VerifyMutator.catalogueShare {
            output = mutator.applyCatalogue(input).map { ($0, .catalogue) }
        }
        if output == nil, roll < VerifyMutator.catalogueShare + VerifyMutator.payloadShare {
            output = mutator.editPayload(input).map { ($0, .payloadEdit) }
        }
        if let output, LibFuzzer.write(output.bytes, to: data, maxSize: maxSize) {
            VerifyStatistics.count(output.strategy)
            return output.bytes.count
        }
    }
    VerifyStatistics.count(.plain)
    return LibFuzzer.mutate(data, size, maxSize)
}

/// The strategies of `customMutator`, deterministic for a seed.
struct VerifyMutator {
    /// Percent of calls that try a catalogue mutation first.
    static let catalogueShare: UInt64 = 20
    /// Percent of calls that try a payload edit (also tried when a catalogue mutation fails).
    static let payloadShare: UInt64 = 65

    let kit: MutationKit
    let maxSize: Int
    var random: SplitMix64

    mutating func below(_ bound: Int) -> Int { bound > 0 ? Int(random.next() % UInt64(bound)) : 0 }

    // MARK: - Catalogue

    /// A random catalogue mutation of `input`, or nil when it does not apply or the result is too large.
    mutating func applyCatalogue(_ input: [UInt8]) -> [UInt8]? {
        let catalogue = MutationCatalogue.all
        let mutation = catalogue[below(catalogue.count)]
        guard let output = try? mutation.apply(to: input, kit: kit, seed: random.next()), output.count <= maxSize
        else { return nil }
        return output
    }

    // MARK: - Payload edits

    /// What the receipt was signed with, kept when it is signed again.
    struct Signing {
        var digest: DigestAlgorithm = .sha256
        var layout: ContainerLayout = .der
        var signedAttributes = false
    }

    /// The receipt's payload (or one attribute of it) changed and signed again, or nil when `input` holds no
    /// readable container with content.
    mutating func editPayload(_ input: [UInt8]) -> [UInt8]? {
        guard case .success(let decoded) = InputDecoder.decode(input) else { return nil }
        let receipt = Receipt.read(decoded.bytes)
        guard let content = receipt.signedData.encapsulatedContent, !content.isDetached else { return nil }
        var signing = Signing()
        if let signer = receipt.signedData.signers.first {
            signing.digest = DigestAlgorithm(oid: signer.digestAlgorithm.oid) == .sha1 ? .sha1 : .sha256
            signing.signedAttributes = signer.signedAttributes != nil
        }
        if content.isConstructed || receipt.findings.contains(where: { $0.kind == .berIndefiniteLength }) {
            signing.layout = .ber
        }
        var payload: [UInt8]
        let blueprint = try? ReceiptBlueprint.of(receipt)
        let strategy = below(10)
        if strategy >= 8 {
            // The payload's structure and values edited (INTEGERs set to compared numbers, inside records too).
            payload = []
            for segment in content.segments { payload += receipt.bytes[segment] }
            var mutator = ASN1StructureMutator.forLibFuzzer(seed: random.next())
            guard let edited = mutator.mutate(payload) else { return nil }
            payload = edited
        } else if var blueprint, !blueprint.attributes.isEmpty, strategy > 0 {
            switch strategy {
            case 1...4: editValue(&blueprint)
            case 5: editRecord(&blueprint)
            case 6: dropOrRepeat(&blueprint)
            default: editHeader(&blueprint)
            }
            // Half the time the hash is recomputed for the expected device, so edits of the bundle id or the
            // opaque value still reach the checks after the hash check.
            if random.next() & 1 == 0 { try? blueprint.computeHash(forDevice: kit.deviceID) }
            blueprint.sorted = random.next() % 4 != 0
            payload = blueprint.payload
        } else {
            payload = []
            for segment in content.segments { payload += receipt.bytes[segment] }
            mutate(&payload, room: 256)
        }
        // The certificates and the container come on top: a payload this large cannot fit.
        guard payload.count < maxSize else { return nil }
        return try? ReceiptSigner(authority: kit.authority).sign(
            payload, digest: signing.digest,
            layout: signing.layout,
            signedAttributes: signing.signedAttributes)
    }

    /// Runs libFuzzer's mutator over `bytes`, letting them grow by up to `room` bytes.
    mutating func mutate(_ bytes: inout [UInt8], room: Int) {
        bytes = LibFuzzer.mutateBytes(bytes, room: room)
    }

    /// One top-level attribute's value bytes mutated.
    mutating func editValue(_ blueprint: inout ReceiptBlueprint) {
        let index = below(blueprint.attributes.count)
        mutate(&blueprint.attributes[index].value, room: 64)
    }

    /// One attribute of one in-app record mutated (a top-level value when there is no record).
    mutating func editRecord(_ blueprint: inout ReceiptBlueprint) {
        let records = blueprint.attributes.indices.filter {
            blueprint.attributes[$0].type == FieldTable.inAppRecordType
        }
        guard !records.isEmpty else { return editValue(&blueprint) }
        let index = records[below(records.count)]
        let spec = blueprint.attributes[index]
        guard var inner = ReceiptBlueprint.decodeRecord(spec.value), !inner.isEmpty else {
            return mutate(&blueprint.attributes[index].value, room: 64)
        }
        let field = below(inner.count)
        switch below(4) {
        case 0: inner.remove(at: field)
        case 1: inner.append(inner[field])
        default: mutate(&inner[field].value, room: 64)
        }
        blueprint.attributes[index] = AttributeSpec(
            type: spec.type, version: spec.version,
            value: AttributeSpec.record(inner, sorted: below(4) != 0).value)
    }

    /// An attribute removed, or repeated (next to itself or at the end).
    mutating func dropOrRepeat(_ blueprint: inout ReceiptBlueprint) {
        let index = below(blueprint.attributes.count)
        switch below(3) {
        case 0: blueprint.attributes.remove(at: index)
        case 1: blueprint.attributes.insert(blueprint.attributes[index], at: index)
        default: blueprint.attributes.append(blueprint.attributes[index])
        }
    }

    /// One attribute's type or version changed to a nearby or boundary number.
    mutating func editHeader(_ blueprint: inout ReceiptBlueprint) {
        let index = below(blueprint.attributes.count)
        let interesting: [Int64] = [0, 1, 2, 3, 4, 5, 12, 17, 19, 21, -1, 1701, 1708, Int64.max, Int64.min]
        let number =
            below(2) == 0
            ? interesting[below(interesting.count)]
            : blueprint.attributes[index].type &+ Int64(below(5)) &- 2
        if below(2) == 0 {
            blueprint.attributes[index].type = number
        } else {
            blueprint.attributes[index].version = number
        }
    }
}
