import Foundation
import ReceiptASN1
import ReceiptCaching
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases

/// The x5c certificates, in order (leaf first): each element must be a string of standard base64 with its padding
/// and no line breaks (RFC 7515 §4.1.6), of a certificate in DER. Each element's text is decoded once per process
/// (`X5CElement`); the findings are each token's own, at its offset. A header whose x5c gave no finding is
/// remembered with its certificates (every token of an era carries the same header): the next token with the same
/// decoded header skips reading its x5c strings.
struct TokenCertificates: TokenCheck {
    private static let byHeader = SharedCache<SampledBytes, [Result<Certificate, CryptoError>]>(capacity: 256)

    /// The x5c elements read: Apple's chains have three.
    static let maximumRead = 16

    /// Forgets every header's certificates (tests judge with a cold cache so).
    static func removeAll() { byHeader.removeAll() }

    func check(_ judgement: inout TokenJudgement) {
        let (certificates, findings) = Self.x5c(judgement.token, at: judgement.headerStart)
        judgement.certificates = certificates
        judgement.findings += findings
    }

    static func x5c(_ token: JWSToken, at offset: Int) -> ([Result<Certificate, CryptoError>], [Finding]) {
        let key = SampledBytes(token.headerBytes)
        if let known = byHeader.value(key) { return (known, []) }
        let (certificates, findings) = read(token, at: offset)
        if findings.isEmpty && key.isSmallEnoughToKeep { byHeader.set(key, certificates) }
        return (certificates, findings)
    }

    private static func read(_ token: JWSToken, at offset: Int) -> ([Result<Certificate, CryptoError>], [Finding]) {
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
        let all = header.children(of: array)
        let elements = all.prefix(Self.maximumRead)
        let texts = elements.map { header.nodes[$0].kind == .string ? (header.string($0) ?? "") : header.text($0) }
        var findings: [Finding] = []
        if all.count > Self.maximumRead {
            // Said with the true count (a red team's trial: 20 and 900 certificates were both "16").
            findings.append(
                Finding(
                    .jwsX5cLength, at: offset,
                    "x5c holds \(all.count) certificates, more than the \(Self.maximumRead) rcpt reads; Apple's holds leaf, WWDR intermediate and root"
                ))
        }
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
            let element = X5CElement.decoded(Array(texts[index].utf8))
            guard element.isBase64 else {
                findings.append(
                    Finding(
                        .jwsX5cEncoding, at: offset, "x5c[\(index)] is not base64",
                        fields: [FindingField("index", String(index))]))
                certificates.append(element.certificate)
                continue
            }
            let problems = element.problems
            if case .failure(let error) = element.certificate {
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
            certificates.append(element.certificate)
        }
        return (certificates, findings)
    }
}
