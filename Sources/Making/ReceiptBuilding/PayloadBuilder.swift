import ReceiptASN1
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// One attribute to write: type, version and the exact value OCTET STRING content.
public struct AttributeSpec: Sendable, Hashable {
    public var type: Int64
    public var version: Int64
    public var value: [UInt8]

    public init(type: Int64, version: Int64 = 1, value: [UInt8]) {
        self.type = type
        self.version = version
        self.value = value
    }

    /// A UTF8String value.
    public static func utf8(_ type: Int64, _ text: String, version: Int64 = 1) -> AttributeSpec {
        AttributeSpec(type: type, version: version, value: encode { $0.appendUTF8String(text) })
    }

    /// An IA5String value (dates, age rating).
    public static func ia5(_ type: Int64, _ text: String, version: Int64 = 1) -> AttributeSpec {
        AttributeSpec(type: type, version: version, value: encode { $0.appendIA5String(text) })
    }

    /// An INTEGER value.
    public static func integer(_ type: Int64, _ number: Int64, version: Int64 = 1) -> AttributeSpec {
        AttributeSpec(type: type, version: version, value: encode { $0.appendInteger(number) })
    }

    /// Raw bytes as the value (opaque value, hash).
    public static func raw(_ type: Int64, _ bytes: [UInt8], version: Int64 = 1) -> AttributeSpec {
        AttributeSpec(type: type, version: version, value: bytes)
    }

    /// A type-17 in-app record holding `attributes`.
    public static func record(_ attributes: [AttributeSpec], sorted: Bool = true) -> AttributeSpec {
        AttributeSpec(type: 17, version: 1, value: PayloadBuilder.attributeSet(attributes, sorted: sorted))
    }

    private static func encode(_ body: (inout ASN1Writer) -> Void) -> [UInt8] {
        var writer = ASN1Writer()
        body(&writer)
        return writer.bytes
    }

    /// This attribute's DER SEQUENCE.
    public var encoded: [UInt8] {
        var writer = ASN1Writer(reservingCapacity: value.count + 16)
        writer.appendConstructed(.sequence) { writer in
            writer.appendInteger(type)
            writer.appendInteger(version)
            writer.appendOctetString(value)
        }
        return writer.bytes
    }
}

/// Writes receipt payloads: a DER SET OF attribute SEQUENCEs, in DER order unless told otherwise.
public enum PayloadBuilder {
    /// The SET encoding of `attributes`; `sorted` puts them in DER SET OF order (as Apple's receipts are).
    public static func attributeSet(_ attributes: [AttributeSpec], sorted: Bool = true) -> [UInt8] {
        var encodings = attributes.map(\.encoded)
        if sorted { encodings.sort { $0.lexicographicallyPrecedes($1) } }
        var writer = ASN1Writer(reservingCapacity: encodings.reduce(16) { $0 + $1.count })
        writer.appendConstructed(.set) { writer in
            for encoding in encodings { writer.appendRaw(encoding) }
        }
        return writer.bytes
    }
}

extension Attribute {
    /// The attribute as a builder writes it again: type, version and value octets (nil without a readable type
    /// or value).
    public var spec: AttributeSpec? {
        guard let type, index.table.valueRange(entry) != nil else { return nil }
        return AttributeSpec(type: type, version: version ?? 1, value: Array(valueBytes))
    }
}
