/// The encoding rules a read enforces. BER accepts every X.690 encoding and records non-canonical choices as
/// anomalies; DER turns those same anomalies into errors.
public enum ASN1Rules: Sendable, Hashable {
    case ber
    case der
}

/// Non-canonical choices in one element's identifier and length octets. Legal in BER, forbidden in DER.
public struct ASN1HeaderAnomalies: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Long-form length where the short form fits, or a length with leading zero octets.
    @inlinable package static var nonMinimalLength: ASN1HeaderAnomalies { ASN1HeaderAnomalies(rawValue: 1 << 0) }
    /// High-tag-number form for a number below 31, or a tag number with a leading 0x80 octet.
    @inlinable public static var nonMinimalTag: ASN1HeaderAnomalies { ASN1HeaderAnomalies(rawValue: 1 << 1) }
    /// Length octet 0x80: the content ends at an end-of-contents marker.
    @inlinable package static var indefiniteLength: ASN1HeaderAnomalies { ASN1HeaderAnomalies(rawValue: 1 << 2) }
    /// A string type (OCTET STRING, UTF8String, …) in constructed form.
    @inlinable package static var constructedString: ASN1HeaderAnomalies { ASN1HeaderAnomalies(rawValue: 1 << 3) }
    /// Not an encoding choice but damage: the element runs past the end of the input and was cut there
    /// (only when the reader tolerates truncation).
    @inlinable public static var truncated: ASN1HeaderAnomalies { ASN1HeaderAnomalies(rawValue: 1 << 4) }
}
