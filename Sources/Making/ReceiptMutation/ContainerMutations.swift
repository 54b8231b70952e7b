import ReceiptASN1
import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptSigning
import ReceiptSuite

/// Flaws in the SignedData around a genuine signature: unsigned additions where RFC 5652 has no room (another
/// parser may read the unsigned copy), undecodable certificates and CRLs, bogus SignerInfos, and more parts than
/// any receipt needs. The signature over the content stays genuine in every one.
enum ContainerMutations {
    static let all: [Mutation] = [
        decoyAddition(
            "econtent-second-octet-string",
            "a second OCTET STRING holding another app's payload follows the content inside eContent [0]",
            after: \.eContent
        ) { octetString($0) },
        decoyAddition(
            "encapsulated-content-second-econtent",
            "a second eContent [0] with another app's payload follows the first in EncapsulatedContentInfo",
            after: \.encapsulatedContentInfo
        ) { explicitZero(octetString($0)) },
        decoyAddition(
            "content-info-extra-field", "a third field (an OCTET STRING) follows content [0] in the ContentInfo",
            after: \.contentInfo
        ) { octetString($0) },
        addition(
            "second-signed-data",
            "a second, unsigned SignedData with another app's payload follows the first inside content [0]"
        ) {
            workspace in
            let decoy = decoyPayload(workspace)
            workspace.tweak { builder in
                var copy = builder
                copy.content = decoy
                copy.unsignedAdditions = SignedDataBuilder.UnsignedAdditions()
                // The decoy ContentInfo's SignedData, signed by nobody: an empty signature.
                let contentInfo = copy.build(digest: { _ in [] }, sign: { _ in [] })
                builder.unsignedAdditions.contentInfoContent = [innerSignedData(of: contentInfo)]
            }
        },
        addition("signed-data-extra-field", "an extra SET follows signerInfos in SignedData") { workspace in
            workspace.tweak { $0.unsignedAdditions.signedData = [[0x31, 0x03, 0x02, 0x01, 0x01]] }
        },
        addition(
            "signer-info-extra-field",
            "unsigned attributes and then an extra OCTET STRING follow the signature in the SignerInfo"
        ) {
            workspace in
            let unsigned = unsignedAttributes()
            workspace.tweak { $0.unsignedAdditions.signerInfo = [unsigned, [0x04, 0x02, 0xDE, 0xAD]] }
        },
        Mutation(
            "certificate-undecodable", .signature, layer: "container", expected: .reject,
            finding: .certificateUndecodable,
            "an entry of the certificates set is a SEQUENCE that is not a certificate"
        ) { workspace in
            workspace.tweak { $0.certificates.append([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]) }
        },
        Mutation(
            "crl-undecodable", .signature, layer: "container", expected: .reject, finding: .crlUndecodable,
            "a crls [1] set whose one entry is not a CertificateList"
        ) { workspace in
            workspace.tweak { $0.crls = [[0x30, 0x03, 0x02, 0x01, 0x05]] }
        },
        Mutation(
            "bogus-signer-before-genuine", .signature, layer: "signature", expected: .reject,
            finding: .multipleSigners, signatureValid: false,
            "a SignerInfo with a random signature stands before the genuine one (validators that accept when any signer verifies fall for it)"
        ) {
            workspace in
            let extra = try bogusSignerInfo(workspace)
            workspace.tweak { $0.leadingSignerInfos = [extra] }
        },
        Mutation(
            "signer-infos-over-limit", .signature, layer: "container", expected: .reject,
            finding: .containerLimitExceeded, signatureValid: false,
            "40 copies of a bogus SignerInfo follow the genuine one (unbounded work for validators that verify each)"
        ) {
            workspace in
            let extra = try bogusSignerInfo(workspace)
            workspace.tweak { $0.extraSignerInfos = Array(repeating: extra, count: 40) }
        },
        Mutation(
            "certificates-over-limit", .signature, layer: "container", expected: .reject,
            finding: .containerLimitExceeded,
            "the certificates set holds the chain over and over, past the 16 certificates a reader reads"
        ) { workspace in
            workspace.tweak { builder in
                // Past the limit whatever the chain's length: 21 certificates of Apple's three, 18 of StoreKit's one.
                let copies = ContainerLimits.default.maximumCertificates / max(1, builder.certificates.count) + 2
                builder.certificates = Array(repeating: builder.certificates, count: copies).flatMap { $0 }
            }
        },
    ]

    /// An unsigned addition: rejected as `pkcs7-extra-content`, the signature itself still genuine.
    static func addition(
        _ name: String, _ summary: String,
        _ transform: @escaping @Sendable (inout MutationWorkspace) throws -> Void
    ) -> Mutation {
        Mutation(
            name, .signature, layer: "container", expected: .reject, finding: .pkcs7ExtraContent, summary,
            transform)
    }

    /// An unsigned copy of the payload naming another app, `wrapped` and added after the element `place` names.
    static func decoyAddition(
        _ name: String, _ summary: String,
        after place: any WritableKeyPath<SignedDataBuilder.UnsignedAdditions, [[UInt8]]> & Sendable,
        wrapped wrap: @escaping @Sendable ([UInt8]) -> [UInt8]
    ) -> Mutation {
        addition(name, summary) { workspace in
            let decoy = wrap(decoyPayload(workspace))
            workspace.tweak { $0.unsignedAdditions[keyPath: place] = [decoy] }
        }
    }

    /// The payload with another app's bundle id: what an unsigned copy would carry.
    static func decoyPayload(_ workspace: MutationWorkspace) -> [UInt8] {
        var decoy = workspace.blueprint
        decoy.set(.utf8(2, "com.attacker.decoy"))
        return decoy.payload
    }

    static func octetString(_ bytes: [UInt8]) -> [UInt8] {
        var writer = ASN1Writer()
        writer.appendOctetString(bytes)
        return writer.bytes
    }

    static func explicitZero(_ inner: [UInt8]) -> [UInt8] {
        var writer = ASN1Writer()
        writer.appendConstructed(.context(0, constructed: true)) { writer in writer.appendRaw(inner) }
        return writer.bytes
    }

    /// `[1] { SEQUENCE { signingTime-like OID, SET { NULL } } }`: a well-formed unsigned attribute set.
    static func unsignedAttributes() -> [UInt8] {
        var writer = ASN1Writer()
        writer.appendConstructed(.context(1, constructed: true)) { writer in
            writer.appendRaw(SignedDataBuilder.attribute("1.2.840.113549.1.9.6", values: [[0x05, 0x00]]))
        }
        return writer.bytes
    }

    /// The SignedData element inside a DER ContentInfo the builder wrote.
    static func innerSignedData(of contentInfo: [UInt8]) -> [UInt8] {
        var reader = ASN1Reader(contentInfo)
        guard let outer = try? reader.readSingle(in: 0..<contentInfo.count, depth: 0) else { return [] }
        var cursor = reader.children(of: outer)
        _ = try? reader.next(&cursor)
        guard let explicit = try? reader.next(&cursor) else { return [] }
        var inner = reader.children(of: explicit)
        guard let signed = try? reader.next(&inner) else { return [] }
        return Array(contentInfo[signed.encodingRange])
    }

    /// A SignerInfo naming the genuine signing certificate, with a random 256-byte signature.
    static func bogusSignerInfo(_ workspace: MutationWorkspace) throws -> [UInt8] {
        var random = workspace.random
        let garbage = (0..<256).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        guard
            let signerInfo = SignedDataBuilder.bareSignerInfo(
                certificate: workspace.signer.signingCertificate.derEncoded, digestOID: workspace.blueprint.digest.oid,
                signature: garbage)
        else {
            throw MutationError(.signerIdentity, "cannot read the signing certificate")
        }
        return signerInfo
    }
}
