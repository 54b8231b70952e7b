import Foundation
import ReceiptJSON
import ReceiptSuite
import ReceiptDiagnostics

/// Writes every JWS mutation of one input into a directory, with `manifest.json` (the schema receipt suites use, so
/// `rcpt conformance` runs a validator over it the same way).
package enum JWSMutationSuite {
    package static func write(input: [UInt8], inputName: String, kit: MutationKit, caDirectory: String,
                             to directory: String, force: Bool, rcpt: String = "rcpt") throws(MutationError) -> Manifest {
        try MutationSuite.prepare(directory, force: force)
        let context = try JWSMutationContext.baseline(of: input, kit: kit)
        let bundleID = JWSMutationContext.value(of: "bundleId", in: context.payload)
            .flatMap { try? JSONDocument.read(Array($0.utf8)) }.flatMap { $0.string($0.root) }
        let root = ShellWords.absolute(caDirectory + "/root.pem")
        var manifest = Manifest(input: inputName, seed: 0,
                                expectations: ManifestExpectations(
                                    bundleID: bundleID, appVersion: nil, deviceID: "", root: root,
                                    validator: MutationSuite.suggestedValidator(rcpt: rcpt, root: root, bundleID: bundleID,
                                                                                appVersion: nil, deviceID: nil)),
                                mutations: [], skipped: [:])
        try MutationSuite.fill(&manifest, with: JWSMutationCatalogue.all, in: directory) { mutation, bytes in
            mutation.name + (bytes.first == UInt8(ascii: "{") ? ".json" : ".jws")
        } make: { mutation throws(MutationError) in try mutation.apply(to: input, kit: kit) }
        return manifest
    }
}

extension JWSMutationCatalogue {
    /// The mutation called `name`.
    public static func named(_ name: String) -> JWSMutation? { all.first { $0.name == name } }
}
