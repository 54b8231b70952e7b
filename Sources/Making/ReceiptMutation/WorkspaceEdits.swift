import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// Edits shared by many mutations.
extension MutationWorkspace {
    /// The creation date (type 12) in unix seconds, or a fixed date when the input has none.
    var creationSeconds: Int64 {
        guard let text = blueprint.text(12), case .success(let date) = ReceiptDate.parse(text) else {
            return 1_704_067_200  // 2024-01-01T00:00:00Z
        }
        return date.secondsSinceEpoch
    }

    /// Sets a string attribute, as UTF8String unless `ia5`.
    mutating func setText(_ type: Int64, _ text: String, ia5: Bool = false) {
        let version = blueprint.first(type)?.version ?? 1
        blueprint.set(ia5 ? .ia5(type, text, version: version) : .utf8(type, text, version: version))
    }

    /// Sets a date attribute (IA5String) to an instant.
    mutating func setDate(_ type: Int64, seconds: Int64) {
        setText(type, ReceiptDate.format(epochSeconds: seconds), ia5: true)
    }

    /// The bundle id text, or a stand-in.
    var bundleID: String { blueprint.text(2) ?? "com.example.app" }

    /// Rewrites the signed container's encoding after signing, keeping every content byte (so the signature stays
    /// valid); the SignerInfo is copied as it is.
    mutating func reencodeContainer(
        _ plan: @escaping @Sendable (ASN1Node, [ASN1Tag]) -> ASN1Reencoder.Plan
    ) {
        afterSigning { bytes, _ in
            guard let rewritten = ASN1Reencoder.rewrite(bytes, plan: plan) else {
                throw MutationError(.reencodeFailed, "the signed container could not be re-encoded")
            }
            bytes = rewritten
        }
    }

    /// Re-encodes the payload (before signing) with `plan`.
    mutating func reencodePayload(_ plan: (ASN1Node, [ASN1Tag]) -> ASN1Reencoder.Plan) throws(MutationError) {
        guard let rewritten = ASN1Reencoder.rewrite(blueprint.payload, plan: plan) else {
            throw MutationError(.reencodeFailed, "the payload could not be re-encoded")
        }
        blueprint.payloadOverride = rewritten
    }
}

/// Locations in a signed container, read back after signing.
enum SignedLayout {
    /// The container as read, or an error naming the mutation stage.
    static func read(_ bytes: [UInt8]) throws(MutationError) -> SignedData {
        let result = SignedDataReader.read(bytes)
        if let error = result.error {
            throw MutationError(.containerUnreadable, "the signed container cannot be read back: \(error)")
        }
        return result.signedData
    }

    /// Whether a node's content must be copied as it is: the certificates `[0]` and the SETs (digest algorithms,
    /// signerInfos) directly inside SignedData. Certificates are signed over their exact DER, and SignerInfos keep
    /// their DER so only the container around them changes. Their own length octets may still change.
    static func keepsContent(_ node: ASN1Node, ancestors: [ASN1Tag]) -> Bool {
        ancestors.count == 3 && (node.tag == .set || node.tag == .context(0, constructed: true))
    }
}
