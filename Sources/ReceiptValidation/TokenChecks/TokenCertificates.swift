import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases

/// The x5c certificates, in order (leaf first): each element must be a string of standard base64 with its padding
/// and no line breaks (RFC 7515 §4.1.6), of a certificate in DER. Decoded once per chain and inspection.
struct TokenCertificates: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        let (certificates, findings) = Self.x5c(judgement.token, at: judgement.headerStart, cache: judgement.cache)
        judgement.certificates = certificates
        judgement.findings += findings
    }

    static func x5c(_ token: JWSToken, at offset: Int, cache: JWSInspector.ChainCache)
        -> ([Result<Certificate, CryptoError>], [Finding])
    {
        guard let header = token.header, let array = header.member("x5c", of: header.root) else {
            return (
                [],
                [
                    Finding(
                        .jwsX5cMissing, at: offset,
                        "the header has no x5c: there is no certificate to verify the signature with")
                ]
            )
        }
        guard header.nodes[array].kind == .array, !header.children(of: array).isEmpty else {
            return (
                [],
                [
                    Finding(
                        .jwsX5cMissing, at: offset,
                        "x5c is \(header.text(array).prefix(40)), not an array of certificates")
                ]
            )
        }
        let elements = header.children(of: array).prefix(16)
        let texts = elements.map { header.nodes[$0].kind == .string ? (header.string($0) ?? "") : header.text($0) }
        if let cached = cache.certificates[texts] { return cached }
        var findings: [Finding] = []
        var certificates: [Result<Certificate, CryptoError>] = []
        for (index, node) in elements.enumerated() {
            guard header.nodes[node].kind == .string else {
                findings.append(
                    Finding(
                        .jwsX5cEncoding, at: offset, "x5c[\(index)] is not a string",
                        fields: [FindingField("index", String(index))]))
                certificates.append(.failure(CryptoError(.x5cNotBase64, message: "not a string")))
                continue
            }
            let text = Array(texts[index].utf8)
            let decoded = Base64Codec.decode(text, skippingWhitespace: false)
            guard case .success(let result) = decoded, !result.bytes.isEmpty else {
                findings.append(
                    Finding(
                        .jwsX5cEncoding, at: offset, "x5c[\(index)] is not base64",
                        fields: [FindingField("index", String(index))]))
                certificates.append(.failure(CryptoError(.x5cNotBase64, message: "not a base64 string")))
                continue
            }
            var problems: [String] = []
            if result.urlOffset != nil { problems.append("uses base64url's '-' or '_'") }
            if text.count % 4 != 0 { problems.append("lacks its '=' padding") }
            if result.nonZeroTrailingBits { problems.append("has bits set in its last character that decoding drops") }
            let certificate = Result { () throws(CryptoError) -> Certificate in
                try Certificate(derEncoded: result.bytes)
            }
            if case .success(let decodedCertificate) = certificate, !decodedCertificate.isDistinguishedEncoding {
                problems.append("is not DER (a BER length or another non-canonical encoding)")
            }
            if case .failure(let error) = certificate {
                findings.append(
                    Finding(
                        .certificateUndecodable, at: offset,
                        "x5c[\(index)] is not an X.509 certificate: \(error.message)"))
            }
            if !problems.isEmpty {
                let shown = problems.joined(separator: ", ")
                findings.append(
                    Finding(
                        .jwsX5cEncoding, at: offset,
                        "x5c[\(index)] \(shown): Apple sends standard base64 of DER, and its libraries refuse anything else",
                        fields: [FindingField("index", String(index))]))
            }
            certificates.append(certificate)
        }
        cache.certificates[texts] = (certificates, findings)
        return (certificates, findings)
    }
}
