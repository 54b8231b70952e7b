import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptSigning
import ReceiptSuite

/// Decoys in the certificates set: certificates embedded beside the signer's that a validator may take for it (the
/// first one, any one with Apple's marker, the one of the signer's name) while the signature or chain is another's.
extension ChainMutations {
    static let decoys: [Mutation] = [
        Mutation(
            "decoy-leaf-before-genuine", .chain, layer: "chain", expected: .reject,
            finding: .signerCertificateAmbiguous,
            "a certificate with the signer's issuer and serial number and another key stands before the genuine leaf"
        ) { workspace in
            let authority = workspace.kit.authority
            guard let serial = UInt64(authority.leaf.serialHex, radix: 16) else {
                throw MutationError(.notApplicable, "the leaf's serial number does not fit 64 bits")
            }
            let decoyKey = workspace.kit.foreign.leafKey
            let decoy = try Certificate.issue(
                CertificateRequest(
                    subject: subject("Receipt Signing decoy TEST-ONLY"), serialNumber: serial,
                    notBefore: authority.leaf.notBefore, notAfter: authority.leaf.notAfter,
                    isCertificateAuthority: false),
                subjectKey: decoyKey, issuer: authority.intermediate ?? authority.leaf, issuerKey: decoyKey,
                digest: .sha256)
            workspace.signer.embeddedCertificates = [decoy] + authority.embeddedChain
        },
        Mutation(
            "genuine-chain-before-self-signed-signer", .chain, layer: "chain", expected: .reject,
            finding: .chainInvalid,
            "signed by a self-signed certificate of another key, embedded after the genuine leaf, intermediate and root"
        ) { workspace in
            let key = workspace.kit.foreign.leafKey
            let certificate = try selfSignedLeaf(serial: 45, key: key, window: workspace.kit.authority.leaf)
            workspace.signWith(certificate, key: key, embedding: workspace.kit.authority.embeddedChain + [certificate])
        },
        Mutation(
            "decoy-marked-leaf-first", .chain, layer: "chain", expected: .reject, finding: .leafMarkerMissing,
            "signed by a certificate of the intermediate without the receipt-signing marker (a developer's), the genuine marked leaf embedded first as a decoy"
        ) { workspace in
            let authority = workspace.kit.authority
            guard let intermediate = authority.intermediate, let intermediateKey = authority.intermediateKey else {
                throw MutationError(.noIntermediate, "the CA has no intermediate")
            }
            let key = workspace.kit.foreign.leafKey
            let signer = try issue(
                name: "Developer Signing without marker TEST-ONLY", serial: 44, window: authority.leaf,
                key: key, issuer: intermediate, issuerKey: intermediateKey, marker: nil, isCA: false)
            workspace.signWith(signer, key: key, embedding: [authority.leaf, signer, intermediate, authority.root])
        },
        Mutation(
            "decoy-intermediate-with-marker", .chain, layer: "chain", expected: .reject,
            finding: .intermediateMarkerMissing,
            "the path's intermediate lacks the WWDR marker; a decoy with its subject and the marker is embedded first"
        ) {
            workspace in
            let authority = workspace.kit.authority
            guard let intermediateKey = authority.intermediateKey else {
                throw MutationError(.noIntermediate, "the CA has no intermediate")
            }
            let name = "Developer Relations CA (decoy target) TEST-ONLY"
            let unmarked = try issue(
                name: name, serial: 52, window: authority.root, key: intermediateKey,
                issuer: authority.root, issuerKey: authority.rootKey, marker: nil, isCA: true)
            let decoyKey = workspace.kit.foreign.leafKey
            let decoy = try issue(
                name: name, serial: 53, window: authority.root, key: decoyKey, issuer: nil,
                issuerKey: decoyKey, marker: TestCertificateAuthority.intermediateMarkerOID,
                isCA: true)
            let leaf = try issue(
                name: "Receipt Signing under unmarked CA TEST-ONLY", serial: 54,
                window: authority.leaf, key: authority.leafKey, issuer: unmarked,
                issuerKey: intermediateKey, marker: TestCertificateAuthority.leafMarkerOID,
                isCA: false)
            workspace.signWith(leaf, key: authority.leafKey, embedding: [leaf, decoy, unmarked, authority.root])
        },
    ]
}
