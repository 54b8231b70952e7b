import Foundation
import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptModel
import ReceiptSuite

/// Flaws in the shape of the payload: attribute field counts, INTEGER edge values, SET games, duplicates,
/// missing attributes.
enum StructureMutations {
    static let all: [Mutation] =
        [
            Mutation(
                "attribute-two-fields", .structure, layer: "payload", expected: .reject,
                finding: .attributeFieldCount, "the bundle id attribute has no value field"
            ) { workspace in
                try workspace.replaceEncoded(type: 2) { spec in
                    sequence {
                        $0.appendInteger(spec.type)
                        $0.appendInteger(spec.version)
                    }
                }
            },
            Mutation(
                "attribute-four-fields", .structure, layer: "payload", expected: .reject,
                finding: .attributeFieldCount, "the bundle id attribute has a fourth field"
            ) { workspace in
                try workspace.replaceEncoded(type: 2) { spec in
                    sequence {
                        $0.appendInteger(spec.type)
                        $0.appendInteger(spec.version)
                        $0.appendOctetString(spec.value)
                        $0.appendOctetString(Array("com.attacker.app".utf8))
                    }
                }
            },
            Mutation(
                "type-negative", .structure, layer: "payload", expected: .accept, finding: nil,
                "an extra attribute of type -2 (an unknown type a validator must ignore)"
            ) { workspace in
                workspace.blueprint.attributes.append(.utf8(-2, "com.attacker.app"))
            },
            Mutation(
                "type-2-pow-63", .structure, layer: "payload", expected: .reject,
                finding: .attributeTypeOutOfRange,
                "the bundle id's type is 2^63 + 2, a 9-byte INTEGER whose low byte is 2"
            ) { workspace in
                try workspace.replaceEncoded(type: 2) { spec in
                    sequence {
                        $0.appendIntegerContent([0x00, 0x80, 0, 0, 0, 0, 0, 0, 0x02])
                        $0.appendInteger(spec.version)
                        $0.appendOctetString(spec.value)
                    }
                }
            },
            Mutation(
                "version-2-pow-63", .structure, layer: "payload", expected: .accept, finding: nil,
                "the bundle id's version is 2^63, which does not fit 64 bits signed (versions carry no meaning)"
            ) {
                workspace in
                try workspace.replaceEncoded(type: 2) { spec in
                    sequence {
                        $0.appendInteger(spec.type)
                        $0.appendIntegerContent([0x00, 0x80, 0, 0, 0, 0, 0, 0, 0])
                        $0.appendOctetString(spec.value)
                    }
                }
            },
            Mutation(
                "value-not-octet-string", .structure, layer: "payload", expected: .reject,
                finding: .attributeValueNotOctetString,
                "the bundle id's value is a bare UTF8String, not wrapped in an OCTET STRING"
            ) { workspace in
                try workspace.replaceEncoded(type: 2) { spec in
                    sequence {
                        $0.appendInteger(spec.type)
                        $0.appendInteger(spec.version)
                        $0.appendRaw(spec.value)
                    }
                }
            },
            Mutation(
                "payload-unsorted", .structure, layer: "payload", expected: .accept, finding: .berUnsortedSet,
                "the attribute SET is in reverse DER order"
            ) { workspace in
                workspace.blueprint.attributes = PayloadOrder.derSorted(workspace.blueprint.attributes).reversed()
                workspace.blueprint.sorted = false
            },
            Mutation(
                "payload-sequence", .structure, layer: "payload", expected: .reject, finding: .payloadNotSet,
                "the payload is a SEQUENCE instead of a SET"
            ) { workspace in
                var payload = workspace.blueprint.payload
                payload[0] = 0x30
                workspace.blueprint.payloadOverride = payload
            },
            Mutation(
                "payload-second-set", .structure, layer: "payload", expected: .reject,
                finding: .payloadTrailingBytes,
                "a second attribute SET, holding another bundle id, follows the payload inside the signed content"
            ) { workspace in
                // SET { SEQUENCE { INTEGER 2, INTEGER 1, OCTET STRING { UTF8String } } }, short lengths throughout.
                let text = Array("com.attacker.app".utf8)
                let value = [0x0C, UInt8(text.count)] + text
                let attribute = [0x02, 0x01, 0x02, 0x02, 0x01, 0x01, 0x04, UInt8(value.count)] + value
                let sequence = [0x30, UInt8(attribute.count)] + attribute
                workspace.blueprint.payloadOverride =
                    workspace.blueprint.payload + [0x31, UInt8(sequence.count)] + sequence
            },
            Mutation(
                "payload-application-tag", .structure, layer: "payload", expected: .reject,
                finding: .payloadNotSet, "the payload SET is tagged [APPLICATION 17]"
            ) { workspace in
                var payload = workspace.blueprint.payload
                payload[0] = 0x71
                workspace.blueprint.payloadOverride = payload
            },
            Mutation(
                "payload-empty-set", .structure, layer: "payload", expected: .reject,
                finding: .missingRequiredAttribute, "the payload is an empty SET"
            ) { workspace in
                workspace.blueprint.attributes = []
            },
            Mutation(
                "duplicate-bundle-id-first", .structure, layer: "payload", expected: .reject,
                finding: .duplicateAttribute,
                "a second bundle id (another app's) comes first in the SET"
            ) { workspace in
                workspace.blueprint.attributes = PayloadOrder.derSorted(workspace.blueprint.attributes)
                workspace.blueprint.attributes.insert(.utf8(2, "com.attacker.app"), at: 0)
                workspace.blueprint.sorted = false
            },
            Mutation(
                "duplicate-bundle-id-last", .structure, layer: "payload", expected: .reject,
                finding: .duplicateAttribute,
                "a second bundle id (another app's) comes last in the SET"
            ) { workspace in
                workspace.blueprint.attributes = PayloadOrder.derSorted(workspace.blueprint.attributes)
                workspace.blueprint.attributes.append(.utf8(2, "com.attacker.app"))
                workspace.blueprint.sorted = false
            },
            Mutation(
                "unknown-type-flood", .structure, layer: "payload", expected: .accept, finding: nil,
                "1 000 attributes of unknown types 1000–1999 with random values"
            ) { workspace in
                for type in Int64(1000)..<2000 {
                    let length = Int(workspace.random.next() % 24)
                    let value = (0..<length).map { _ in UInt8(truncatingIfNeeded: workspace.random.next()) }
                    workspace.blueprint.attributes.append(.raw(type, value))
                }
            },
        ]
        + [(2, "bundle id"), (3, "app version"), (4, "opaque value"), (5, "SHA-1 hash"), (12, "creation date")].map {
            type, label in
            Mutation(
                "missing-\(label.replacingOccurrences(of: " ", with: "-").lowercased())", .structure,
                layer: "payload", expected: .reject, finding: .missingRequiredAttribute,
                "the \(label) attribute (type \(type)) is removed"
            ) { workspace in
                workspace.blueprint.remove(Int64(type))
            }
        }

    /// One attribute SEQUENCE written by hand.
    static func sequence(_ fields: (inout ASN1Writer) -> Void) -> [UInt8] {
        var writer = ASN1Writer()
        writer.appendConstructed(.sequence) { writer in fields(&writer) }
        return writer.bytes
    }
}

/// DER SET OF order for attribute lists.
enum PayloadOrder {
    static func derSorted(_ attributes: [AttributeSpec]) -> [AttributeSpec] {
        attributes.sorted { $0.encoded.lexicographicallyPrecedes($1.encoded) }
    }
}

extension MutationWorkspace {
    /// Replaces the first attribute of `type` by a hand-written encoding, writing the payload from the others
    /// (in DER order) plus that encoding.
    mutating func replaceEncoded(type: Int64, _ encode: (AttributeSpec) -> [UInt8]) throws(MutationError) {
        guard let index = blueprint.attributes.firstIndex(where: { $0.type == type }) else {
            throw MutationError(.attributeMissing, "the input has no attribute of type \(type)")
        }
        var encodings = blueprint.attributes.map(\.encoded)
        encodings[index] = encode(blueprint.attributes[index])
        encodings.sort { $0.lexicographicallyPrecedes($1) }
        var writer = ASN1Writer()
        writer.appendConstructed(.set) { writer in for encoding in encodings { writer.appendRaw(encoding) } }
        blueprint.payloadOverride = writer.bytes
    }
}
