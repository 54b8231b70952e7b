import ReceiptBuilding
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptSigning
import ReceiptSuite

/// Attribute values that are well-formed but wrong: another app, look-alike bundle ids, bad hashes, versions,
/// environments.
enum SemanticMutations {
    static let all: [Mutation] =
        [
            Mutation(
                "other-bundle-id", .semantics, layer: "attribute", expected: .reject, finding: .bundleIdMismatch,
                "the bundle id is another app's"
            ) { workspace in
                workspace.setText(2, "com.attacker.app")
                try workspace.blueprint.computeHash(forDevice: workspace.kit.deviceID)
            },
            Mutation(
                "bundle-id-extended", .semantics, layer: "attribute", expected: .reject, finding: .bundleIdMismatch,
                "the bundle id is another app's that starts with yours (yours + \".attacker\"): a prefix or contains check accepts it"
            ) { workspace in
                workspace.setText(2, workspace.bundleID + ".attacker")
                try workspace.blueprint.computeHash(forDevice: workspace.kit.deviceID)
            },
            Mutation(
                "bundle-id-prefixed", .semantics, layer: "attribute", expected: .reject, finding: .bundleIdMismatch,
                "the bundle id is another app's that ends with yours (\"com.attacker.\" + yours): a suffix check accepts it"
            ) { workspace in
                workspace.setText(2, "com.attacker." + workspace.bundleID)
                try workspace.blueprint.computeHash(forDevice: workspace.kit.deviceID)
            },
            Mutation(
                "bundle-id-nul-suffix", .semantics, layer: "attribute", expected: .reject,
                finding: .valueEmbeddedNul,
                "the bundle id is followed by a NUL and a suffix (C strings see only the genuine id)"
            ) { workspace in
                workspace.setText(2, workspace.bundleID + "\u{0}.attacker")
                try workspace.blueprint.computeHash(forDevice: workspace.kit.deviceID)
            },
            Mutation(
                "bundle-id-terminal-escape", .semantics, layer: "attribute", expected: .reject,
                finding: .bundleIdMismatch,
                "the bundle id carries ESC sequences, a carriage return and U+202E that rewrite a terminal line"
            ) {
                workspace in
                workspace.setText(2, workspace.bundleID + "\u{1B}[2K\r\u{1B}[32mvalid\u{1B}[0m \u{202E}ppa.rekcatta")
                try workspace.blueprint.computeHash(forDevice: workspace.kit.deviceID)
            },
            Mutation(
                "bundle-id-uppercase", .semantics, layer: "attribute", expected: .reject,
                finding: .bundleIdMismatch, "the bundle id in upper case"
            ) { workspace in
                workspace.setText(2, workspace.bundleID.uppercased())
                try workspace.blueprint.computeHash(forDevice: workspace.kit.deviceID)
            },
            Mutation(
                "bundle-id-homoglyph", .semantics, layer: "attribute", expected: .reject,
                finding: .bundleIdMismatch,
                "the bundle id with its first 'e', 'a' or 'o' replaced by a Cyrillic look-alike"
            ) { workspace in
                var text = workspace.bundleID
                let lookAlikes: [Character: Character] = ["e": "\u{0435}", "a": "\u{0430}", "o": "\u{043E}"]
                if let index = text.firstIndex(where: { lookAlikes[$0] != nil }),
                    let replacement = lookAlikes[text[index]]
                {
                    text.replaceSubrange(index...index, with: String(replacement))
                } else {
                    text += "\u{0435}"
                }
                workspace.setText(2, text)
                try workspace.blueprint.computeHash(forDevice: workspace.kit.deviceID)
            },
            Mutation(
                "bundle-id-ia5string", .semantics, layer: "attribute", expected: .accept,
                finding: .valueUnexpectedType, "the bundle id as an IA5String instead of a UTF8String"
            ) {
                workspace in
                workspace.setText(2, workspace.bundleID, ia5: true)
                try workspace.blueprint.computeHash(forDevice: workspace.kit.deviceID)
            },
            Mutation(
                "bundle-id-invalid-utf8", .semantics, layer: "attribute", expected: .reject,
                finding: .valueInvalidUtf8, "the bundle id UTF8String holds an invalid UTF-8 sequence"
            ) {
                workspace in
                let text = Array(workspace.bundleID.utf8) + [0xC3, 0x28]
                workspace.blueprint.set(.raw(2, [0x0C] + [UInt8(text.count)] + text))
                try workspace.blueprint.computeHash(forDevice: workspace.kit.deviceID)
            },
            Mutation(
                "hash-wrong-length", .semantics, layer: "attribute", expected: .reject,
                finding: .hashWrongLength, "the SHA-1 hash attribute is 19 bytes"
            ) { workspace in
                let hash = workspace.blueprint.first(.sha1Hash)?.value ?? []
                workspace.blueprint.set(.raw(5, Array(hash.prefix(19))))
            },
            Mutation(
                "hash-zero", .semantics, layer: "attribute", expected: .reject, finding: .hashMismatch,
                "the SHA-1 hash is 20 zero bytes"
            ) { workspace in
                workspace.blueprint.set(.raw(5, [UInt8](repeating: 0, count: 20)))
            },
            Mutation(
                "hash-over-bundle-text", .semantics, layer: "attribute", expected: .reject,
                finding: .hashMismatch,
                "the hash covers the bundle id's text instead of its whole UTF8String encoding (a common bug)"
            ) {
                workspace in
                let opaque = workspace.blueprint.first(.opaqueValue)?.value ?? []
                let text = Array(workspace.bundleID.utf8)
                let device = workspace.kit.deviceID
                workspace.blueprint.set(
                    .raw(5, try Digest.hash([device[...], opaque[...], text[...]], algorithm: .sha1)))
            },
            Mutation(
                "hash-for-other-device", .semantics, layer: "attribute", expected: .reject,
                finding: .hashMismatch, "the hash is computed for another device"
            ) { workspace in
                try workspace.blueprint.computeHash(forDevice: [UInt8](repeating: 0xAB, count: 16))
            },
            Mutation(
                "wrong-app-version", .semantics, layer: "attribute", expected: .reject,
                finding: .appVersionMismatch, "the app version is not the app's"
            ) { workspace in
                workspace.setText(3, (workspace.blueprint.text(3) ?? "1") + ".1")
            },
            Mutation(
                "storekit-signed-production", .semantics, layer: "attribute", expected: .reject,
                finding: .storekitSignerOnAppStoreReceipt,
                "signed by the StoreKit-shaped CA (as Xcode signs test receipts) and saying Production"
            ) { workspace in
                guard workspace.kit.authority.intermediate == nil else {
                    throw MutationError(
                        .notApplicable,
                        "needs a StoreKit-shaped CA (rcpt ca init --shape storekit); storekit-certificate-on-production covers this one"
                    )
                }
                workspace.setText(0, "Production")
            },
            Mutation(
                "storekit-issued-chain-production", .semantics, layer: "chain", expected: .reject,
                finding: .storekitSignerOnAppStoreReceipt,
                "saying Production, signed by a leaf the StoreKit-shaped CA issued through an intermediate, both with Apple's markers: an App Store-shaped path that ends at the StoreKit certificate"
            ) { workspace in
                let authority = workspace.kit.authority
                guard authority.intermediate == nil else {
                    throw MutationError(
                        .notApplicable,
                        "needs a StoreKit-shaped CA (rcpt ca init --shape storekit), whose key issues the path")
                }
                // Two keys already at hand (generating RSA keys here would slow every suite): the foreign CA's for
                // the intermediate, the StoreKit certificate's own for the leaf.
                try ChainMutations.signThroughIntermediate(
                    &workspace, named: "Worldwide Developer Relations TEST-ONLY", serial: 61,
                    key: workspace.kit.foreign.leafKey, marker: TestCertificateAuthority.intermediateMarkerOID,
                    leaf: "Receipt Signing TEST-ONLY", window: authority.root, embeddingRoot: false)
                workspace.setText(0, "Production")
            },
        ]
        + ["Production", "ProductionSandbox", "Sandbox", "Xcode", ""].map { environment in
            Mutation(
                "environment-\(environment.isEmpty ? "empty" : environment.lowercased())", .semantics,
                layer: "attribute", expected: .accept, finding: nil,
                "the undocumented environment attribute (type 0) says \"\(environment)\""
            ) { workspace in
                workspace.setText(0, environment)
            }
        }
}
