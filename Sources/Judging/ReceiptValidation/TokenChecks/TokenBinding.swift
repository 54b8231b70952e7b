import Foundation
import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptModel
import ReceiptPurchases

/// The app, device and environment expected (`Expectations`), checked where this kind of payload carries each
/// value, as Apple's `SignedDataVerifier` reads them; the binding's own conflicts and misplaced claims are said.
struct TokenBinding: TokenCheck {
    func check(_ judgement: inout TokenJudgement) {
        judgement.findings += Self.findings(
            judgement.binding, carried: judgement.carrier != nil,
            judgement.options.expectations, at: judgement.payloadOffset)
    }

    /// What `verification` can be bound to, as `findings` checks each token: a part any token of its tree carries
    /// (a notification binds the app by its data, a nested transaction the device by its deviceVerification).
    static func carried(_ verification: JWSVerification, _ expectations: Expectations) -> Set<BindingScope.Part> {
        var carried: Set<BindingScope.Part> = []
        var pending = [verification]
        while let token = pending.popLast() {
            carried.formUnion(own(token.binding, expectations))
            pending += token.nested
        }
        return carried
    }

    /// What one token carries of what `findings` checks.
    private static func own(_ binding: JWSBinding, _ expectations: Expectations) -> Set<BindingScope.Part> {
        var own: Set<BindingScope.Part> = [.environment]
        if binding.carriesBundleID { own.insert(.bundleID) }
        if binding.carriesAppAppleID,
            binding.appAppleID != nil || binding.environment?.text == ReceiptEnvironment.production.rawValue
        {
            own.insert(.appAppleID)
        }
        if binding.kind == .appTransaction { own.insert(.appVersion) }
        if [.transaction, .renewalInfo, .appTransaction].contains(binding.kind),
            let verification = binding.deviceVerification, let device = expectations.deviceID,
            Expectations.deviceVerification(nonce: verification.nonce.text, deviceID: device) != nil
        {
            own.insert(.device)
        }
        return own
    }

    /// The expectations checked where this kind of payload carries each value (Apple's `SignedDataVerifier`): a
    /// bundleId a renewal info does not carry is bound by its carrier (alone, it is a warning); appAppleId is checked
    /// where the kind carries it, and required only in Production; a notification's top-level look-alikes are not
    /// read, only reported.
    static func findings(
        _ binding: JWSBinding, carried: Bool, _ expectations: Expectations,
        at offset: (Int) -> Int
    ) -> [Finding] {
        var findings: [Finding] = []
        for conflict in binding.conflicts {
            findings.append(
                Finding(
                    .jwsBindingMismatch, at: offset(conflict.value.jsonOffset), FindingMessage(conflict.reason),
                    fields: [FindingField("path", conflict.value.path)]))
        }
        for misplaced in binding.misplaced {
            findings.append(
                Finding(
                    .jwsClaimMisplaced, at: offset(misplaced.jsonOffset),
                    "the notification has \(misplaced.path) at its top level: Apple reads the app and environment from data (summary, externalPurchaseToken, appData), and so does rcpt",
                    fields: [FindingField("path", misplaced.path)]))
        }
        func at(_ value: JWSBinding.Value?) -> Int? { value.map { offset($0.jsonOffset) } }
        if let expected = expectations.bundleID {
            if binding.carriesBundleID {
                let actual = binding.bundleID?.text
                if actual.map({ Array($0.utf8) }) != Array(expected.utf8) {
                    findings.append(
                        Finding(
                            .bundleIdMismatch, at: at(binding.bundleID),
                            "bundleId\(binding.bundleID.map { " (\($0.path))" } ?? "") is \(actual.map { "\"\($0)\"" } ?? "missing"), expected \"\(expected)\""
                        ))
                }
            } else if !carried {
                findings.append(
                    Finding(
                        .jwsNotBoundToApp, at: nil,
                        "the \(binding.kind.noun) carries no bundleId: on its own it cannot be bound to \"\(expected)\"; verify the notification or response that carries it"
                    ))
            }
        }
        if let expected = expectations.appAppleID, binding.carriesAppAppleID {
            if let actual = binding.appAppleID {
                if !actual.isWholeNumber(expected) {
                    findings.append(
                        Finding(
                            .appAppleIdMismatch, at: at(actual),
                            "appAppleId (\(actual.path)) is \(actual.text), expected \(expected)"))
                }
            } else if binding.environment?.text == ReceiptEnvironment.production.rawValue {
                findings.append(
                    Finding(
                        .appAppleIdMismatch, at: nil,
                        "appAppleId is missing from a Production \(binding.kind.noun), expected \(expected)"))
            }
        }
        if let expected = expectations.appVersion, binding.kind == .appTransaction {
            let actual = binding.appVersion?.text
            if actual.map({ Array($0.utf8) }) != Array(expected.utf8) {
                findings.append(
                    Finding(
                        .appVersionMismatch, at: at(binding.appVersion),
                        "applicationVersion is \(actual.map { "\"\($0)\"" } ?? "missing"), expected \"\(expected)\""))
            }
        }
        if let device = expectations.deviceID,
            [.transaction, .renewalInfo, .appTransaction].contains(binding.kind)
        {
            if let verification = binding.deviceVerification,
                let expected = Expectations.deviceVerification(nonce: verification.nonce.text, deviceID: device)
            {
                if Base64.decode(Array(verification.value.text.utf8)) != expected {
                    findings.append(
                        Finding(
                            .jwsDeviceMismatch, at: at(verification.value),
                            "deviceVerification is not SHA-384 of deviceVerificationNonce and the device \(DeviceIdentifier.text(device)): the \(binding.kind.noun) was issued to another device"
                        ))
                }
            } else {
                let why =
                    binding.deviceVerification == nil
                    ? "carries no deviceVerification with its deviceVerificationNonce (StoreKit adds both to the tokens it gives a device; the App Store Server API neither)"
                    : "is bound to a device by its device verification UUID, and the device id given is a MAC address"
                findings.append(
                    Finding(
                        .jwsDeviceUnverifiable, at: nil,
                        "the \(binding.kind.noun) \(why): it cannot be bound to the device"))
            }
        }
        if let expected = expectations.environment {
            let actual = binding.environment?.text
            if actual != expected.rawValue {
                findings.append(
                    Finding(
                        .environmentMismatch, at: at(binding.environment),
                        "environment\(binding.environment.map { " (\($0.path))" } ?? "") is \(actual.map { "\"\($0)\"" } ?? "missing"), expected \"\(expected.rawValue)\"",
                        fields: [
                            FindingField("environment", actual ?? "unknown"),
                            FindingField("expected", expected.rawValue),
                        ]))
            }
        }
        return findings
    }
}
