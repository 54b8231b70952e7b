import ReceiptDiagnostics
import ReceiptModel
import ReceiptSigning
import ReceiptValidation

/// The baseline a CA re-signs must be valid under that CA's own root, as the suite's suggested `rcpt verify` line
/// judges it: every verdict a mutation expects is relative to a valid baseline. A CA that cannot make one — an EC
/// key where receipts are RSA-signed, a StoreKit-shaped chain on an App Store receipt, certificates whose validity
/// ends before the receipt was signed — is refused before anything is written, with the codes `rcpt verify` gives,
/// instead of a suite whose every expectation is wrong.
package enum BaselineCheck {
    /// Makes the baseline of the receipt `input` and judges it as the suite's validator would: the CA's root as the
    /// only anchor, the baseline's own bundle id and version and the kit's device as expectations. Returns those
    /// two, which the suite's manifest expects.
    @discardableResult
    package static func receipt(
        of input: [UInt8], kit: MutationKit, seed: UInt64,
        caDirectory: String
    ) throws(MutationError) -> (bundleID: String?, appVersion: String?) {
        let baseline = try MutationCatalogue.baseline.apply(to: input, kit: kit, seed: seed)
        let read = Receipt.read(baseline)
        var bundleID: String?
        var appVersion: String?
        if case .text(let text)? = read.first(.bundleID)?.value { bundleID = text }
        if case .text(let text)? = read.first(.applicationVersion)?.value { appVersion = text }
        let options = InspectionOptions(
            anchors: TrustAnchors([kit.authority.root]),
            expectations: Expectations(
                bundleID: bundleID, appVersion: appVersion,
                deviceID: kit.deviceID))
        let inspection = ReceiptInspector.inspect(baseline, options: options)
        guard !inspection.isValid else { return (bundleID, appVersion) }
        throw refusal(
            caDirectory, errors: inspection.findings.filter { $0.severity == .error },
            readError: inspection.readError.map { "\($0.code): \($0.message)" })
    }

    /// Makes the baseline of the JWS `input` and judges it as the suite's validator would: the CA's root as the
    /// only anchor, with the expectations the suite's manifest gives. Returns the baseline's context.
    @discardableResult
    package static func jws(
        of input: [UInt8], kit: MutationKit,
        caDirectory: String
    ) throws(MutationError) -> JWSMutationContext {
        let context = try JWSMutationContext.baseline(of: input, kit: kit)
        let options = InspectionOptions(anchors: TrustAnchors([kit.authority.root]), expectations: context.expectations)
        let inspection = JWSInspector.inspect(try JWSMutationCatalogue.baseline.apply(in: context), options: options)
        guard !inspection.isValid else { return context }
        var errors = inspection.findings
        var pending = inspection.tokens
        while let token = pending.popLast() {
            errors += token.findings
            pending += token.nested
        }
        throw refusal(
            caDirectory, errors: errors.filter { $0.severity == .error },
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
