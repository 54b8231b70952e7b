import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptSuite

/// BER forms validators must read, and broken lengths and markers they must not.
package enum EncodingMutations {
    static let all: [Mutation] = [
        Mutation(
            "ber-indefinite-lengths", .encoding, layer: "container", expected: .accept,
            finding: .berIndefiniteLength,
            "every constructed container element uses an indefinite length (certificates and SignerInfo kept DER)"
        ) {
            workspace in
            workspace.reencodeContainer { node, ancestors in
                ASN1Reencoder.Plan(
                    length: node.tag.isConstructed ? .indefinite : .minimal,
                    descend: !SignedLayout.keepsContent(node, ancestors: ancestors))
            }
        },
        Mutation(
            "ber-chunked-content", .encoding, layer: "container", expected: .accept,
            finding: .berConstructedString,
            "the content OCTET STRING is split into 7-byte segments of a constructed OCTET STRING"
        ) { workspace in
            workspace.reencodeContainer(chunkContent(size: 7, nesting: 0))
        },
        Mutation(
            "ber-nested-chunked-content", .encoding, layer: "container", expected: .accept,
            finding: .berConstructedString,
            "the content is split into 64-byte segments, each nested two constructed levels deep"
        ) { workspace in
            workspace.reencodeContainer(chunkContent(size: 64, nesting: 2))
        },
        Mutation(
            "ber-chunked-signature", .encoding, layer: "container", expected: .accept,
            finding: .berConstructedString,
            "the signature OCTET STRING is split into 64-byte segments of a constructed one (BER; OpenSSL joins them)"
        ) { workspace in
            workspace.reencodeContainer(chunkSignature(size: 64))
        },
        Mutation(
            "ber-non-minimal-lengths-container", .encoding, layer: "container", expected: .accept,
            finding: .berNonMinimalLength,
            "every container length is in long form with a leading zero (certificates and SignerInfo kept DER)"
        ) {
            workspace in
            workspace.reencodeContainer { node, ancestors in
                ASN1Reencoder.Plan(
                    length: .padded(extraOctets: 1),
                    descend: !SignedLayout.keepsContent(node, ancestors: ancestors))
            }
        },
        Mutation(
            "ber-non-minimal-lengths-payload", .encoding, layer: "payload", expected: .accept,
            finding: .berNonMinimalLength,
            "every length inside the payload is in long form with a leading zero octet (re-signed)"
        ) { workspace in
            try workspace.reencodePayload { _, _ in ASN1Reencoder.Plan(length: .padded(extraOctets: 1)) }
        },
        Mutation(
            "ber-indefinite-payload", .encoding, layer: "payload", expected: .accept,
            finding: .berIndefiniteLength,
            "the payload SET and every attribute SEQUENCE use indefinite lengths (re-signed)"
        ) { workspace in
            try workspace.reencodePayload { node, ancestors in
                ASN1Reencoder.Plan(
                    length: ancestors.count <= 1 && node.tag.isConstructed ? .indefinite : .minimal,
                    descend: ancestors.isEmpty)
            }
        },
        Mutation(
            "length-huge", .encoding, layer: "container", expected: .reject,
            error: .asn1LengthExceedsInput, signatureValid: false,
            "the ContentInfo claims 2^31-1 content bytes"
        ) { workspace in
            workspace.afterSigning { bytes, _ in
                let header = ASN1Writer.lengthOctets(bytes.count)  // replace the outer length
                let old = 1 + header.count
                guard bytes.count > old, bytes[0] == 0x30 else { return }
                let content = bytes[old...]
                bytes = [0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF] + content
            }
        },
        Mutation(
            "payload-length-plus-one", .encoding, layer: "payload", expected: .reject,
            error: .asn1LengthExceedsInput,
            "the attribute SET claims one byte more than the content holds (re-signed)"
        ) { workspace in
            try workspace.adjustPayloadSetLength(by: 1)
        },
        Mutation(
            "payload-length-minus-one", .encoding, layer: "payload", expected: .reject,
            error: .asn1LengthExceedsInput,
            "the attribute SET claims one byte less, so its last attribute overruns it (re-signed)"
        ) { workspace in
            try workspace.adjustPayloadSetLength(by: -1)
        },
        Mutation(
            "missing-end-of-contents", .encoding, layer: "container", expected: .reject,
            error: .asn1MissingEndOfContents, signatureValid: false,
            "an indefinite-length ContentInfo whose final end-of-contents marker is missing"
        ) { workspace in
            workspace.reencodeContainer { node, ancestors in
                ASN1Reencoder.Plan(length: ancestors.isEmpty ? .indefinite : .minimal, descend: ancestors.isEmpty)
            }
            workspace.afterSigning { bytes, _ in bytes.removeLast(2) }
        },
        Mutation(
            "stray-end-of-contents", .encoding, layer: "payload", expected: .reject,
            error: .asn1UnexpectedEndOfContents,
            "an end-of-contents marker stands between two attributes of the definite-length SET (re-signed)"
        ) {
            workspace in
            var payload = workspace.blueprint.payload
            var reader = ASN1Reader(payload)
            guard let set = try? reader.readSingle(in: 0..<payload.count, depth: 0),
                let first = try? reader.readNode(at: set.contentStart, limit: set.contentEnd, depth: 1)
            else { throw MutationError(.payloadUnreadable, "the payload SET cannot be read") }
            payload.insert(contentsOf: [0x00, 0x00], at: first.end)
            workspace.blueprint.payloadOverride = try PayloadSurgery.relength(payload, by: 2)
        },
        Mutation(
            "nesting-bomb", .encoding, layer: "payload", expected: .reject, error: .asn1DepthLimit,
            "the payload is 10 000 nested indefinite-length SETs (re-signed)"
        ) { workspace in
            let depth = 10_000
            workspace.blueprint.payloadOverride =
                Array(repeating: [0x31, 0x80], count: depth).flatMap { $0 }
                + [UInt8](repeating: 0, count: depth * 2)
        },
        Mutation(
            "trailing-garbage", .encoding, layer: "container", expected: .reject, finding: .trailingBytes,
            "16 random bytes follow the ContentInfo"
        ) { workspace in
            workspace.afterSigning { bytes, random in
                for _ in 0..<16 { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
            }
        },
        Mutation(
            "base64", .encoding, layer: "input", expected: .accept, finding: nil,
            "the receipt as base64 text in 76-character lines"
        ) { workspace in
            workspace.wrapping = .base64(lineLength: 76, noisyWhitespace: false)
        },
        Mutation(
            "base64-whitespace", .encoding, layer: "input", expected: .accept, finding: nil,
            "base64 with spaces, tabs and CRLF line breaks around and inside it"
        ) { workspace in
            workspace.wrapping = .base64(lineLength: 61, noisyWhitespace: true)
        },
        Mutation(
            "verify-receipt-body", .encoding, layer: "input", expected: .accept, finding: nil,
            "the receipt inside a verifyReceipt JSON request body"
        ) { workspace in
            workspace.wrapping = .jsonRequest
        },
        Mutation(
            "verify-receipt-body-duplicate-key", .encoding, layer: "input", expected: .reject,
            error: .jsonDuplicateReceiptData,
            "a verifyReceipt body with two receipt-data members (the second spelt with a \\u escape): readers disagree on which counts"
        ) {
            workspace in
            workspace.wrapping = .jsonRequestDuplicated
        },
        Mutation(
            "verify-receipt-body-nested-key", .encoding, layer: "input", expected: .reject,
            error: .jsonReceiptDataNested,
            "a JSON body with receipt-data only inside a nested object"
        ) { workspace in
            workspace.wrapping = .jsonRequestNested
        },
    ]

    /// A plan that chunks the eContent OCTET STRING (depth 5: ContentInfo/[0]/SignedData/encap/[0]/OCTET STRING).
    static func chunkContent(size: Int, nesting: Int) -> @Sendable (ASN1Node, [ASN1Tag]) -> ASN1Reencoder.Plan {
        { node, ancestors in
            var plan = ASN1Reencoder.Plan()
            if ancestors.count == 5, node.tag == .octetString, ancestors[3] == .sequence {
                plan.chunkSize = size
                plan.chunkNesting = nesting
            }
            plan.descend = !SignedLayout.keepsContent(node, ancestors: ancestors)
            return plan
        }
    }

    /// Splits each SignerInfo's signature into segments of `size`; the SignerInfos' other fields and the
    /// certificates are copied as they are.
    package static func chunkSignature(size: Int) -> @Sendable (ASN1Node, [ASN1Tag]) -> ASN1Reencoder.Plan {
        { node, ancestors in
            var plan = ASN1Reencoder.Plan()
            // ContentInfo > [0] > SignedData > signerInfos SET > SignerInfo > a field.
            if ancestors.count == 5, ancestors[3] == .set {
                plan.descend = false
                if node.tag == .octetString { plan.chunkSize = size }
            } else {
                let setOfSignedData = ancestors.count == 3 && node.tag == .set
                plan.descend = setOfSignedData || !SignedLayout.keepsContent(node, ancestors: ancestors)
            }
            return plan
        }
    }
}

/// Byte-level edits of payload encodings.
enum PayloadSurgery {
    /// The payload with its outer SET's definite length changed by `delta` (content untouched).
    static func relength(_ payload: [UInt8], by delta: Int) throws(MutationError) -> [UInt8] {
        var reader = ASN1Reader(payload)
        guard let set = try? reader.readNode(at: 0, limit: payload.count, depth: 0), !set.isIndefiniteLength else {
            throw MutationError(.payloadUnreadable, "the payload SET cannot be read")
        }
        let length = set.contentLength + delta
        guard length >= 0 else { throw MutationError(.payloadTooSmall, "the payload SET is too small") }
        return [payload[0]] + ASN1Writer.lengthOctets(length) + payload[set.contentStart...]
    }
}

extension MutationWorkspace {
    /// Makes the payload SET's length wrong by `delta` without changing its content.
    mutating func adjustPayloadSetLength(by delta: Int) throws(MutationError) {
        let payload = blueprint.payload
        var reader = ASN1Reader(payload)
        guard let set = try? reader.readNode(at: 0, limit: payload.count, depth: 0) else {
            throw MutationError(.payloadUnreadable, "the payload SET cannot be read")
        }
        let wrong = [payload[0]] + ASN1Writer.lengthOctets(set.contentLength + delta) + payload[set.contentStart...]
        blueprint.payloadOverride = Array(wrong)
    }
}
