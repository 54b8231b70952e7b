import ReceiptASN1
import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptSuite

/// Flaws in the signature and the SignedData around it.
enum SignatureMutations {
    static let all: [Mutation] = [
        Mutation(
            "payload-changed-after-signing", .signature, layer: "signature", expected: .reject,
            finding: .signatureInvalid, signatureValid: false,
            "one letter of the bundle id is changed after the receipt was signed"
        ) { workspace in
            let needle = Array(workspace.bundleID.utf8)
            workspace.afterSigning { bytes, _ in
                guard let content = try SignedLayout.read(bytes).encapsulatedContent?.segments.first,
                    let start = Search.first(needle, in: bytes, within: content)
                else { throw MutationError(.bundleIdNotFound, "the bundle id is not in the signed content") }
                bytes[start] ^= 0x20
            }
        },
        Mutation(
            "signature-bit-flip", .signature, layer: "signature", expected: .reject,
            finding: .signatureInvalid, signatureValid: false,
            "one bit of the RSA signature is flipped"
        ) { workspace in
            workspace.afterSigning { bytes, random in
                let offsets = try SignedLayout.read(bytes).signers.first?.signatureSegments.flatMap { $0 } ?? []
                guard !offsets.isEmpty else { throw MutationError(.noSignature, "the receipt has no signature") }
                let index = offsets[Int(random.next() % UInt64(offsets.count))]
                bytes[index] ^= UInt8(1 << (random.next() % 8))
            }
        },
        Mutation(
            "signature-truncated", .signature, layer: "signature", expected: .reject,
            finding: .signatureInvalid, signatureValid: false,
            "the signature lacks its last byte"
        ) { workspace in
            workspace.tweak { $0.signatureTransform = { Array($0.dropLast()) } }
        },
        Mutation(
            "digest-algorithm-mismatch", .signature, layer: "container", expected: .reject,
            finding: .digestAlgorithmNotDeclared, signatureValid: false,
            "SignedData declares a different digest algorithm than the signer uses (OpenSSL then fails)"
        ) {
            workspace in
            let other = workspace.blueprint.digest == .sha1 ? DigestAlgorithm.sha256 : .sha1
            workspace.tweak { $0.declaredDigestAlgorithmOIDs = [other.oid] }
        },
        Mutation(
            "signature-algorithm-mismatch", .signature, layer: "signature", expected: .reject,
            finding: .signatureAlgorithmMismatch,
            "the signature algorithm names a different digest than the signer's digest algorithm"
        ) {
            workspace in
            let oid = workspace.blueprint.digest == .sha1 ? "1.2.840.113549.1.1.11" : "1.2.840.113549.1.1.5"
            workspace.tweak { $0.signatureAlgorithmOID = oid }
        },
        Mutation(
            "signed-attributes-wrong-message-digest", .signature, layer: "signature", expected: .reject,
            finding: .messageDigestMismatch, signatureValid: false,
            "signed attributes whose messageDigest is not the content's digest (the signature over them is valid)"
        ) {
            workspace in
            workspace.blueprint.signedAttributes = true
            let length = workspace.blueprint.digest.outputLength
            workspace.tweak { $0.messageDigestOverride = [UInt8](repeating: 0x5A, count: length) }
        },
        Mutation(
            "signed-attributes", .signature, layer: "signature", expected: .accept, finding: nil,
            "signed with contentType and messageDigest signed attributes (valid CMS Apple does not use)"
        ) {
            workspace in
            workspace.blueprint.signedAttributes = true
        },
        Mutation(
            "digest-switch", .signature, layer: "signature", expected: .accept, finding: nil,
            "re-signed with the other digest App Store receipts use (SHA-1 before 2023, SHA-256 since)"
        ) {
            workspace in
            workspace.blueprint.digest = workspace.blueprint.digest == .sha1 ? .sha256 : .sha1
        },
        Mutation(
            "content-type-not-data", .signature, layer: "container", expected: .reject,
            finding: .contentTypeNotData,
            "eContentType is id-ct-TSTInfo instead of pkcs7-data"
        ) { workspace in
            workspace.tweak { $0.contentTypeOID = "1.2.840.113549.1.9.16.1.4" }
        },
        Mutation(
            "detached-content", .signature, layer: "container", expected: .reject, finding: .contentDetached,
            signatureValid: false, "the content is left out (a detached signature)"
        ) { workspace in
            workspace.tweak { $0.detachContent = true }
        },
        Mutation(
            "extra-signer-info", .signature, layer: "signature", expected: .reject, finding: .multipleSigners,
            signatureValid: false, "a second SignerInfo with a random signature follows the real one"
        ) {
            workspace in
            let extra = try ContainerMutations.bogusSignerInfo(workspace)
            workspace.tweak { $0.extraSignerInfos = [extra] }
        },
        Mutation(
            "decoy-data-before-content", .signature, layer: "container", expected: .reject,
            error: .pkcs7NotSignedData, signatureValid: false,
            "an unsigned pkcs7-data ContentInfo with another bundle id stands before the signed receipt"
        ) {
            workspace in
            var decoy = workspace.blueprint
            decoy.set(.utf8(2, "com.attacker.decoy"))
            let payload = decoy.payload
            workspace.afterSigning { bytes, _ in
                var writer = ASN1Writer()
                writer.appendConstructed(.sequence) { writer in
                    writer.appendObjectIdentifier(ObjectIdentifierNames.data)
                    writer.appendConstructed(.context(0, constructed: true)) { writer in
                        writer.appendOctetString(payload)
                    }
                }
                bytes = writer.bytes + bytes
            }
        },
    ]
}

/// Finding byte strings.
enum Search {
    /// The first index of `needle` inside `range` of `haystack`.
    static func first(_ needle: [UInt8], in haystack: [UInt8], within range: Range<Int>) -> Int? {
        guard !needle.isEmpty, range.count >= needle.count else { return nil }
        for start in range.lowerBound...(range.upperBound - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
