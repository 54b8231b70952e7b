import ReceiptASN1
import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// What to build: the payload's attributes as exact bytes, in order, and how to sign it. Mutations edit this before
/// the receipt is (re-)signed.
public struct ReceiptBlueprint: Sendable {
    /// Top-level attributes in order; type-17 values are whole record SETs.
    public var attributes: [AttributeSpec]
    /// Write the attribute SET in DER order (as Apple does) or in the order given.
    public var sorted = true
    /// Exact payload bytes to sign instead of the attributes (for structural mutations).
    package var payloadOverride: [UInt8]?
    public var digest: DigestAlgorithm = .sha256
    public var layout: ContainerLayout = .der
    public var signedAttributes = false

    public init(attributes: [AttributeSpec]) {
        self.attributes = attributes
    }

    /// The payload bytes to sign.
    public var payload: [UInt8] { payloadOverride ?? PayloadBuilder.attributeSet(attributes, sorted: sorted) }

    /// The blueprint of a receipt as read: every top-level attribute with its exact value bytes, and the input's
    /// digest algorithm, layout and use of signed attributes.
    public static func of(_ receipt: Receipt) throws(MutationError) -> ReceiptBlueprint {
        guard let payload = receipt.payload, payload.error == nil, receipt.error == nil else {
            let reason = receipt.error.map { $0.description } ?? "it has no payload"
            throw MutationError(.inputUnreadable, "the input receipt cannot be read completely: \(reason)")
        }
        var blueprint = ReceiptBlueprint(attributes: [])
        blueprint.attributes = payload.attributes.compactMap(\.spec)
        if let signer = receipt.signedData.signers.first {
            blueprint.digest = DigestAlgorithm(oid: signer.digestAlgorithm.oid) == .sha1 ? .sha1 : .sha256
            blueprint.signedAttributes = signer.signedAttributes != nil
        }
        blueprint.layout = receipt.encoding.counts[.berIndefiniteLength] != nil ? .ber : .der
        return blueprint
    }

    // MARK: - Attribute edits

    /// The first attribute of `type`.
    public func first(_ type: Int64) -> AttributeSpec? { attributes.first { $0.type == type } }

    /// The first attribute named `field`.
    public func first(_ field: ReceiptField) -> AttributeSpec? { first(field.rawValue) }

    /// Replaces the first attribute of `spec.type` (keeping its position) or appends `spec`.
    public mutating func set(_ spec: AttributeSpec) {
        if let index = attributes.firstIndex(where: { $0.type == spec.type }) {
            attributes[index] = spec
        } else {
            attributes.append(spec)
        }
    }

    /// Removes every attribute of `type`.
    public mutating func remove(_ type: Int64) { attributes.removeAll { $0.type == type } }

    /// The text of the first UTF8String/IA5String attribute of `type`.
    public func text(_ type: Int64) -> String? {
        guard let value = first(type)?.value, value.count >= 2 else { return nil }
        var reader = ASN1Reader(value)
        guard let node = try? reader.readSingle(in: 0..<value.count, depth: 0) else { return nil }
        return ASN1Primitives.utf8String(value, node.contentRange)
    }

    /// Sets type 5 to SHA-1(device ‖ opaque value ‖ bundle id attribute bytes), as a genuine receipt for `device`.
    public mutating func computeHash(forDevice device: [UInt8]) throws(MutationError) {
        guard let opaque = first(.opaqueValue)?.value, let bundle = first(.bundleID)?.value else { return }
        do {
            let hash = try Digest.hash([device[...], opaque[...], bundle[...]], algorithm: .sha1)
            set(.raw(5, hash))
        } catch {
            throw MutationError(.digestFailed, error.message)
        }
    }

    // MARK: - In-app records

    /// The attributes of each type-17 record, decoded from their SETs.
    public var records: [[AttributeSpec]] {
        attributes.filter { $0.type == 17 }.compactMap { Self.decodeRecord($0.value) }
    }

    /// Edits the first in-app record (adding a plausible one first when the receipt has none).
    package mutating func editFirstRecord(_ edit: (inout [AttributeSpec]) -> Void) {
        if !attributes.contains(where: { $0.type == 17 }) {
            let bundle = text(2) ?? "com.example.app"
            attributes.append(.record(Self.plausibleRecord(bundleID: bundle, transaction: "1000000000000001")))
        }
        guard let index = attributes.firstIndex(where: { $0.type == 17 }),
            var record = Self.decodeRecord(attributes[index].value)
        else { return }
        edit(&record)
        attributes[index] = .record(record)
    }

    /// A record like those the App Store writes.
    package static func plausibleRecord(bundleID: String, transaction: String) -> [AttributeSpec] {
        [
            .integer(1701, 1), .utf8(1702, bundleID + ".monthly"), .utf8(1703, transaction),
            .ia5(1704, "2024-01-01T00:00:00Z"), .utf8(1705, transaction), .ia5(1706, "2024-01-01T00:00:00Z"),
            .ia5(1708, "2024-02-01T00:00:00Z"), .integer(1711, 1_000_000_000_001), .ia5(1712, ""),
            .integer(1713, 0), .integer(1719, 0),
        ]
    }

    /// The attributes of a record SET, as the payload reader reads it, or nil when the bytes are not a SET of
    /// well-formed `SEQUENCE { INTEGER, INTEGER, OCTET STRING }` attributes.
    public static func decodeRecord(_ bytes: [UInt8]) -> [AttributeSpec]? {
        let record = PayloadReader.readRecord(bytes)
        guard record.error == nil, record.tag == .set,
            !record.findings.contains(where: { Self.malformedAttribute.contains($0.kind) })
        else { return nil }
        let specs = record.attributes.compactMap(\.spec)
        return specs.count == record.attributes.count ? specs : nil
    }

    /// Findings that say an attribute is not `SEQUENCE { INTEGER, INTEGER, OCTET STRING }`.
    static let malformedAttribute: Set<FindingCode> = [
        .attributeNotSequence, .attributeFieldCount, .attributeMalformed, .attributeTypeNotInteger,
        .attributeTypeOutOfRange, .attributeVersionNotInteger, .attributeValueNotOctetString,
        .attributeValueConstructed, .payloadTrailingBytes, .payloadNotSet,
    ]
}
