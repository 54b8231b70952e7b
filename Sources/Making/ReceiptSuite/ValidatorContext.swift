import ReceiptDiagnostics

/// Where the validator under test runs, and so what it can be asked to check. A server knows the app (its bundle id,
/// Apple id and environment) but not the device a receipt or token was issued to, and not the app version unless it
/// is told; a device validator (or one told the device) knows both. A suite, a conformance run and a fuzz campaign
/// ask a validator only what its context lets it know, so a careful server validator meets no false alarm.
package enum ValidatorContext: String, Sendable, Hashable, CaseIterable {
    case device
    case server

    /// The finding codes whose checks need the device: the receipt's SHA-1 hash, a token's deviceVerification.
    static let deviceFindings: Set<String> = Set(
        [
            FindingCode.hashMismatch, .hashUnverifiable, .jwsDeviceMismatch,
            .jwsDeviceUnverifiable,
        ].map(\.rawValue))
    /// The finding code whose check needs the app version.
    static let appVersionFindings: Set<String> = [FindingCode.appVersionMismatch.rawValue]

    /// Why an entry whose expected rejection rests on `finding` is not asked of a validator in this context (nil
    /// when it is): a server is not asked for the device, nor for the app version unless `appVersionGiven`.
    package func excludes(finding: String?, appVersionGiven: Bool = false) -> String? {
        guard self == .server, let finding else { return nil }
        if Self.deviceFindings.contains(finding) {
            return "a server validator is not asked for the device binding (\(finding)): it does not know the device"
        }
        if Self.appVersionFindings.contains(finding), !appVersionGiven {
            return "a server validator is not asked for the app version (\(finding)) unless it is given one"
        }
        return nil
    }
}
