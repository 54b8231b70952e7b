import ArgumentParser
import ReceiptModel
import ReceiptValidation

/// What a verdict expects of every input (`verify`): the app, its version, the device and the environment each kind
/// checks against what it carries (a receipt its bundle id, version, device and environment; a JWS its bundleId,
/// appAppleId and environment), and whether a check bound to no app fails.
struct ExpectationOptions: ParsableArguments {
    @Option(name: .customLong("bundle-id"), help: "The bundle identifier the receipt must carry.")
    var bundleID: String?

    @Option(name: .customLong("app-version"), help: "The app version (CFBundleVersion) the receipt must carry.")
    var appVersion: String?

    @Option(
        name: .customLong("device-id"),
        help: ArgumentHelp(
            "The device the document must be issued for: identifierForVendor UUID or Mac MAC address (a receipt's sha1_hash; a StoreKit token's deviceVerification, with the deviceVerificationID UUID).",
            valueName: "uuid-or-mac"))
    var deviceID: String?

    @Option(
        help: ArgumentHelp(
            "The environment the receipt must come from: Production, Sandbox or Xcode (as the endpoint a receipt is sent to insists; with --format verifyreceipt a Sandbox receipt under Production is status 21007, the reverse 21008).",
            valueName: "environment"))
    var environment: ReceiptEnvironment?

    @Option(
        name: .customLong("app-apple-id"),
        help: ArgumentHelp(
            "The app's App Store id: a JWS payload's appAppleId, a Production receipt's app_item_id.", valueName: "id"))
    var appAppleID: String?

    @Flag(
        name: .customLong("require-binding"),
        help:
            "Judge a check bound to no app or environment invalid (binding-required): without --bundle-id (and, for a Production document, --app-apple-id) any app's genuine document passes, and without --environment this app's Sandbox documents, free to any TestFlight tester; for CI."
    )
    var requireBinding = false

    func validate() throws {
        if let bundleID, bundleID.isEmpty {
            throw ValidationError("--bundle-id takes the app's bundle identifier, not an empty string")
        }
        if let appVersion, appVersion.isEmpty {
            throw ValidationError("--app-version takes the app's version, not an empty string")
        }
        if let appAppleID, appAppleID.isEmpty || !appAppleID.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            throw ValidationError("--app-apple-id takes the app's numeric App Store id, not '\(appAppleID)'")
        }
        if let deviceID, Expectations.parseDeviceID(deviceID) == nil {
            throw ValidationError(
                "--device-id takes a UUID (8-4-4-4-12 hex) or a MAC address (aa:bb:cc:dd:ee:ff), not '\(deviceID)'")
        }
    }

    /// The expectations of every input.
    var expectations: Expectations {
        Expectations(
            bundleID: bundleID, appVersion: appVersion, deviceID: deviceID.flatMap(Expectations.parseDeviceID),
            appAppleID: appAppleID.map(Self.digitsOfNumber), environment: environment)
    }

    /// A decimal number's digits without leading zeros: `--app-apple-id 0690661663` is the app 690661663 (a red
    /// team's trial: "app_item_id is 690661663, expected 0690661663").
    static func digitsOfNumber(_ digits: String) -> String {
        let significant = digits.drop { $0 == "0" }
        return significant.isEmpty ? "0" : String(significant)
    }

    /// The arguments that give these expectations again, for a reproduction line.
    var arguments: [String] {
        var words: [String] = []
        if let bundleID { words += ["--bundle-id", bundleID] }
        if let appVersion { words += ["--app-version", appVersion] }
        if let deviceID { words += ["--device-id", deviceID] }
        if let environment { words += ["--environment", environment.rawValue] }
        if let appAppleID { words += ["--app-apple-id", appAppleID] }
        if requireBinding { words.append("--require-binding") }
        return words
    }
}
