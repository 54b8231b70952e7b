import ReceiptCrypto
import ReceiptModel
import ReceiptSigning

/// Flaws in who signed: foreign and self-signed signers, missing certificates, markers, validity.
enum ChainMutations {
    static let all: [Mutation] = [
        Mutation("foreign-ca", .chain, layer: "chain", expected: .reject, finding: "chain-invalid",
                 "re-signed by a TEST-ONLY CA the validator does not trust") { workspace in
            workspace.signWith(ReceiptSigner(authority: workspace.kit.foreign))
        },
        Mutation("self-signed-leaf", .chain, layer: "chain", expected: .reject, finding: "chain-invalid",
                 "signed by a self-signed certificate for the leaf's key, embedded alone") { workspace in
            let key = workspace.kit.authority.leafKey
            let certificate = try issue(name: "Self-Signed Receipt Signing TEST-ONLY", serial: 40,
                                        window: workspace.kit.authority.leaf, key: key, issuer: nil, issuerKey: key,
                                        marker: TestCertificateAuthority.leafMarkerOID, isCA: false)
            workspace.signWith(ReceiptSigner(signingCertificate: certificate, key: key,
                                             embeddedCertificates: [certificate]))
        },
        Mutation("storekit-certificate-on-production", .chain, layer: "chain", expected: .reject,
                 finding: "chain-invalid",
                 "a \"Production\" receipt signed by a self-signed StoreKit-style test certificate") { workspace in
            let key = workspace.kit.authority.leafKey
            let certificate = try issue(name: "StoreKit TEST-ONLY", serial: 41, window: workspace.kit.authority.leaf,
                                        key: key, issuer: nil, issuerKey: key, marker: nil, isCA: true)
            workspace.signWith(ReceiptSigner(signingCertificate: certificate, key: key,
                                             embeddedCertificates: [certificate]))
            workspace.setText(0, "Production")
        },
        Mutation("certificates-missing-leaf", .chain, layer: "chain", expected: .reject,
                 finding: "signer-certificate-missing", signatureValid: false,
                 "the signing certificate is left out of the certificates set") { workspace in
            workspace.signer.embeddedCertificates = Array(workspace.kit.authority.embeddedChain.dropFirst())
        },
        Mutation("certificates-missing-intermediate", .chain, layer: "chain", expected: .reject,
                 finding: "chain-invalid", "the intermediate certificate is left out") { workspace in
            let authority = workspace.kit.authority
            workspace.signer.embeddedCertificates = [authority.leaf, authority.root]
        },
        Mutation("certificates-none", .chain, layer: "chain", expected: .reject,
                 finding: "signer-certificate-missing", signatureValid: false,
                 "no certificates at all") { workspace in
            workspace.signer.embeddedCertificates = []
        },
        Mutation("certificates-reordered", .chain, layer: "chain", expected: .accept, finding: nil,
                 "certificates in the order root, intermediate, leaf") { workspace in
            workspace.signer.embeddedCertificates = workspace.kit.authority.embeddedChain.reversed()
        },
        Mutation("certificates-duplicated", .chain, layer: "chain", expected: .accept, finding: nil,
                 "the leaf certificate appears twice") { workspace in
            let chain = workspace.kit.authority.embeddedChain
            workspace.signer.embeddedCertificates = [chain[0]] + chain
        },
        Mutation("leaf-marker-stripped", .chain, layer: "chain", expected: .reject, finding: "leaf-marker-missing",
                 "the leaf certificate lacks Apple's receipt-signing marker extension 1.2.840.113635.100.6.11.1") {
            workspace in
            let authority = workspace.kit.authority
            guard let intermediate = authority.intermediate, let intermediateKey = authority.intermediateKey else {
                throw MutationError("no-intermediate", "the CA has no intermediate")
            }
            let leaf = try issue(name: "Receipt Signing without marker TEST-ONLY", serial: 42, window: authority.leaf,
                                 key: authority.leafKey, issuer: intermediate, issuerKey: intermediateKey,
                                 marker: nil, isCA: false)
            workspace.signWith(ReceiptSigner(signingCertificate: leaf, key: authority.leafKey,
                                             embeddedCertificates: [leaf, intermediate, authority.root]))
        },
        Mutation("intermediate-marker-stripped", .chain, layer: "chain", expected: .reject,
                 finding: "intermediate-marker-missing",
                 "the intermediate lacks Apple's WWDR marker extension 1.2.840.113635.100.6.2.1") { workspace in
            let authority = workspace.kit.authority
            guard let intermediateKey = authority.intermediateKey else {
                throw MutationError("no-intermediate", "the CA has no intermediate")
            }
            let intermediate = try issue(name: "Developer Relations CA without marker TEST-ONLY", serial: 43,
                                         window: authority.root, key: intermediateKey, issuer: authority.root,
                                         issuerKey: authority.rootKey, marker: nil, isCA: true)
            let leaf = try issue(name: "Receipt Signing under unmarked CA TEST-ONLY", serial: 44, window: authority.leaf,
                                 key: authority.leafKey, issuer: intermediate, issuerKey: intermediateKey,
                                 marker: TestCertificateAuthority.leafMarkerOID, isCA: false)
            workspace.signWith(ReceiptSigner(signingCertificate: leaf, key: authority.leafKey,
                                             embeddedCertificates: [leaf, intermediate, authority.root]))
        },
        Mutation("leaf-expired-at-creation", .chain, layer: "chain", expected: .reject, finding: "chain-invalid",
                 "the leaf certificate expired the day before the receipt's creation date") { workspace in
            try resignWithLeafValidity(&workspace, from: workspace.creationSeconds - 63_072_000,
                                       to: workspace.creationSeconds - 86_400, serial: 45)
        },
        Mutation("leaf-not-yet-valid-at-creation", .chain, layer: "chain", expected: .reject,
                 finding: "chain-invalid", "the leaf certificate becomes valid the day after the creation date") {
            workspace in
            try resignWithLeafValidity(&workspace, from: workspace.creationSeconds + 86_400,
                                       to: workspace.creationSeconds + 63_072_000, serial: 46)
        },
    ]

    /// Re-signs with a leaf for the same key whose validity is `from`–`to`, issued by the CA's intermediate.
    static func resignWithLeafValidity(_ workspace: inout MutationWorkspace, from: Int64, to: Int64,
                                       serial: UInt64) throws {
        let authority = workspace.kit.authority
        guard let intermediate = authority.intermediate, let intermediateKey = authority.intermediateKey else {
            throw MutationError("no-intermediate", "the CA has no intermediate")
        }
        let request = CertificateRequest(
            subject: subject("Receipt Signing (validity shifted) TEST-ONLY"), serialNumber: serial, notBefore: from,
            notAfter: to, isCertificateAuthority: false,
            extraExtensions: [(TestCertificateAuthority.leafMarkerOID, false, [0x05, 0x00])])
        let leaf = try Certificate.issue(request, subjectKey: authority.leafKey, issuer: intermediate,
                                         issuerKey: intermediateKey, digest: .sha256)
        workspace.signWith(ReceiptSigner(signingCertificate: leaf, key: authority.leafKey,
                                         embeddedCertificates: [leaf, intermediate, authority.root]))
    }

    /// A TEST-ONLY certificate for `key`, valid as long as `window`, with or without a marker extension.
    static func issue(name: String, serial: UInt64, window: Certificate, key: PrivateKey, issuer: Certificate?,
                      issuerKey: PrivateKey, marker: String?, isCA: Bool) throws -> Certificate {
        let request = CertificateRequest(subject: subject(name), serialNumber: serial, notBefore: window.notBefore,
                                         notAfter: window.notAfter, isCertificateAuthority: isCA,
                                         extraExtensions: marker.map { [($0, false, [0x05, 0x00])] } ?? [])
        return try Certificate.issue(request, subjectKey: key, issuer: issuer, issuerKey: issuerKey, digest: .sha256)
    }

    static func subject(_ commonName: String) -> [(attribute: String, value: String)] {
        [("C", "US"), ("O", "rcpt mutations TEST-ONLY"), ("CN", commonName)]
    }
}
