import ReceiptASN1
import ReceiptCaching
import ReceiptCrypto
import ReceiptDiagnostics

/// One x5c element's text, decoded: the certificate (or why there is none) and what is wrong with its encoding
/// (RFC 7515 §4.1.6 asks for standard base64 of DER, with its padding). Every token of an era carries the same
/// elements, so each distinct text is decoded once per process: a bounded cache, the least recently used forgotten.
/// Decoding is a function of the text alone, so a kept result, a failure too, is the one decoding again would give.
struct X5CElement: Sendable {
    var certificate: Result<Certificate, CryptoError>
    /// Whether the text is base64 of at least one byte.
    var isBase64: Bool
    /// What Apple's libraries would refuse in the encoding: base64url's alphabet, no padding, dropped bits set,
    /// a certificate that is not DER.
    var problems: [String]

    private static let cache = SharedCache<SampledBytes, X5CElement>(capacity: 512)

    /// Forgets every element (tests judge with a cold cache so).
    static func removeAll() { cache.removeAll() }

    /// The element whose text is `text`.
    static func decoded(_ text: [UInt8]) -> X5CElement {
        let key = SampledBytes(text)
        if let known = cache.value(key) { return known }
        let element = decode(text)
        if key.isSmallEnoughToKeep { cache.set(key, element) }
        return element
    }

    private static func decode(_ text: [UInt8]) -> X5CElement {
        guard case .success(let result) = Base64Codec.decode(text, skippingWhitespace: false), !result.bytes.isEmpty
        else {
            return X5CElement(
                certificate: .failure(CryptoError(.x5cNotBase64, message: "not a base64 string")), isBase64: false,
                problems: [])
        }
        var problems: [String] = []
        if result.urlOffset != nil { problems.append("uses base64url's '-' or '_'") }
        if text.count % 4 != 0 { problems.append("lacks its '=' padding") }
        if result.nonZeroTrailingBits { problems.append("has bits set in its last character that decoding drops") }
        let certificate = Result { () throws(CryptoError) -> Certificate in
            try CertificateCache.shared.certificate(der: result.bytes[...])
        }
        if case .success(let decoded) = certificate, !decoded.isDistinguishedEncoding {
            problems.append("is not DER (a BER length or another non-canonical encoding)")
        }
        return X5CElement(certificate: certificate, isBase64: true, problems: problems)
    }
}
