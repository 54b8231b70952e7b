import ReceiptDiagnostics
import ReceiptInput
import ReceiptModel
import ReceiptSigning
import ReceiptValidation

/// The baseline a CA re-signs must be valid under that CA's own root, as the suite's suggested `rcpt verify` line
/// judges it: every verdict a mutation expects is relative to a valid baseline. A CA that cannot make one — an EC
/// key where receipts are RSA-signed, a StoreKit-shaped chain on an App Store receipt, certificates whose validity
/// ends before the receipt was signed — is refused before anything is written, with the codes `rcpt verify` gives,
/// instead of a suite whose every expectation is wrong.
package enum BaselineCheck {
    /// Makes the baseline of `input` (a receipt or a JWS document: `kind`) and judges it as the suite's validator
    /// would, through the one classifier: the CA's root as the only anchor, the baseline's own expectations. Returns
    /// them, which the suite's manifest expects: a receipt's bundle id and version and the kit's device; a JWS's
    /// bundleId, environment, device and (in Production) app Apple id, as Apple's verifier is configured.
    @discardableResult
    package static func expectations(
        of input: [UInt8], kind: DocumentKind, kit: MutationKit, seed: UInt64,
        caDirectory: String
    ) throws(MutationError) -> Expectations {
        let expectations: Expectations
        let baseline: [UInt8]
        if kind == .jws {
            expectations = try JWSMutationContext.baseline(of: input, kit: kit).expectations
            baseline = try JWSMutationCatalogue.baseline.apply(to: input, kit: kit)
        } else {
            baseline = try MutationCatalogue.baseline.apply(to: input, kit: kit, seed: seed)
            let read = Receipt.read(baseline)
            expectations = Expectations(
                bundleID: read.first(.bundleID)?.text, appVersion: read.first(.applicationVersion)?.text,
                deviceID: kit.deviceID)
        }
        let options = InspectionOptions(anchors: TrustAnchors([kit.authority.root]), expectations: expectations)
        let inspection = Inspector.inspect(baseline, options: options)
        guard !inspection.isValid else { return expectations }
        throw refusal(
            caDirectory, errors: inspection.findings.filter { $0.severity == .error },
            readError: inspection.readError.map { "\($0.code): \($0.message)" })
    }

    /// The refusal, with the first errors the baseline's verdict rests on and what to do.
    static func refusal(_ caDirectory: String, errors: [Finding], readError: String?) -> MutationError {
        var reasons = errors.prefix(3).map { "\($0.code): \($0.message)" }
        if let readError { reasons.insert(readError, at: 0) }
        return MutationError(
            .baselineInvalid,
            "the baseline re-signed with \(caDirectory) is not valid under its own root — "
                + reasons.joined(separator: "; ") + ". " + hint(for: Set(errors.map(\.kind))))
    }

    /// What to do about the codes that rejected the baseline.
    static func hint(for codes: Set<FindingCode>) -> String {
        if codes.contains(.signatureAlgorithmKeyMismatch) {
            return
                "Receipts are signed with RSA: make the CA with `rcpt ca init DIR` (the default shape); `--shape jws` is for JWS"
        }
        if codes.contains(.storekitSignerOnAppStoreReceipt) {
            return
                "A StoreKit-shaped CA signs Xcode receipts: use `rcpt ca init DIR` (the default shape) for App Store receipts"
        }
        return
            "Make the CA with `rcpt ca init DIR` (`--shape jws` for JWS), its certificates valid when the document says it was signed"
    }
}
