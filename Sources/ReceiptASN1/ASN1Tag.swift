/// The class bits of an ASN.1 identifier octet.
public enum ASN1TagClass: UInt8, Sendable, Hashable {
    case universal = 0
    case application = 1
    case contextSpecific = 2
    case `private` = 3
}

/// An ASN.1 tag: class, primitive/constructed form and number (X.690 §8.1.2).
extension ASN1TagClass {
    /// The class of an identifier octet's top two bits (`bits` is 0...3; larger values keep their low two bits).
    @inlinable
    public init(bits: UInt8) {
        switch bits & 3 {
        case 0: self = .universal
        case 1: self = .application
        case 2: self = .contextSpecific
        default: self = .private
        }
    }
}

public struct ASN1Tag: Sendable, Hashable {
    public var tagClass: ASN1TagClass
    public var isConstructed: Bool
    public var number: UInt64

    @inlinable
    public init(_ tagClass: ASN1TagClass, number: UInt64, constructed: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = constructed
    }

    /// A universal tag in the given form.
    @inlinable
    public static func universal(_ number: UInt64, constructed: Bool = false) -> ASN1Tag {
        ASN1Tag(.universal, number: number, constructed: constructed)
    }

    /// A context-specific tag such as `[0]`.
    @inlinable
    public static func context(_ number: UInt64, constructed: Bool) -> ASN1Tag {
        ASN1Tag(.contextSpecific, number: number, constructed: constructed)
    }

    @inlinable public static var endOfContents: ASN1Tag { universal(0) }
    @inlinable public static var boolean: ASN1Tag { universal(1) }
    @inlinable public static var integer: ASN1Tag { universal(2) }
    @inlinable public static var bitString: ASN1Tag { universal(3) }
    @inlinable public static var octetString: ASN1Tag { universal(4) }
    @inlinable public static var null: ASN1Tag { universal(5) }
    @inlinable public static var objectIdentifier: ASN1Tag { universal(6) }
    @inlinable public static var utf8String: ASN1Tag { universal(12) }
    @inlinable public static var sequence: ASN1Tag { universal(16, constructed: true) }
    @inlinable public static var set: ASN1Tag { universal(17, constructed: true) }
    @inlinable public static var printableString: ASN1Tag { universal(19) }
    @inlinable public static var ia5String: ASN1Tag { universal(22) }
    @inlinable public static var utcTime: ASN1Tag { universal(23) }
    @inlinable public static var generalizedTime: ASN1Tag { universal(24) }

    /// The same tag in the other form (primitive ↔ constructed).
    public func withConstructed(_ constructed: Bool) -> ASN1Tag {
        ASN1Tag(tagClass, number: number, constructed: constructed)
    }

    /// Whether this universal tag names a string type, which BER allows in constructed form.
    @inlinable
    public var isStringType: Bool {
        guard tagClass == .universal else { return false }
        switch number {
        case 3, 4, 12, 18, 19, 20, 21, 22, 25, 26, 27, 28, 30: return true
        default: return false
        }
    }

    /// The identifier octets of this tag in minimal (DER) form.
    public var derIdentifier: [UInt8] {
        var first = tagClass.rawValue << 6 | (isConstructed ? 0x20 : 0)
        if number < 31 {
            first |= UInt8(truncatingIfNeeded: number)
            return [first]
        }
        first |= 0x1F
        var septets: [UInt8] = []
        var remaining = number
        repeat {
            septets.append(UInt8(truncatingIfNeeded: remaining & 0x7F))
            remaining >>= 7
        } while remaining > 0
        var result = [first]
        for (index, septet) in septets.reversed().enumerated() {
            result.append(index == septets.count - 1 ? septet : septet | 0x80)
        }
        return result
    }

    /// A short human name: `SEQUENCE`, `UTF8String`, `[0]`, `[APPLICATION 3]`.
    public var name: String {
        switch tagClass {
        case .universal:
            return ASN1Tag.universalNames[number] ?? "[UNIVERSAL \(number)]"
        case .contextSpecific:
            return "[\(number)]"
        case .application:
            return "[APPLICATION \(number)]"
        case .private:
            return "[PRIVATE \(number)]"
        }
    }

    private static let universalNames: [UInt64: String] = [
        0: "END OF CONTENTS", 1: "BOOLEAN", 2: "INTEGER", 3: "BIT STRING", 4: "OCTET STRING", 5: "NULL",
        6: "OBJECT IDENTIFIER", 7: "ObjectDescriptor", 8: "EXTERNAL", 9: "REAL", 10: "ENUMERATED",
        11: "EMBEDDED PDV", 12: "UTF8String", 13: "RELATIVE-OID", 16: "SEQUENCE", 17: "SET",
        18: "NumericString", 19: "PrintableString", 20: "T61String", 21: "VideotexString", 22: "IA5String",
        23: "UTCTime", 24: "GeneralizedTime", 25: "GraphicString", 26: "VisibleString", 27: "GeneralString",
        28: "UniversalString", 30: "BMPString",
    ]
}
