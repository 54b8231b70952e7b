import ReceiptASN1
import ReceiptBuilding
import ReceiptModel
import ReceiptPKCS7

/// Receipts wrapped in a SignedData with a dummy signature and no certificates: for tests of the reading layers,
/// which do not verify anything.
package enum UnsignedReceipts {
    /// A container around `payload` (any bytes), DER or Xcode-style BER.
    package static func wrap(_ payload: [UInt8], layout: ContainerLayout = .der) -> [UInt8] {
        let builder = SignedDataBuilder(
            content: payload, certificates: [], signerIssuer: [0x30, 0x00],
            signerSerial: [0x01], digestAlgorithmOID: "2.16.840.1.101.3.4.2.1",
            layout: layout)
        return builder.build(digest: { _ in [] }, sign: { _ in [UInt8](repeating: 0, count: 16) })
    }

    /// One attribute SEQUENCE written field by field (so tests can make it wrong).
    package static func attribute(_ fields: (inout ASN1Writer) -> Void) -> [UInt8] {
        var writer = ASN1Writer()
        writer.appendConstructed(.sequence) { writer in fields(&writer) }
        return writer.bytes
    }

    /// A SET holding the given already-encoded elements, in the order given.
    package static func set(_ elements: [[UInt8]]) -> [UInt8] {
        var writer = ASN1Writer()
        writer.appendConstructed(.set) { writer in for element in elements { writer.appendRaw(element) } }
        return writer.bytes
    }

    /// A well-formed minimal payload's attributes (bundle id, version, creation date), encoded.
    package static let basics: [[UInt8]] = [
        AttributeSpec.utf8(2, "com.example.app").encoded,
        AttributeSpec.utf8(3, "1").encoded,
        AttributeSpec.ia5(12, "2024-01-01T00:00:00Z").encoded,
    ]
}
