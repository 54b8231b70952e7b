import Foundation
import ReceiptModel

/// One entry of a suite's manifest.
public struct ManifestEntry: Sendable, Hashable, Codable {
    public var name: String
    public var file: String
    public var group: String
    public var layer: String
    public var description: String
    public var expected: String
    public var finding: String?
    public var signatureValid: Bool
    /// `security` or `policy` (`Concern`); suites written before it existed count as security.
    public var concern: String?
}

/// What a suite's validators must be told to judge the receipts as the manifest expects.
public struct ManifestExpectations: Sendable, Hashable, Codable {
    public var bundleID: String?
    public var appVersion: String?
    public var deviceID: String
    public var root: String
    public var validator: String
}

/// `manifest.json` of a mutation suite.
public struct Manifest: Sendable, Hashable, Codable {
    public var schema = "rcpt.mutations/1"
    public var input: String
    public var seed: UInt64
    public var expectations: ManifestExpectations
    public var mutations: [ManifestEntry]
    /// Mutations that could not be applied to this input, with the reason.
    public var skipped: [String: String]
}

/// Writes every mutation of one input into a directory, with `manifest.json`.
public enum MutationSuite {
    /// Applies every catalogue mutation (baseline first) to `input` and writes `<name>.receipt` files and the
    /// manifest into `directory`, which must not hold an older suite's files unless `force`.
    /// `rcpt` names the executable to suggest in the validator line (the one that writes the suite).
    public static func write(input: [UInt8], inputName: String, kit: MutationKit, seed: UInt64, caDirectory: String,
                             to directory: String, force: Bool, rcpt: String = "rcpt") throws(MutationError) -> Manifest {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw MutationError("write-failed", "cannot create \(directory): \(error.localizedDescription)")
        }
        if !force, manager.fileExists(atPath: directory + "/manifest.json") {
            throw MutationError("suite-exists", "\(directory) already holds a suite; use --force to replace it")
        }
        let baseline = try MutationCatalogue.baseline.apply(to: input, kit: kit, seed: seed)
        let receipt = Receipt.read(baseline)
        var bundleID: String?
        var appVersion: String?
        if case .text(let text)? = receipt.first(2)?.value { bundleID = text }
        if case .text(let text)? = receipt.first(3)?.value { appVersion = text }
        // Absolute paths, so the suggested line works from any directory.
        let root = absolute(caDirectory + "/root.pem")
        var validator = "\(shellQuoted(rcpt)) verify --root \(shellQuoted(root))"
        if let bundleID { validator += " --bundle-id \(shellQuoted(bundleID))" }
        if let appVersion { validator += " --app-version \(shellQuoted(appVersion))" }
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
                throw MutationError("write-failed", "cannot write \(directory)/\(file)")
            }
            manifest.mutations.append(ManifestEntry(name: mutation.name, file: file, group: mutation.group.rawValue,
                                                    layer: mutation.layer, description: mutation.summary,
                                                    expected: mutation.expected.rawValue, finding: mutation.finding,
                                                    signatureValid: mutation.signatureValid,
                                                    concern: mutation.concern.rawValue))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(manifest),
              manager.createFile(atPath: directory + "/manifest.json", contents: data + Data("\n".utf8))
        else { throw MutationError("write-failed", "cannot write \(directory)/manifest.json") }
        return manifest
    }

    /// The manifest in `directory`.
    public static func readManifest(in directory: String) throws(MutationError) -> Manifest {
        guard let data = FileManager.default.contents(atPath: directory + "/manifest.json") else {
            throw MutationError("manifest-missing", "\(directory)/manifest.json is missing: make the suite with `rcpt mutate --all`")
        }
        do {
            return try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw MutationError("manifest-invalid", "\(directory)/manifest.json is not a rcpt.mutations/1 manifest: \(error)")
        }
    }

    /// `path` made absolute against the current directory (unchanged when it already is).
    public static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// `text` as one /bin/sh word: unchanged when it is plain, else in single quotes with each ' written as '\''.
    public static func shellQuoted(_ text: String) -> String {
        let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@".contains($0) }
        return safe ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
