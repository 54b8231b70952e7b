import FuzzSigningSupport
import FuzzSupport
import ReceiptCrypto
import ReceiptModel
import ReceiptPKCS7
import ReceiptValidation

/// What must hold for every input the `verify` harness inspects:
/// 1. every finding, read error and certificate offset points into the receipt bytes (their end included);
/// 2. a valid verdict means the signature and the chain verified, and the payload decodes, iterated in order,
///    to the expected bundle id and app version, and a hash equal to SHA-1(device ‖ opaque value ‖ bundle id);
/// 3. when the signature verifies, the payload the attributes are decoded from is exactly the signed content:
///    every attribute's value lies inside the eContent, and, when the signer is the TEST-ONLY leaf without signed
///    attributes, the leaf of the committed keys (not the embedded copy) verifies the signature over those bytes;
/// 4. inspecting the same input again, keeping no record's entries as `rcpt verify` does, gives the same findings
///    and verdicts (checked for one input in `determinismSample`, picked by its bytes so a replay checks the same
///    ones: a second inspection doubles the cost).
struct VerifyOracles {
    let input: [UInt8]
    let setup: VerifySetup

    func check(_ inspection: ReceiptInspection) {
        offsets(inspection)
        verdict(inspection)
        if inspection.verification?.signature == .valid, let receipt = inspection.receipt {
            signedContent(receipt, inspection)
        }
        if Self.isSampled(input) { determinism(inspection) }
    }

    /// One input in this many is inspected twice.
    static let determinismSample: UInt64 = 4

    /// Whether `input` is re-inspected: FNV-1a of its length and last 64 bytes.
    static func isSampled(_ input: [UInt8]) -> Bool {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in input.suffix(64) + [UInt8(truncatingIfNeeded: input.count)] {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash % determinismSample == 0
    }

    func fail(_ message: String) -> Never { Fuzz.fail("verify", message, input: input) }

    // MARK: - 1. Offsets

    func offsets(_ inspection: ReceiptInspection) {
        let size = inspection.receipt?.bytes.count ?? input.count
        func inside(_ offset: Int?, _ what: @autoclosure () -> String) {
            guard let offset else { return }
            guard offset >= 0, offset <= size else { fail("\(what()) at \(offset), outside the \(size)-byte receipt") }
        }
        for finding in inspection.findings { inside(finding.offset, "finding \(finding.code)") }
        inside(inspection.readError?.offset, "read error \(inspection.readError?.code ?? "")")
        for report in inspection.certificates {
            inside(report.embedded.offset, "certificate \(report.embedded.index)")
            guard report.embedded.encoding.upperBound <= size else {
                fail("certificate \(report.embedded.index) spans \(report.embedded.encoding), past the receipt")
            }
        }
    }

    // MARK: - 2. The verdict

    func verdict(_ inspection: ReceiptInspection) {
        guard inspection.isValid else { return }
        guard let verification = inspection.verification, verification.signature == .valid,
            verification.chain == .valid
        else {
            fail(
                "valid, yet signature \(inspection.verification?.signature.rawValue ?? "-") and chain "
                    + "\(inspection.verification?.chain.rawValue ?? "-")")
        }
        guard let payload = inspection.receipt?.payload else { fail("valid, yet no payload") }
        // Iterated in order, not through `first(_:)`'s index: both must name the same attributes.
        func firstOf(_ type: Int64) -> Attribute? { payload.attributes.first { $0.type == type } }
        guard case .text(let bundle)? = firstOf(2)?.value, bundle == VerifyExpectations.bundleID else {
            fail("valid, yet the first bundle id is \(String(describing: firstOf(2)?.value))")
        }
        guard case .text(let version)? = firstOf(3)?.value, version == VerifyExpectations.appVersion else {
            fail("valid, yet the first app version is \(String(describing: firstOf(3)?.value))")
        }
        guard let device = VerifyExpectations.deviceID, let opaque = firstOf(4), let bundleAttribute = firstOf(2),
            let hash = firstOf(5),
            let expected = try? Digest.hash(
                [device[...], opaque.valueBytes, bundleAttribute.valueBytes],
                algorithm: .sha1),
            hash.valueBytes.elementsEqual(expected)
        else {
            fail("valid, yet the first sha1_hash is not SHA-1(device ‖ opaque value ‖ bundle id)")
        }
    }

    // MARK: - 3. What was signed is what is read

    func signedContent(_ receipt: Receipt, _ inspection: ReceiptInspection) {
        guard let content = receipt.signedData.encapsulatedContent, !content.isDetached else {
            fail("the signature verified, yet the receipt has no content")
        }
        guard let payload = receipt.payload else { return }
        var signed: [UInt8] = []
        for segment in content.segments { signed += receipt.bytes[segment] }
        guard payload.content.elementsEqual(signed) else {
            fail(
                "the payload (\(payload.content.count) bytes) is not read from the signed content segments "
                    + "(\(signed.count) bytes)")
        }
        if content.segments.count == 1, let segment = content.segments.first {
            // Read in place: every value must lie inside the one segment.
            for attribute in payload.attributes {
                guard let valueOffset = attribute.valueOffset else { continue }
                guard valueOffset >= segment.lowerBound, valueOffset + attribute.valueBytes.count <= segment.upperBound
                else {
                    fail(
                        "attribute \(attribute.type.map(String.init) ?? "?") reads \(valueOffset)+"
                            + "\(attribute.valueBytes.count), outside the signed content \(segment)")
                }
            }
        }
        // The committed leaf, not the embedded one, must verify the signature over the bytes the payload is read from.
        let leaf = setup.kit.authority.leaf
        for (signer, result) in zip(receipt.signedData.signers, inspection.signers)
        where signer.signedAttributes == nil {
            guard let index = result.certificateIndex, index < inspection.certificates.count,
                inspection.certificates[index].certificate?.derEncoded == leaf.derEncoded,
                let digest = result.digestAlgorithm
            else { continue }
            let check = SignatureVerifier.verify(
                signature: signer.signature(in: receipt.bytes), over: [signed[...]],
                digest: digest, certificate: leaf)
            guard check == .valid else {
                fail(
                    "signer \(result.signerIndex) verified, yet the TEST-ONLY leaf does not verify its signature "
                        + "over the payload bytes: \(check)")
            }
        }
    }

    // MARK: - 4. Determinism

    func determinism(_ first: ReceiptInspection) {
        // The second inspection keeps no record's entries, as `rcpt verify` does (its record checks run as each
        // record is read): the same input must get the same judgement either way.
        var lean = setup.options
        lean.keepsRecords = false
        let again = ReceiptInspector.inspect(input, options: lean)
        guard again.findings == first.findings else {
            let before = first.findings.map { "\($0.code)@\($0.offset.map(String.init) ?? "-")" }
            let after = again.findings.map { "\($0.code)@\($0.offset.map(String.init) ?? "-")" }
            fail("a second inspection, keeping no record's entries, gives other findings:\n  \(before)\n  \(after)")
        }
        guard again.description == first.description,
            again.verification?.errors == first.verification?.errors,
            again.verification?.path == first.verification?.path
        else {
            fail("a second inspection gives another verdict:\n  \(first)\n  \(again)")
        }
    }
}
