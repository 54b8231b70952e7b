import ReceiptASN1
import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptSuite

/// Flaws in what the signature is over and how it is named: signed attributes that break RFC 5652's rules
/// (§5.3, §11.1, §11.2) while the signature over them is genuine, and signature and digest algorithms that do not
/// fit the key or are not what was used.
enum SignedAttributeMutations {
    static let contentType = ObjectIdentifierNames.contentTypeAttribute
    static let messageDigest = ObjectIdentifierNames.messageDigestAttribute

    static let all: [Mutation] = [
        signedAttributes(
            "signed-attributes-no-content-type", finding: .contentTypeAttributeMissing,
            "signed attributes with messageDigest but no contentType"
        ) { digest in
            [attribute(messageDigest, octets(digest))]
        },
        signedAttributes(
            "signed-attributes-content-type-mismatch", finding: .contentTypeAttributeMismatch,
            "the signed contentType attribute says id-ct-TSTInfo while the eContentType is pkcs7-data"
        ) {
            digest in
            [attribute(contentType, oid("1.2.840.113549.1.9.16.1.4")), attribute(messageDigest, octets(digest))]
        },
        signedAttributes(
            "signed-attributes-two-message-digests", finding: .signedAttributeDuplicate,
            "two messageDigest attributes, a wrong one first and the content's digest second"
        ) {
            digest in
            [
                attribute(contentType, oid(ObjectIdentifierNames.data)),
                attribute(messageDigest, octets([UInt8](repeating: 0x5A, count: digest.count))),
                attribute(messageDigest, octets(digest)),
            ]
        },
        signedAttributes(
            "signed-attributes-message-digest-two-values", finding: .signedAttributeValueCount,
            "one messageDigest attribute holding two values, a wrong one and the content's digest"
        ) {
            digest in
            [
                attribute(contentType, oid(ObjectIdentifierNames.data)),
                SignedDataBuilder.attribute(
                    messageDigest,
                    values: [
                        octets([UInt8](repeating: 0x5A, count: digest.count)),
                        octets(digest),
                    ]),
            ]
        },
        signedAttributes(
            "signed-attributes-duplicate-content-type", finding: .signedAttributeDuplicate,
            "the contentType attribute occurs twice"
        ) { digest in
            [
                attribute(contentType, oid(ObjectIdentifierNames.data)),
                attribute(contentType, oid(ObjectIdentifierNames.data)),
                attribute(messageDigest, octets(digest)),
            ]
        },
        signedAttributes(
            "signed-attributes-not-der", finding: .signedAttributesNotDer,
            "the signed attributes are not in DER SET OF order (messageDigest before contentType)"
        ) {
            digest in
            [attribute(messageDigest, octets(digest)), attribute(contentType, oid(ObjectIdentifierNames.data))]
        },
        algorithm(
            "signature-algorithm-pss", oid: "1.2.840.113549.1.1.10", finding: .signatureAlgorithmUnsupported,
            "the signature algorithm says RSASSA-PSS over a PKCS#1 v1.5 signature"),
        algorithm(
            "signature-algorithm-ecdsa-on-rsa-key", oid: "1.2.840.10045.4.3.2",
            finding: .signatureAlgorithmKeyMismatch,
            "the signature algorithm says ecdsa-with-SHA256 for an RSA key"),
        algorithm(
            "signature-algorithm-dsa", oid: "2.16.840.1.101.3.4.3.2", finding: .signatureAlgorithmUnsupported,
            "the signature algorithm says dsa-with-SHA256"),
        algorithm(
            "signature-algorithm-md5-rsa", oid: "1.2.840.113549.1.1.4",
            finding: .signatureAlgorithmUnsupported,
            "the signature algorithm says md5WithRSAEncryption"),
        algorithm(
            "signature-algorithm-unknown", oid: "1.3.6.1.4.1.99999.1", finding: .signatureAlgorithmUnsupported,
            "the signature algorithm is an OID no standard defines"),
        Mutation(
            "digest-algorithm-md5", .signature, layer: "signature", expected: .reject,
            finding: .signatureUnsupportedDigest, signatureValid: false,
            "the SignerInfo and SignedData name MD5 as the digest algorithm"
        ) { workspace in
            workspace.tweak { builder in
                builder.digestAlgorithmOID = "1.2.840.113549.2.5"
                builder.declaredDigestAlgorithmOIDs = ["1.2.840.113549.2.5"]
            }
        },
        Mutation(
            "signature-algorithm-with-digest", .signature, layer: "signature", expected: .accept, finding: nil,
            "the signature algorithm names the digest too (sha…WithRSAEncryption instead of rsaEncryption)"
        ) {
            workspace in
            let oid = workspace.blueprint.digest == .sha1 ? "1.2.840.113549.1.1.5" : "1.2.840.113549.1.1.11"
            workspace.tweak { $0.signatureAlgorithmOID = oid }
        },
    ]

    /// Signed attributes built by `list` from the content digest; the signature over them is genuine.
    static func signedAttributes(
        _ name: String, finding: FindingCode, _ summary: String,
        _ list: @escaping @Sendable ([UInt8]) -> [[UInt8]]
    ) -> Mutation {
        Mutation(name, .signature, layer: "signature", expected: .reject, finding: finding, summary) { workspace in
            workspace.blueprint.signedAttributes = true
            workspace.tweak { $0.signedAttributeList = list }
        }
    }

    /// The signatureAlgorithm replaced by `oid` over a genuine PKCS#1 v1.5 signature.
    static func algorithm(_ name: String, oid: String, finding: FindingCode, _ summary: String) -> Mutation {
        Mutation(name, .signature, layer: "signature", expected: .reject, finding: finding, summary) { workspace in
            workspace.tweak { $0.signatureAlgorithmOID = oid }
        }
    }

    static func attribute(_ type: String, _ value: [UInt8]) -> [UInt8] {
        SignedDataBuilder.attribute(type, values: [value])
    }

    static func octets(_ bytes: [UInt8]) -> [UInt8] { ContainerMutations.octetString(bytes) }

    static func oid(_ dotted: String) -> [UInt8] {
        var writer = ASN1Writer()
        writer.appendObjectIdentifier(dotted)
        return writer.bytes
    }
}
