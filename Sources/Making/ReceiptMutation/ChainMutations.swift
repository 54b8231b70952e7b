import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptSigning
import ReceiptSuite

/// Flaws in who signed: foreign and self-signed signers, missing certificates, markers, validity.
enum ChainMutations {
    static let all: [Mutation] = basics + decoys + policy

    /// Who signed: foreign and self-signed signers, missing certificates, markers, validity.
    static let basics: [Mutation] = [
        Mutation(
            "foreign-ca", .chain, layer: "chain", expected: .reject, finding: .chainInvalid,
            "re-signed by a TEST-ONLY CA the validator does not trust"
        ) { workspace in
            workspace.signWith(ReceiptSigner(authority: workspace.kit.foreign))
        },
        Mutation(
            "self-signed-leaf", .chain, layer: "chain", expected: .reject, finding: .chainInvalid,
            "signed by a self-signed certificate for the leaf's key, embedded alone"
        ) { workspace in
            let key = workspace.kit.authority.leafKey
            let certificate = try selfSignedLeaf(serial: 40, key: key, window: workspace.kit.authority.leaf)
            workspace.signWith(certificate, key: key, embedding: [certificate])
        },
        Mutation(
            "storekit-certificate-on-production", .chain, layer: "chain", expected: .reject,
            finding: .chainInvalid,
            "a \"Production\" receipt signed by a self-signed StoreKit-style test certificate"
        ) { workspace in
            try signWithStoreKitCertificate(&workspace, serial: 41, saying: "Production")
        },
        Mutation(
            "storekit-certificate-on-xcode-type", .chain, layer: "chain", expected: .reject,
            finding: .chainInvalid,
            "an \"Xcode\" receipt signed by a self-signed StoreKit-style test certificate: a validator that takes Xcode receipts with their own certificate accepts anyone's"
        ) { workspace in
            try signWithStoreKitCertificate(&workspace, serial: 46, saying: "Xcode")
        },
        Mutation(
            "certificates-missing-leaf", .chain, layer: "chain", expected: .reject,
            finding: .signerCertificateMissing, signatureValid: false,
            "the signing certificate is left out of the certificates set"
        ) { workspace in
            workspace.signer.embeddedCertificates = Array(workspace.kit.authority.embeddedChain.dropFirst())
        },
        Mutation(
            "certificates-missing-intermediate", .chain, layer: "chain", expected: .reject,
            finding: .chainInvalid, "the intermediate certificate is left out"
        ) { workspace in
            let authority = workspace.kit.authority
            guard authority.intermediate != nil else {
                throw MutationError(
                    .notApplicable, "the CA has no intermediate (a StoreKit shape): there is none to leave out")
            }
            workspace.signer.embeddedCertificates = [authority.leaf, authority.root]
        },
        Mutation(
            "certificates-none", .chain, layer: "chain", expected: .reject,
            finding: .signerCertificateMissing, signatureValid: false,
            "no certificates at all"
        ) { workspace in
            workspace.signer.embeddedCertificates = []
        },
        Mutation(
            "certificates-reordered", .chain, layer: "chain", expected: .accept, finding: nil,
            "certificates in the order root, intermediate, leaf"
        ) { workspace in
            workspace.signer.embeddedCertificates = workspace.kit.authority.embeddedChain.reversed()
        },
        Mutation(
            "certificates-duplicated", .chain, layer: "chain", expected: .accept, finding: nil,
            "the leaf certificate appears twice"
        ) { workspace in
            let chain = workspace.kit.authority.embeddedChain
            workspace.signer.embeddedCertificates = [chain[0]] + chain
        },
        Mutation(
            "leaf-marker-stripped", .chain, layer: "chain", expected: .reject, finding: .leafMarkerMissing,
            "the leaf certificate lacks Apple's receipt-signing marker extension 1.2.840.113635.100.6.11.1"
        ) {
            workspace in
            let authority = workspace.kit.authority
            guard let intermediate = authority.intermediate, let intermediateKey = authority.intermediateKey else {
                throw MutationError(.noIntermediate, "the CA has no intermediate")
            }
            let leaf = try issue(
                name: "Receipt Signing without marker TEST-ONLY", serial: 42, window: authority.leaf,
                key: authority.leafKey, issuer: intermediate, issuerKey: intermediateKey,
                marker: nil, isCA: false)
            workspace.signWith(leaf, key: authority.leafKey, embedding: [leaf, intermediate, authority.root])
        },
        Mutation(
            "intermediate-marker-stripped", .chain, layer: "chain", expected: .reject,
            finding: .intermediateMarkerMissing,
            "the intermediate lacks Apple's WWDR marker extension 1.2.840.113635.100.6.2.1"
        ) { workspace in
            let authority = workspace.kit.authority
            guard let intermediateKey = authority.intermediateKey else {
                throw MutationError(.noIntermediate, "the CA has no intermediate")
            }
            try signThroughIntermediate(
                &workspace, named: "Developer Relations CA without marker TEST-ONLY", serial: 43, key: intermediateKey,
                marker: nil, leaf: "Receipt Signing under unmarked CA TEST-ONLY", window: authority.leaf)
        },
        Mutation(
            "leaf-expired-at-creation", .chain, layer: "chain", expected: .reject, finding: .chainInvalid,
            "the leaf certificate expired the day before the receipt's creation date"
        ) { workspace in
            try resignWithLeafValidity(
                &workspace, from: workspace.creationSeconds - 63_072_000,
                to: workspace.creationSeconds - 86_400, serial: 45)
        },
        Mutation(
            "leaf-not-yet-valid-at-creation", .chain, layer: "chain", expected: .reject,
            finding: .chainInvalid, "the leaf certificate becomes valid the day after the creation date"
        ) {
            workspace in
            try resignWithLeafValidity(
                &workspace, from: workspace.creationSeconds + 86_400,
                to: workspace.creationSeconds + 63_072_000, serial: 46)
        },
    ]

    /// Who may sign: the path's shape, the signer's purpose, key sizes and digests (`SigningPolicy` in verify).
    static let policy: [Mutation] = [
        Mutation(
            "leaf-issued-by-root", .chain, layer: "chain", expected: .reject, finding: .chainShapeUnexpected,
            "a signer without Apple's marker, issued directly by the root (no intermediate)"
        ) { workspace in
            let authority = workspace.kit.authority
            let leaf = try issue(
                name: "Receipt Signing under the root TEST-ONLY", serial: 47, window: authority.leaf,
                key: authority.leafKey, issuer: authority.root, issuerKey: authority.rootKey,
                marker: nil, isCA: false)
            workspace.signWith(leaf, key: authority.leafKey, embedding: [leaf, authority.root])
        },
        Mutation(
            "marked-leaf-issued-by-root", .chain, layer: "chain", expected: .reject,
            finding: .chainShapeUnexpected,
            "a signer with Apple's receipt-signing marker, issued directly by the root"
        ) { workspace in
            let authority = workspace.kit.authority
            let leaf = try issue(
                name: "Marked Receipt Signing under the root TEST-ONLY", serial: 48,
                window: authority.leaf, key: authority.leafKey, issuer: authority.root,
                issuerKey: authority.rootKey, marker: TestCertificateAuthority.leafMarkerOID,
                isCA: false)
            workspace.signWith(leaf, key: authority.leafKey, embedding: [leaf, authority.root])
        },
        Mutation(
            "signer-is-intermediate", .chain, layer: "chain", expected: .reject,
            finding: .chainShapeUnexpected, "signed by the intermediate CA's own key and certificate"
        ) {
            workspace in
            let authority = workspace.kit.authority
            guard let intermediate = authority.intermediate, let key = authority.intermediateKey else {
                throw MutationError(.noIntermediate, "the CA has no intermediate")
            }
            workspace.signWith(intermediate, key: key, embedding: [intermediate, authority.root])
        },
        Mutation(
            "signer-is-root", .chain, layer: "chain", expected: .reject, finding: .signerKeyUsage,
            "signed by the trusted root's own key and certificate"
        ) { workspace in
            let authority = workspace.kit.authority
            guard authority.intermediate != nil else {
                throw MutationError(.notApplicable, "the CA's signer is its root already (a StoreKit shape)")
            }
            workspace.signWith(authority.root, key: authority.rootKey, embedding: [authority.root])
        },
        Mutation(
            "signer-is-ca", .chain, layer: "chain", expected: .reject, finding: .signerIsCa,
            "the signer certificate (with Apple's marker, under the intermediate) is a CA: CA:TRUE"
        ) { workspace in
            try resignWithLeaf(&workspace, "Receipt Signing acting as CA TEST-ONLY", serial: 49) {
                $0.isCertificateAuthority = true
            }
        },
        Mutation(
            "signer-key-usage-without-digital-signature", .chain, layer: "chain", expected: .reject,
            finding: .signerKeyUsage, "the signer's keyUsage allows keyEncipherment only"
        ) { workspace in
            try resignWithLeaf(&workspace, "Receipt Signing for encryption TEST-ONLY", serial: 50) {
                $0.keyUsage = "critical,keyEncipherment"
            }
        },
        Mutation(
            "signer-extended-key-usage", .chain, layer: "chain", expected: .accept,
            finding: .signerExtendedKeyUsage,
            "the signer carries an extendedKeyUsage (codeSigning), which Apple's do not: a warning"
        ) { workspace in
            try resignWithLeaf(&workspace, "Receipt Signing with EKU TEST-ONLY", serial: 51) {
                $0.extendedKeyUsage = "codeSigning"
            }
        },
        Mutation(
            "leaf-key-1024", .chain, layer: "chain", expected: .reject, finding: .chainInvalid,
            "the signer's RSA key has 1024 bits (the policy asks for at least 2048)"
        ) { workspace in
            let authority = workspace.kit.authority
            let weakKey = try WeakTestKey.load()
            let request = leafRequest(authority, name: "Receipt Signing with a weak key TEST-ONLY", serial: 55)
            try resign(&workspace, leaf: request, key: weakKey)
        },
        Mutation(
            "chain-sha1-signatures", .chain, layer: "chain", expected: .accept, finding: nil,
            "the intermediate and the leaf are signed with SHA-1, as Apple's chains were until 2023"
        ) {
            workspace in
            let authority = workspace.kit.authority
            guard let intermediateKey = authority.intermediateKey else {
                throw MutationError(.noIntermediate, "the CA has no intermediate")
            }
            let intermediate = try Certificate.issue(
                CertificateRequest(
                    subject: subject("Developer Relations CA (SHA-1) TEST-ONLY"), serialNumber: 56,
                    notBefore: authority.root.notBefore, notAfter: authority.root.notAfter,
                    isCertificateAuthority: true,
                    extraExtensions: [(TestCertificateAuthority.intermediateMarkerOID, false, [0x05, 0x00])]),
                subjectKey: intermediateKey, issuer: authority.root, issuerKey: authority.rootKey, digest: .sha1)
            let leaf = try Certificate.issue(
                leafRequest(authority, name: "Receipt Signing (SHA-1) TEST-ONLY", serial: 57),
                subjectKey: authority.leafKey, issuer: intermediate, issuerKey: intermediateKey, digest: .sha1)
            workspace.signWith(leaf, key: authority.leafKey, embedding: [leaf, intermediate, authority.root])
        },
    ]

    /// A leaf request shaped like the CA's leaf (validity, marker), for a flawed variant.
    static func leafRequest(_ authority: TestCertificateAuthority, name: String, serial: UInt64) -> CertificateRequest {
        CertificateRequest(
            subject: subject(name), serialNumber: serial, notBefore: authority.leaf.notBefore,
            notAfter: authority.leaf.notAfter, isCertificateAuthority: false,
            extraExtensions: [(TestCertificateAuthority.leafMarkerOID, false, [0x05, 0x00])])
    }

    /// Re-signs with the CA's leaf key under a leaf named `name`, its request shaped like the CA's leaf and then
    /// changed by `flaw`.
    static func resignWithLeaf(
        _ workspace: inout MutationWorkspace, _ name: String, serial: UInt64,
        flaw: (inout CertificateRequest) -> Void
    ) throws {
        let authority = workspace.kit.authority
        var request = leafRequest(authority, name: name, serial: serial)
        flaw(&request)
        try resign(&workspace, leaf: request, key: authority.leafKey)
    }

    /// Re-signs with a leaf issued from `request` for `key` by the CA's intermediate.
    static func resign(_ workspace: inout MutationWorkspace, leaf request: CertificateRequest, key: PrivateKey) throws {
        let authority = workspace.kit.authority
        guard let intermediate = authority.intermediate, let intermediateKey = authority.intermediateKey else {
            throw MutationError(.noIntermediate, "the CA has no intermediate")
        }
        let leaf = try Certificate.issue(
            request, subjectKey: key, issuer: intermediate, issuerKey: intermediateKey,
            digest: .sha256)
        workspace.signWith(leaf, key: key, embedding: [leaf, intermediate, authority.root])
    }

    /// Re-signs with a leaf for the same key whose validity is `from`–`to`, issued by the CA's intermediate.
    static func resignWithLeafValidity(
        _ workspace: inout MutationWorkspace, from: Int64, to: Int64,
        serial: UInt64
    ) throws {
        let authority = workspace.kit.authority
        guard let intermediate = authority.intermediate, let intermediateKey = authority.intermediateKey else {
            throw MutationError(.noIntermediate, "the CA has no intermediate")
        }
        let request = CertificateRequest(
            subject: subject("Receipt Signing (validity shifted) TEST-ONLY"), serialNumber: serial, notBefore: from,
            notAfter: to, isCertificateAuthority: false,
            extraExtensions: [(TestCertificateAuthority.leafMarkerOID, false, [0x05, 0x00])])
        let leaf = try Certificate.issue(
            request, subjectKey: authority.leafKey, issuer: intermediate,
            issuerKey: intermediateKey, digest: .sha256)
        workspace.signWith(leaf, key: authority.leafKey, embedding: [leaf, intermediate, authority.root])
    }

    /// Re-signs with the CA's leaf key under a marked leaf `leaf` (valid as long as `window`, serial `serial + 1`)
    /// that an intermediate `name` for `key`, issued by the CA's root, issues; the certificates set holds the leaf,
    /// the intermediate and, with `embeddingRoot`, the root.
    static func signThroughIntermediate(
        _ workspace: inout MutationWorkspace, named name: String, serial: UInt64, key: PrivateKey, marker: String?,
        leaf leafName: String, window: Certificate, embeddingRoot: Bool = true
    ) throws {
        let authority = workspace.kit.authority
        let intermediate = try issue(
            name: name, serial: serial, window: authority.root, key: key, issuer: authority.root,
            issuerKey: authority.rootKey, marker: marker, isCA: true)
        let leaf = try issue(
            name: leafName, serial: serial + 1, window: window, key: authority.leafKey, issuer: intermediate,
            issuerKey: key, marker: TestCertificateAuthority.leafMarkerOID, isCA: false)
        workspace.signWith(
            leaf, key: authority.leafKey, embedding: [leaf, intermediate] + (embeddingRoot ? [authority.root] : []))
    }

    /// A TEST-ONLY certificate for `key`, valid as long as `window`, with or without a marker extension.
    static func issue(
        name: String, serial: UInt64, window: Certificate, key: PrivateKey, issuer: Certificate?,
        issuerKey: PrivateKey, marker: String?, isCA: Bool
    ) throws -> Certificate {
        let request = CertificateRequest(
            subject: subject(name), serialNumber: serial, notBefore: window.notBefore,
            notAfter: window.notAfter, isCertificateAuthority: isCA,
            extraExtensions: marker.map { [($0, false, [0x05, 0x00])] } ?? [])
        return try Certificate.issue(request, subjectKey: key, issuer: issuer, issuerKey: issuerKey, digest: .sha256)
    }

    /// A self-signed receipt-signing certificate (with the leaf marker) for `key`: anyone's own chain.
    static func selfSignedLeaf(serial: UInt64, key: PrivateKey, window: Certificate) throws -> Certificate {
        try issue(
            name: "Self-Signed Receipt Signing TEST-ONLY", serial: serial, window: window, key: key, issuer: nil,
            issuerKey: key, marker: TestCertificateAuthority.leafMarkerOID, isCA: false)
    }

    /// Re-signs with a self-signed StoreKit-style certificate (anyone can make one, as Xcode does on any Mac) and
    /// sets the environment attribute (type 0) to `environment`.
    static func signWithStoreKitCertificate(
        _ workspace: inout MutationWorkspace, serial: UInt64, saying environment: String
    )
        throws
    {
        let key = workspace.kit.authority.leafKey
        let certificate = try issue(
            name: "StoreKit TEST-ONLY", serial: serial, window: workspace.kit.authority.leaf, key: key, issuer: nil,
            issuerKey: key, marker: nil, isCA: true)
        workspace.signWith(certificate, key: key, embedding: [certificate])
        workspace.setText(0, environment)
    }

    static func subject(_ commonName: String) -> [(attribute: String, value: String)] {
        [("C", "US"), ("O", "rcpt mutations TEST-ONLY"), ("CN", commonName)]
    }
}
