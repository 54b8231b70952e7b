import Foundation
import ReceiptJSON
import ReceiptSuite
import ReceiptDiagnostics

/// Writes every JWS mutation of one input into a directory, with `manifest.json` (the schema receipt suites use, so
/// `rcpt conformance` runs a validator over it the same way).
package enum JWSMutationSuite {
    package static func write(input: [UInt8], inputName: String, kit: MutationKit, caDirectory: String,
                             to directory: String, force: Bool, rcpt: String = "rcpt") throws(MutationError) -> Manifest {
        let manager = FileManager.default
        try MutationSuite.prepare(directory, force: force)
        let context = try JWSMutationContext.baseline(of: input, kit: kit)
        let bundleID = JWSMutationContext.value(of: "bundleId", in: context.payload)
            .flatMap { try? JSONDocument.read(Array($0.utf8)) }.flatMap { $0.string($0.root) }
        let root = ShellWords.absolute(caDirectory + "/root.pem")
        var validator = "\(ShellWords.quoted(rcpt)) verify --root \(ShellWords.quoted(root))"
        if let bundleID { validator += " --bundle-id \(ShellWords.quoted(bundleID))" }
        validator += " {}"
        var manifest = Manifest(input: inputName, seed: 0,
                                expectations: ManifestExpectations(bundleID: bundleID, appVersion: nil, deviceID: "",
                                                                   root: root, validator: validator),
                                mutations: [], skipped: [:])
        for mutation in JWSMutationCatalogue.all {
            let bytes: [UInt8]
            do {
                bytes = try mutation.apply(to: input, kit: kit)
            } catch {
                manifest.skipped[mutation.name] = error.message
                continue
            }
            let file = mutation.name + (bytes.first == UInt8(ascii: "{") ? ".json" : ".jws")
            guard manager.createFile(atPath: directory + "/" + file, contents: Data(bytes)) else {
                throw MutationError(.writeFailed, "cannot write \(directory)/\(file)")
            }
            manifest.mutations.append(ManifestEntry(name: mutation.name, file: file, group: "jws",
                                                    layer: mutation.layer, description: mutation.summary,
                                                    expected: mutation.expected.rawValue, finding: mutation.finding,
                                                    signatureValid: mutation.signatureValid,
                                                    concern: mutation.concern.rawValue))
        }
        try MutationSuite.writeManifest(manifest, to: directory)
        return manifest
    }
}

extension JWSMutationCatalogue {
    /// The mutation called `name`.
    public static func named(_ name: String) -> JWSMutation? { all.first { $0.name == name } }
}
