import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptSigning

/// How the finished receipt is written out.
package enum OutputWrapping: Sendable, Hashable {
    case binary
    /// Base64 with line breaks every `lineLength` characters (0: one line), optionally with noise whitespace.
    case base64(lineLength: Int, noisyWhitespace: Bool)
    /// A verifyReceipt request body.
    case jsonRequest
    /// A verifyReceipt request body with two top-level `receipt-data` members (a decoy first).
    case jsonRequestDuplicated
    /// A JSON body with `receipt-data` only inside a nested object.
    case jsonRequestNested
}

/// The state a mutation edits: the blueprint of the input, who signs it, tweaks to the container builder, byte
/// edits after signing, and how the result is wrapped. Starts as the baseline: the input re-signed unchanged by the
/// test CA, its hash recomputed for the kit's device.
package struct MutationWorkspace: Sendable {
    package var blueprint: ReceiptBlueprint
    package var signer: ReceiptSigner
    package let kit: MutationKit
    package var random: SplitMix64
    /// Edits to the container builder before signing.
    package var builderTweaks: [@Sendable (inout SignedDataBuilder) -> Void] = []
    /// Byte edits after signing, in order.
    package var postSign: [@Sendable (inout [UInt8], inout SplitMix64) throws -> Void] = []
    package var wrapping: OutputWrapping = .binary

    /// The baseline workspace for `input`.
    package static func baseline(of input: [UInt8], kit: MutationKit, seed: UInt64) throws(MutationError)
        -> MutationWorkspace
    {
        let bytes: [UInt8]
        switch InputDecoder.decode(input) {
        case .success(let decoded): bytes = decoded.bytes
        case .failure(let error): throw MutationError(.inputUnreadable, error.message)
        }
        var blueprint = try ReceiptBlueprint.of(Receipt.read(bytes))
        try blueprint.computeHash(forDevice: kit.deviceID)
        return MutationWorkspace(
            blueprint: blueprint, signer: ReceiptSigner(authority: kit.authority), kit: kit,
            random: SplitMix64(seed: seed))
    }

    /// Signs the blueprint, applies the byte edits and wraps the result.
    package func build() throws(MutationError) -> [UInt8] {
        var bytes: [UInt8]
        do {
            var builder = try signer.builder(
                for: blueprint.payload, digest: blueprint.digest, layout: blueprint.layout,
                signedAttributes: blueprint.signedAttributes)
            for tweak in builderTweaks { tweak(&builder) }
            bytes = try signer.sign(builder, digest: blueprint.digest)
        } catch {
            throw MutationError(.signingFailed, error.message)
        }
        var random = self.random
        do {
            for edit in postSign { try edit(&bytes, &random) }
        } catch let error as MutationError {
            throw error
        } catch {
            throw MutationError(.mutationFailed, "\(error)")
        }
        return wrap(bytes)
    }

    func wrap(_ bytes: [UInt8]) -> [UInt8] {
        switch wrapping {
        case .binary:
            return bytes
        case .jsonRequest:
            return Array("{\"receipt-data\":\"\(Base64.encode(bytes))\",\"exclude-old-transactions\":false}\n".utf8)
        case .jsonRequestDuplicated:
            let decoy = Base64.encode(Array(bytes.dropLast(1)))
            return Array("{\"receipt-data\":\"\(decoy)\",\"receipt\\u002ddata\":\"\(Base64.encode(bytes))\"}\n".utf8)
        case .jsonRequestNested:
            return Array("{\"request\":{\"receipt-data\":\"\(Base64.encode(bytes))\"},\"password\":\"\"}\n".utf8)
        case .base64(let lineLength, let noisy):
            let text = Array(Base64.encode(bytes).utf8)
            var out: [UInt8] = noisy ? Array("  \t".utf8) : []
            for (index, character) in text.enumerated() {
                if lineLength > 0 && index > 0 && index % lineLength == 0 {
                    out += noisy ? Array(" \r\n\t".utf8) : [0x0A]
                }
                out.append(character)
            }
            return out + (noisy ? Array("\r\n\n  ".utf8) : [0x0A])
        }
    }

    // MARK: - Conveniences for mutations

    /// Re-signs with another signer (a foreign CA, a self-signed certificate).
    package mutating func signWith(_ signer: ReceiptSigner) { self.signer = signer }

    /// Signs with `certificate` and its `key`, carrying `embedding` as the certificates set.
    package mutating func signWith(_ certificate: Certificate, key: PrivateKey, embedding: [Certificate]) {
        signer = ReceiptSigner(signingCertificate: certificate, key: key, embeddedCertificates: embedding)
    }

    /// Adds a container builder tweak.
    package mutating func tweak(_ edit: @escaping @Sendable (inout SignedDataBuilder) -> Void) {
        builderTweaks.append(edit)
    }

    /// Adds a byte edit after signing.
    package mutating func afterSigning(
        _ edit: @escaping @Sendable (inout [UInt8], inout SplitMix64) throws -> Void
    ) {
        postSign.append(edit)
    }
}
