import FuzzSigningSupport
import ReceiptBuilding
import ReceiptCrypto
import ReceiptModel
import ReceiptMutation
import ReceiptPKCS7

/// The `verify` harness's seeds: receipts signed with the committed TEST-ONLY key that meet its expectations, and
/// every catalogue mutation of one of them, so fuzzing starts past the signature check and next to every flaw the
/// catalogue knows.
extension Seeds {
    func verify() -> [(name: String, bytes: [UInt8])] {
        let kit = sources.kit
        let baseline = MutationCatalogue.baseline
        var seeds: [(name: String, bytes: [UInt8])] = []
        // SyntheticReceipt's bundle id and version are the harness's expectations; the baseline computes the hash
        // for the kit's device, and keeps each variant's digest, layout and signed attributes.
        let variants: [(String, Int, DigestAlgorithm, ContainerLayout, Bool)] = [
            ("synthetic-0-records.der", 0, .sha256, .der, false),
            ("synthetic-1-record.der", 1, .sha256, .der, false),
            ("synthetic-3-records.der", 3, .sha256, .der, false),
            ("synthetic-1-record-sha1.der", 1, .sha1, .der, false),
            ("synthetic-1-record-signed-attributes.der", 1, .sha256, .der, true),
            ("synthetic-1-record.ber", 1, .sha256, .ber, false),
        ]
        for (name, records, digest, layout, signedAttributes) in variants {
            let payload = SyntheticReceipt(records: records, seed: UInt64(10 + records)).payload()
            guard
                let signed = try? sources.signer.sign(
                    payload, digest: digest, layout: layout,
                    signedAttributes: signedAttributes),
                let valid = try? baseline.apply(to: signed, kit: kit, seed: 1)
            else { continue }
            seeds.append(("valid-\(name)", valid))
        }
        // The real receipts, re-signed unchanged with the TEST-ONLY key (their own bundle ids: not expected).
        for receipt in sources.receipts {
            if let resigned = try? baseline.apply(to: receipt.bytes, kit: kit, seed: 1) {
                seeds.append(("resigned-\(receipt.name)", resigned))
            }
        }
        // Every catalogue mutation of the one-record receipt.
        if let base = seeds.first(where: { $0.name == "valid-synthetic-1-record.der" })?.bytes {
            for mutation in MutationCatalogue.all where mutation.name != baseline.name {
                if let mutated = try? mutation.apply(to: base, kit: kit, seed: 1) {
                    seeds.append(("mutation-\(Self.fileName(mutation.name))", mutated))
                }
            }
        }
        return unique(seeds)
    }

    /// A mutation name as a file name: lowercase letters, digits and dashes.
    static func fileName(_ name: String) -> String {
        String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    }
}
