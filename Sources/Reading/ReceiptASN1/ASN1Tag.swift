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

    @inlinable package static var endOfContents: ASN1Tag { universal(0) }
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

    /// The name for a message that sets this tag against `other` ("expected SET …, found SET"): with the form,
    /// `primitive SET` or `constructed [0]`, when the two differ in nothing else, so the message says what differs.
    package func name(against other: ASN1Tag) -> String {
        guard tagClass == other.tagClass, number == other.number, isConstructed != other.isConstructed else {
            return name
        }
        return (isConstructed ? "constructed " : "primitive ") + name
    }

    /// A short human name: `SEQUENCE`, `UTF8String`, `[0]`, `[APPLICATION 3]`.
    public var name: String {
        switch tagClass {
        case .universal:
            return ASN1Tag.universalName(number).map { $0.description } ?? "[UNIVERSAL \(number)]"
        case .contextSpecific:
            return "[\(number)]"
        case .application:
            return "[APPLICATION \(number)]"
        case .private:
            return "[PRIVATE \(number)]"
        }
    }

    /// The name of a universal tag number, when it has one. A switch over static strings: names are read for
    /// every attribute the JSON dump writes, so no hashing and no allocation.
    package static func universalName(_ number: UInt64) -> StaticString? {
        switch number {
        case 0: return "END OF CONTENTS"
        case 1: return "BOOLEAN"
        case 2: return "INTEGER"
        case 3: return "BIT STRING"
        case 4: return "OCTET STRING"
        case 5: return "NULL"
        case 6: return "OBJECT IDENTIFIER"
        case 7: return "ObjectDescriptor"
        case 8: return "EXTERNAL"
        case 9: return "REAL"
        case 10: return "ENUMERATED"
        case 11: return "EMBEDDED PDV"
        case 12: return "UTF8String"
        case 13: return "RELATIVE-OID"
        case 16: return "SEQUENCE"
        case 17: return "SET"
        case 18: return "NumericString"
        case 19: return "PrintableString"
        case 20: return "T61String"
        case 21: return "VideotexString"
        case 22: return "IA5String"
        case 23: return "UTCTime"
        case 24: return "GeneralizedTime"
        case 25: return "GraphicString"
        case 26: return "VisibleString"
        case 27: return "GeneralString"
        case 28: return "UniversalString"
        case 30: return "BMPString"
        default: return nil
        }
    }
}
