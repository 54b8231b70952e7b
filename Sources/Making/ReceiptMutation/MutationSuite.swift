import Foundation
import ReceiptDiagnostics
import ReceiptInput
import ReceiptModel
import ReceiptSigning
import ReceiptSuite
import ReceiptValidation

/// Writes every mutation of one input, a receipt or a JWS document, into a directory, with `manifest.json`: the
/// one suite format `rcpt conformance` runs a validator over.
package enum MutationSuite {
    /// Applies every mutation of the input's kind (baseline first) to `input` and writes the files (`<name>.receipt`,
    /// `<name>.jws` or `<name>.json`) and the manifest into `directory`, which must not hold an older suite's files
    /// unless `force`. `rcpt` names the executable to suggest in the validator line (the one that writes the suite).
    package static func write(
        input: [UInt8], inputName: String, kit: MutationKit, seed: UInt64, caDirectory: String,
        to directory: String, force: Bool, rcpt: String = "rcpt",
        context: ValidatorContext = .device
    ) throws(MutationError) -> Manifest {
        let kind = InputClassifier.classify(input).kind
        var expected = try BaselineCheck.expectations(
            of: input, kind: kind, kit: kit, seed: seed, caDirectory: caDirectory)
        // A server is told neither the device nor the app version.
        if context == .server {
            expected.deviceID = nil
            expected.appVersion = nil
        }
        try prepare(directory, force: force)
        // Absolute paths, so the suggested line works from any directory.
        let root = ShellWords.absolute(caDirectory + "/root.pem")
        let deviceID = expected.deviceID.map(DeviceIdentifier.text)
        var manifest = Manifest(
            input: inputName, seed: kind == .jws ? 0 : seed,
            expectations: ManifestExpectations(
                bundleID: expected.bundleID, appVersion: expected.appVersion,
                // A receipt's hash is computed for the kit's device, whoever is told it.
                deviceID: kind == .jws ? deviceID ?? "" : kit.deviceIDText, appAppleID: expected.appAppleID,
                environment: expected.environment?.rawValue, context: context.rawValue, root: root,
                validator: suggestedValidator(
                    rcpt: rcpt, root: root, bundleID: expected.bundleID, appVersion: expected.appVersion,
                    deviceID: deviceID, appAppleID: expected.appAppleID,
                    environment: expected.environment?.rawValue)),
            mutations: [], skipped: [:])
        // The suite's own validator line judges each entry: one it judges otherwise than the catalogue expects needs
        // another chain shape than this CA's (a StoreKit CA has no intermediate to leave out).
        let judged = InspectionOptions(anchors: TrustAnchors([kit.authority.root]), expectations: expected)
        try fill(
            &manifest, with: MutationCatalogue.all(for: kind), in: directory, context: context,
            judge: { Inspector.inspect($0, options: judged).isValid },
            file: { mutation, bytes in
                mutation.name + (kind != .jws ? ".receipt" : bytes.first == UInt8(ascii: "{") ? ".json" : ".jws")
            },
            make: { mutation throws(MutationError) in
                try mutation.apply(to: input, kit: kit, seed: seed)
            })
        return manifest
    }

    /// The `rcpt verify` line a suite suggests to judge its inputs as the manifest expects.
    static func suggestedValidator(
        rcpt: String, root: String, bundleID: String?, appVersion: String?,
        deviceID: String?, appAppleID: String? = nil, environment: String? = nil
    ) -> String {
        var validator = "\(ShellWords.quoted(rcpt)) verify --root \(ShellWords.quoted(root))"
        if let bundleID { validator += " --bundle-id \(ShellWords.quoted(bundleID))" }
        if let appAppleID { validator += " --app-apple-id \(appAppleID)" }
        if let environment { validator += " --environment \(ShellWords.quoted(environment))" }
        if let appVersion { validator += " --app-version \(ShellWords.quoted(appVersion))" }
        if let deviceID { validator += " --device-id \(deviceID)" }
        return validator + " {}"
    }

    /// Makes each of `mutations` that `context` asks of a validator, writes it into `directory` as
    /// `file(mutation, bytes)` and lists it in `manifest`, then writes the manifest. An entry that cannot be made from
    /// this input, is not asked in this context, or that `judge` (the suite's own `rcpt verify` line: true for
    /// valid) judges otherwise than the entry expects (it needs another CA shape), is listed in `skipped` with why.
    static func fill(
        _ manifest: inout Manifest, with mutations: [Mutation], in directory: String,
        context: ValidatorContext, judge: ([UInt8]) -> Bool,
        file: (Mutation, [UInt8]) -> String,
        make: (Mutation) throws(MutationError) -> [UInt8]
    ) throws(MutationError) {
        for mutation in mutations {
            if let reason = context.excludes(
                finding: mutation.finding, appVersionGiven: manifest.expectations.appVersion != nil)
            {
                manifest.skipped[mutation.name] = reason
                continue
            }
            let bytes: [UInt8]
            do {
                bytes = try make(mutation)
            } catch {
                manifest.skipped[mutation.name] = error.message
                continue
            }
            let valid = judge(bytes)
            if valid != (mutation.expected == .accept) {
                manifest.skipped[mutation.name] =
                    "with this CA's chain shape the suite's rcpt verify line judges it \(valid ? "valid" : "invalid"), not as the entry expects: it needs another shape"
                continue
            }
            let file = file(mutation, bytes)
            guard FileManager.default.createFile(atPath: directory + "/" + file, contents: Data(bytes)) else {
                throw MutationError(.writeFailed, "cannot write \(directory)/\(file)")
            }
            manifest.mutations.append(
                ManifestEntry(
                    name: mutation.name, file: file, group: mutation.group.rawValue,
                    layer: mutation.layer, description: mutation.summary,
                    expected: mutation.expected.rawValue, finding: mutation.finding,
                    signatureValid: mutation.signatureValid,
                    concern: mutation.threat.concern.rawValue,
                    attacker: mutation.threat.attacker.rawValue,
                    threat: mutation.threat.why, readers: mutation.threat.readers))
        }
        try manifest.write(in: directory)
    }

    /// Creates `directory`, refusing one that holds a suite already unless `force`.
    static func prepare(_ directory: String, force: Bool) throws(MutationError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw MutationError(.writeFailed, "cannot create \(directory): \(error.localizedDescription)")
        }
        if !force, FileManager.default.fileExists(atPath: directory + "/manifest.json") {
            throw MutationError(.suiteExists, "\(directory) already holds a suite; use --force to replace it")
        }
        Manifest.removePrevious(in: directory)
    }
}
