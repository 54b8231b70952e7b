import Foundation
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel
import ReceiptSigning
import ReceiptSuite
import ReceiptValidation

/// Writes every JWS mutation of one input into a directory, with `manifest.json` (the schema receipt suites use, so
/// `rcpt conformance` runs a validator over it the same way).
package enum JWSMutationSuite {
    package static func write(
        input: [UInt8], inputName: String, kit: MutationKit, caDirectory: String,
        to directory: String, force: Bool, rcpt: String = "rcpt",
        context: ValidatorContext = .device
    ) throws(MutationError) -> Manifest {
        var expected = try BaselineCheck.jws(of: input, kit: kit, caDirectory: caDirectory).expectations
        if context == .server {
            expected.deviceID = nil
            expected.appVersion = nil
        }
        try MutationSuite.prepare(directory, force: force)
        let deviceID = expected.deviceID.map(DeviceIdentifier.text)
        let root = ShellWords.absolute(caDirectory + "/root.pem")
        var manifest = Manifest(
            input: inputName, seed: 0,
            expectations: ManifestExpectations(
                bundleID: expected.bundleID, appVersion: expected.appVersion,
                deviceID: deviceID ?? "", appAppleID: expected.appAppleID,
                environment: expected.environment?.rawValue, context: context.rawValue, root: root,
                validator: MutationSuite.suggestedValidator(
                    rcpt: rcpt, root: root, bundleID: expected.bundleID,
                    appVersion: expected.appVersion, deviceID: deviceID,
                    appAppleID: expected.appAppleID, environment: expected.environment?.rawValue)),
            mutations: [], skipped: [:])
        let judged = InspectionOptions(anchors: TrustAnchors([kit.authority.root]), expectations: expected)
        try MutationSuite.fill(
            &manifest, with: JWSMutationCatalogue.all, in: directory, context: context,
            judge: { JWSInspector.inspect($0, options: judged).isValid },
            file: { mutation, bytes in mutation.name + (bytes.first == UInt8(ascii: "{") ? ".json" : ".jws") },
            make: { mutation throws(MutationError) in
                try mutation.apply(to: input, kit: kit)
            })
        return manifest
    }
}

extension JWSMutationCatalogue {
    /// The mutation called `name`.
    public static func named(_ name: String) -> JWSMutation? { all.first { $0.name == name } }
}
