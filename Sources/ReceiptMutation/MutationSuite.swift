import Foundation
import ReceiptModel
import ReceiptSuite
import ReceiptDiagnostics

/// Writes every mutation of one input into a directory, with `manifest.json`.
package enum MutationSuite {
    /// Applies every catalogue mutation (baseline first) to `input` and writes `<name>.receipt` files and the
    /// manifest into `directory`, which must not hold an older suite's files unless `force`.
    /// `rcpt` names the executable to suggest in the validator line (the one that writes the suite).
    package static func write(input: [UInt8], inputName: String, kit: MutationKit, seed: UInt64, caDirectory: String,
                             to directory: String, force: Bool, rcpt: String = "rcpt") throws(MutationError) -> Manifest {
        let manager = FileManager.default
        try prepare(directory, force: force)
        let baseline = try MutationCatalogue.baseline.apply(to: input, kit: kit, seed: seed)
        let receipt = Receipt.read(baseline)
        var bundleID: String?
        var appVersion: String?
        if case .text(let text)? = receipt.first(2)?.value { bundleID = text }
        if case .text(let text)? = receipt.first(3)?.value { appVersion = text }
        // Absolute paths, so the suggested line works from any directory.
        let root = ShellWords.absolute(caDirectory + "/root.pem")
        var validator = "\(ShellWords.quoted(rcpt)) verify --root \(ShellWords.quoted(root))"
        if let bundleID { validator += " --bundle-id \(ShellWords.quoted(bundleID))" }
        if let appVersion { validator += " --app-version \(ShellWords.quoted(appVersion))" }
        validator += " --device-id \(kit.deviceIDText) {}"
        var manifest = Manifest(input: inputName, seed: seed,
                                expectations: ManifestExpectations(bundleID: bundleID, appVersion: appVersion,
                                                                   deviceID: kit.deviceIDText,
                                                                   root: root,
                                                                   validator: validator),
                                mutations: [], skipped: [:])
        for mutation in MutationCatalogue.all {
            let bytes: [UInt8]
            do {
                bytes = try mutation.apply(to: input, kit: kit, seed: seed)
            } catch {
                manifest.skipped[mutation.name] = error.message
                continue
            }
            let file = mutation.name + ".receipt"
            guard manager.createFile(atPath: directory + "/" + file, contents: Data(bytes)) else {
                throw MutationError(.writeFailed, "cannot write \(directory)/\(file)")
            }
            manifest.mutations.append(ManifestEntry(name: mutation.name, file: file, group: mutation.group.rawValue,
                                                    layer: mutation.layer, description: mutation.summary,
                                                    expected: mutation.expected.rawValue, finding: mutation.finding,
                                                    signatureValid: mutation.signatureValid,
                                                    concern: mutation.concern.rawValue))
        }
        try writeManifest(manifest, to: directory)
        return manifest
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
    }

    /// Writes `manifest.json` (sorted keys, pretty) into `directory`.
    static func writeManifest(_ manifest: Manifest, to directory: String) throws(MutationError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(manifest),
              FileManager.default.createFile(atPath: directory + "/manifest.json", contents: data + Data("\n".utf8))
        else { throw MutationError(.writeFailed, "cannot write \(directory)/manifest.json") }
    }
}
