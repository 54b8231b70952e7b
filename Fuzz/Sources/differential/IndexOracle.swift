import FuzzSupport
import ReceiptModel
import SwiftASN1

/// The payload index against swift-asn1 on the same bytes. Where swift-asn1 reads the input as a SET, the index
/// holds as many top-level attributes, each at the offset and of the length swift-asn1 gives; where an attribute is
/// `SEQUENCE { INTEGER, INTEGER, primitive OCTET STRING }` and swift-asn1 reads both INTEGERs, the type, version
/// and value octets agree; and where such a type-17 value reads as a SET, the record holds as many attributes.
enum IndexOracle {
    static func check(_ harness: String, _ bytes: [UInt8]) {
        guard let root = try? BER.parse(bytes), root.encodedBytes.count == bytes.count,
            root.identifier == .set, case .constructed(let children) = root.content
        else { return }
        let payload = PayloadReader.read(
            file: bytes, segments: [0..<bytes.count], depth: 0, limits: .default,
            nodesRead: 0)
        // Our reader stops at its node budget and depth limit where swift-asn1 may not: compare complete reads.
        guard payload.error == nil else { return }
        let theirs = Array(children)
        let ours = payload.attributes
        guard ours.count == theirs.count else {
            Fuzz.fail(
                harness, "the index holds \(ours.count) attributes, swift-asn1 reads \(theirs.count)",
                input: bytes)
        }
        for (attribute, node) in zip(ours, theirs) {
            let start = node.encodedBytes.startIndex - bytes.startIndex
            guard attribute.offset == start, attribute.length == node.encodedBytes.count else {
                Fuzz.fail(
                    harness,
                    "attribute at \(attribute.offset)+\(attribute.length), swift-asn1's at "
                        + "\(start)+\(node.encodedBytes.count)", input: bytes)
            }
            guard node.identifier == .sequence, case .constructed(let fieldNodes) = node.content else { continue }
            let fields = Array(fieldNodes)
            guard fields.count == 3, fields[0].identifier == .integer, fields[1].identifier == .integer,
                fields[2].identifier == .octetString, case .primitive(let value) = fields[2].content,
                let type = try? Int64(berEncoded: fields[0]), let version = try? Int64(berEncoded: fields[1])
            else { continue }
            guard attribute.type == type, attribute.version == version, attribute.valueBytes.elementsEqual(value) else {
                Fuzz.fail(
                    harness,
                    "attribute at \(start): ours type \(String(describing: attribute.type)) version "
                        + "\(String(describing: attribute.version)) \(attribute.valueBytes.count) value octets, "
                        + "swift-asn1's \(type) \(version) \(value.count)", input: bytes)
            }
            guard let record = attribute.record, let inner = try? BER.parse(Array(value)),
                inner.identifier == .set, case .constructed(let recordChildren) = inner.content
            else { continue }
            let count = Array(recordChildren).count
            guard record.attributes.count == count else {
                Fuzz.fail(
                    harness,
                    "record at \(record.offset): \(record.attributes.count) attributes indexed, "
                        + "swift-asn1 reads \(count)", input: bytes)
            }
        }
    }
}
