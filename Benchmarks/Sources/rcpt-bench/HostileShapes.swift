import Foundation
import ReceiptASN1
import ReceiptBuilding
import ReceiptCrypto
import ReceiptModel
import ReceiptPKCS7
import ReceiptSigning

/// `rcpt-bench hostile DIR --ca CA_DIR`: writes the worst-case container and payload shapes we know of, each about
/// 10 MB (the review's 3 000 SignerInfos over 4 MB of content among them), signed with the TEST-ONLY CA in CA_DIR,
/// for `scripts/bench.sh` to time `rcpt verify` and `rcpt dump` on. No input of 10 MB may cost more than about a
/// second.
enum HostileShapes {
    static let target = 10_000_000

    static func write(to directory: String, caDirectory: String) throws {
        let authority = try CertificateAuthorityFiles.load(from: caDirectory)
        let signer = ReceiptSigner(authority: authority)
        let small = SyntheticReceipt(records: 1).payload()
        func build(_ payload: [UInt8], _ edit: (inout SignedDataBuilder) -> Void) throws -> [UInt8] {
            var builder = try signer.builder(for: payload, digest: .sha256)
            edit(&builder)
            return try signer.sign(builder, digest: .sha256)
        }
        let bogusSigner = try bogusSignerInfo(signer)
        // A payload of about 4 MB (10 000 records), as in the review's case.
        let large = SyntheticReceipt(records: 10_000).payload()
        var shapes: [(String, [UInt8])] = []
        shapes.append(
            (
                "signer-infos-3000",
                try build(large) { builder in
                    builder.extraSignerInfos = Array(repeating: bogusSigner, count: 2_999)
                }
            ))
        shapes.append(
            (
                "certificates",
                try build(small) { builder in
                    let chain = builder.certificates
                    let copies = target / max(1, chain.reduce(0) { $0 + $1.count })
                    builder.certificates = Array(repeating: chain, count: copies).flatMap { $0 }
                }
            ))
        shapes.append(
            (
                "crls",
                try build(small) { builder in
                    builder.crls = Array(repeating: [0x30, 0x02, 0x05, 0x00], count: target / 4)
                }
            ))
        shapes.append(
            (
                "digest-algorithms",
                try build(small) { builder in
                    builder.declaredDigestAlgorithmOIDs = Array(
                        repeating: DigestAlgorithm.sha256.oid, count: target / 15)
                }
            ))
        shapes.append(
            (
                "signed-attributes",
                try build(small) { builder in
                    builder.includeSignedAttributes = true
                    builder.signedAttributeList = { digest in
                        var oid = ASN1Writer()
                        oid.appendObjectIdentifier(ObjectIdentifierNames.messageDigestAttribute)
                        var value = ASN1Writer()
                        value.appendOctetString(digest)
                        let one = SignedDataBuilder.attribute(
                            ObjectIdentifierNames.messageDigestAttribute, values: [value.bytes])
                        return Array(repeating: one, count: target / one.count)
                    }
                }
            ))
        shapes.append(
            (
                "unsigned-attribute-values",
                try build(small) { builder in
                    var writer = ASN1Writer()
                    writer.appendConstructed(.context(1, constructed: true)) { writer in
                        writer.appendRaw(
                            SignedDataBuilder.attribute(
                                "1.2.840.113549.1.9.6",
                                values: Array(repeating: [0x05, 0x00], count: target / 2)))
                    }
                    builder.unsignedAdditions.signerInfo = [writer.bytes]
                }
            ))
        shapes.append(("duplicate-transactions", try build(duplicateTransactions()) { _ in }))
        shapes.append(("unknown-attributes", try build(unknownAttributes()) { _ in }))
        for (name, bytes) in shapes {
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/hostile-\(name).receipt"))
        }
    }

    /// 10 MB of in-app records that all carry the same transaction id.
    static func duplicateTransactions() -> [UInt8] {
        var attributes = SyntheticReceipt(records: 0).attributes()
        let record = AttributeSpec.record([
            .integer(1701, 1), .utf8(1702, "p"), .utf8(1703, "1000000000000001"),
            .ia5(1704, "2024-01-01T00:00:00Z"),
        ])
        attributes += Array(repeating: record, count: target / (record.value.count + 8))
        return PayloadBuilder.attributeSet(attributes, sorted: false)
    }

    /// 10 MB of small attributes of types no table names.
    static func unknownAttributes() -> [UInt8] {
        var attributes = SyntheticReceipt(records: 0).attributes()
        attributes += (0..<(target / 12)).map { AttributeSpec.raw(Int64(100_000 + $0 % 1000), [0x00]) }
        return PayloadBuilder.attributeSet(attributes, sorted: false)
    }

    static func bogusSignerInfo(_ signer: ReceiptSigner) throws -> [UInt8] {
        guard
            let signerInfo = SignedDataBuilder.bareSignerInfo(
                certificate: signer.signingCertificate.derEncoded, digestOID: DigestAlgorithm.sha256.oid,
                signature: [UInt8](repeating: 0x5A, count: 256))
        else {
            throw CryptoError(.signerIdentity, message: "cannot read the signing certificate")
        }
        return signerInfo
    }
}
