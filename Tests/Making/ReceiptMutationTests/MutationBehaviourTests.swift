import Foundation
import ReceiptASN1
import ReceiptDiagnostics
import ReceiptModel
import ReceiptMutation
import ReceiptPKCS7
import ReceiptRendering
import ReceiptSuite
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// Every mutation, applied to inputs of every shape, does what its manifest entry says.
@Suite("Every mutation on every kind of input")
struct MutationBehaviourTests {
    /// Every entry an Apple-shaped test CA makes (a StoreKit-only one is tested with a StoreKit CA in the CLI tests).
    static let names = MutationCatalogue.all.map(\.name).filter { !MutationCatalogue.storeKitOnly.contains($0) }

    @Test(arguments: names)
    func appliesDeterministicallyAndGetsTheExpectedVerdict(_ name: String) throws {
        let kit = try #require(MutationFixtures.kit)
        let mutation = try #require(MutationCatalogue.named(name))
        let baselineMutation = try #require(MutationCatalogue.named("baseline"))
        for input in MutationFixtures.inputs {
            #expect(!input.bytes.isEmpty)
            let bytes = try mutation.apply(to: input.bytes, kit: kit, seed: 7)
            #expect(try mutation.apply(to: input.bytes, kit: kit, seed: 7) == bytes, "\(input.name): not deterministic")
            let baseline = try baselineMutation.apply(to: input.bytes, kit: kit, seed: 7)
            // A variant may coincide with an input that already is that variant (an environment string).
            let variant = name == "baseline" || name.hasPrefix("environment-")
            #expect(variant || bytes != baseline, "\(input.name): the mutation changed nothing")
            let inspection = MutationFixtures.verify(bytes, baseline: baseline, kit: kit)
            let codes = inspection.findings.map(\.code) + [inspection.readError?.code].compactMap { $0 }
            switch mutation.expected {
            case .accept:
                #expect(inspection.isValid, "\(input.name): rejected with \(Inspect.errors(inspection))")
            case .reject:
                #expect(!inspection.isValid, "\(input.name): accepted")
            }
            if let finding = mutation.finding {
                #expect(codes.contains(finding), "\(input.name): \(finding) not in \(codes)")
            }
            // Reading and both renderings of the result complete.
            _ = DumpJSON.render(inspection)
            _ = DumpText(style: TextStyle(useColor: false)).render(inspection, name: name)
        }
    }

    @Test(arguments: names)
    func changesOnlyTheLayerItTargets(_ name: String) throws {
        let kit = try #require(MutationFixtures.kit)
        let mutation = try #require(MutationCatalogue.named(name))
        let input = MutationFixtures.inputs[1].bytes
        let baseline = Receipt.read(
            try #require(MutationCatalogue.named("baseline")).apply(to: input, kit: kit, seed: 3))
        let mutatedBytes = try mutation.apply(to: input, kit: kit, seed: 3)
        let mutated = Receipt.read(InputDecoder.decode(mutatedBytes).map(\.bytes).get(or: mutatedBytes))
        let payloadOf = { (receipt: Receipt) -> [UInt8] in
            (receipt.signedData.encapsulatedContent?.segments ?? []).flatMap { receipt.bytes[$0] }
        }
        let certificatesOf = { (receipt: Receipt) -> [[UInt8]] in
            receipt.signedData.certificates.map { Array(receipt.bytes[$0.encoding]) }
        }
        switch mutation.layer {
        case "attribute", "record", "payload":
            // Only the content changed: the same certificates sign it.
            #expect(certificatesOf(mutated) == certificatesOf(baseline))
            if !mutation.name.hasPrefix("environment-") {
                #expect(mutated.error != nil || payloadOf(mutated) != payloadOf(baseline))
            }
        case "container", "input", "encoding":
            // The content is untouched unless the container itself is unreadable by design.
            if mutated.error == nil, mutation.name != "content-type-not-data", !mutation.name.hasPrefix("detached") {
                #expect(payloadOf(mutated) == payloadOf(baseline))
            }
        case "chain":
            // Only the StoreKit-certificate mutations also set the environment they are about.
            if !mutation.name.hasPrefix("storekit-certificate-on-") {
                #expect(payloadOf(mutated) == payloadOf(baseline))
            }
            #expect(certificatesOf(mutated) != certificatesOf(baseline))
        case "signature":
            #expect(certificatesOf(mutated) == certificatesOf(baseline) || mutated.error != nil)
        default:
            #expect(mutation.name == "baseline")
        }
    }

    @Test func everyMutationOfEveryRealReceiptReadsWithoutCrashing() throws {
        let kit = try #require(MutationFixtures.kit)
        for name in Fixtures.realReceiptNames {
            for mutation in MutationCatalogue.all where !MutationCatalogue.storeKitOnly.contains(mutation.name) {
                guard let bytes = try? mutation.apply(to: Fixtures.realReceipt(name), kit: kit, seed: 11) else {
                    Issue.record("\(mutation.name) does not apply to \(name)")
                    continue
                }
                let receipt = Receipt.read(InputDecoder.decode(bytes).map(\.bytes).get(or: bytes))
                for attribute in receipt.attributes { _ = attribute.record?.attributes }
            }
        }
    }

    @Test func differentSeedsChangeOnlyRandomisedMutations() throws {
        let kit = try #require(MutationFixtures.kit)
        let input = MutationFixtures.inputs[0].bytes
        let flip = try #require(MutationCatalogue.named("signature-bit-flip"))
        let seeds = try (1...5).map { try flip.apply(to: input, kit: kit, seed: UInt64($0)) }
        #expect(Set(seeds).count > 1)
        let fixed = try #require(MutationCatalogue.named("other-bundle-id"))
        #expect(try fixed.apply(to: input, kit: kit, seed: 1) == fixed.apply(to: input, kit: kit, seed: 2))
    }

    @Test func refusesInputsThatCannotBeRead() throws {
        let kit = try #require(MutationFixtures.kit)
        let mutation = try #require(MutationCatalogue.named("baseline"))
        #expect(throws: MutationError.self) {
            _ = try mutation.apply(to: Array("NOT A RECEIPT".utf8), kit: kit, seed: 1)
        }
        let truncated = Array(Fixtures.realReceipt(Fixtures.sandboxReceipt).prefix(900))
        #expect(throws: MutationError.self) { _ = try mutation.apply(to: truncated, kit: kit, seed: 1) }
    }
}

/// What the catalogue's container re-encodings do to receipts Apple signed, whose signatures they keep.
@Suite struct GenuineReencodingTests {
    @Test func aSignatureInSegmentsVerifiesAsTheOneItWas() throws {
        // BER lets the SignerInfo's signature be a constructed OCTET STRING; OpenSSL joins the segments. The
        // signature is not signed, so anyone can write a genuine receipt's so: the verdict must not change.
        for name in Fixtures.realReceiptNames where !Fixtures.isXcodeReceipt(name) {
            let bytes = Fixtures.realReceipt(name)
            let chunked = try #require(
                ASN1Reencoder.rewrite(bytes, plan: EncodingMutations.chunkSignature(size: 64)), "\(name)")
            let signer = try #require(Receipt.read(chunked).signedData.signers.first, "\(name)")
            #expect(signer.signatureString.tag.isConstructed, "\(name)")
            #expect(signer.signatureSegments.count > 1, "\(name)")
            let genuine = try Inspect.apple(bytes)
            let reencoded = try Inspect.apple(chunked)
            #expect(reencoded.verification?.signature == .valid, "\(name)")
            #expect(reencoded.isValid == genuine.isValid, "\(name)")
            #expect(reencoded.findings.contains { $0.code == "ber-constructed-string" }, "\(name)")
        }
    }

    /// The outer SEQUENCE's tag in the long form (`3F 10`), as OpenSSL reads it: the same verdict, the anomaly noted
    /// (a red team's trial: refused as no ContentInfo, though the same form anywhere inside was read).
    @Test func anOuterTagInTheLongFormReadsAsTheReceipt() throws {
        for name in Fixtures.realReceiptNames where !Fixtures.isXcodeReceipt(name) {
            let bytes = Fixtures.realReceipt(name)
            let longTag = [0x3F, 0x10] + bytes.dropFirst()
            let genuine = try Inspect.apple(bytes)
            let reencoded = try Inspect.apple(longTag)
            #expect(reencoded.verification?.signature == .valid, "\(name)")
            #expect(reencoded.isValid == genuine.isValid, "\(name)")
            #expect(reencoded.findings.contains { $0.code == "ber-non-minimal-tag" && $0.offset == 0 }, "\(name)")
        }
    }
}
