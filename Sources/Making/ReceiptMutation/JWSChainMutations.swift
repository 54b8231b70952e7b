import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptSigning
import ReceiptSuite

/// The JWS catalogue's chain entries, and the TEST-ONLY certificates they are signed with.
extension JWSMutationCatalogue {
    /// The x5c chain.
    static let chains: [Mutation] = [
        Mutation(
            "x5c-missing", layer: "chain", .reject, finding: .jwsX5cMissing,
            "no x5c: nothing to verify with"
        ) { context in
            try context.signed(header: bytes(#"{"alg":"ES256"}"#))
        },
        Mutation(
            "x5c-leaf-only", layer: "chain", .reject, finding: .chainInvalid,
            "only the leaf in x5c"
        ) { context in
            try context.signed(header: JWSSigner(key: context.signer.key, chain: [context.signer.chain[0]]).header())
        },
        Mutation(
            "x5c-reordered", layer: "chain", .reject, finding: .jwsX5cOrder, signatureValid: false,
            "x5c root first, leaf last: Apple's libraries take the root as the signer, and the root did not sign"
        ) { context in
            try context.signed(
                header: JWSSigner(key: context.signer.key, chain: context.signer.chain.reversed()).header())
        },
        Mutation(
            "x5c-intermediate-last", layer: "chain", .reject, finding: .jwsX5cOrder,
            "x5c leaf, root, intermediate: the chain verifies, but not in x5c's order (Apple's libraries take x5c[1] as the intermediate)"
        ) { context in
            let chain = context.signer.chain
            return try context.signed(
                header: JWSSigner(key: context.signer.key, chain: [chain[0], chain[2], chain[1]]).header())
        },
        Mutation(
            "x5c-extra-certificate", layer: "chain", .reject, finding: .jwsX5cLength,
            "a fourth certificate (the foreign root) after Apple's three"
        ) { context in
            try context.signed(
                header: JWSSigner(
                    key: context.signer.key,
                    chain: context.signer.chain + [context.foreign.chain[2]]
                ).header())
        },
        Mutation(
            "x5c-foreign-chain", layer: "chain", .reject, finding: .chainInvalid,
            "signed by the foreign CA, its own chain in x5c"
        ) { context in
            try context.signed(header: context.foreign.header(), by: context.foreign)
        },
        Mutation(
            "leaf-marker-missing", layer: "chain", .reject, finding: .leafMarkerMissing,
            "a leaf without Apple's receipt-signing marker, issued by the genuine intermediate"
        ) { context in
            let (key, leaf) = try issueLeaf(context, marker: false, notAfter: context.authority.leaf.notAfter)
            let signer = JWSSigner(key: key, chain: [leaf] + Array(context.signer.chain.dropFirst()))
            return try context.signed(header: signer.header(), by: signer)
        },
        Mutation(
            "intermediate-marker-missing", layer: "chain", .reject, finding: .intermediateMarkerMissing,
            "an intermediate without Apple's WWDR marker between the genuine root and a marked leaf"
        ) { context in
            let authority = context.authority
            let intermediateKey = try PrivateKey.generateEC(curve: "P-384")
            let intermediate = try Certificate.issue(
                CertificateRequest(
                    subject: name("Unmarked Intermediate TEST-ONLY"), serialNumber: 40,
                    notBefore: authority.root.notBefore, notAfter: authority.root.notAfter,
                    isCertificateAuthority: true),
                subjectKey: intermediateKey, issuer: authority.root, issuerKey: authority.rootKey, digest: .sha384)
            let leafKey = try PrivateKey.generateEC(curve: "P-256")
            let leaf = try Certificate.issue(
                CertificateRequest(
                    subject: name("Receipt Signing TEST-ONLY"), serialNumber: 41,
                    notBefore: authority.leaf.notBefore, notAfter: authority.leaf.notAfter,
                    isCertificateAuthority: false,
                    extraExtensions: [(TestCertificateAuthority.leafMarkerOID, false, [0x05, 0x00])]),
                subjectKey: leafKey, issuer: intermediate, issuerKey: intermediateKey, digest: .sha384)
            let signer = JWSSigner(key: leafKey, chain: [leaf, intermediate, authority.root])
            return try context.signed(header: signer.header(), by: signer)
        },
        Mutation(
            "leaf-expired-at-signed-date", layer: "chain", .reject, finding: .chainInvalid,
            "a marked leaf that expired a year before the token's signedDate"
        ) { context in
            guard
                let signed = JWSMutationContext.value(of: "signedDate", in: context.payload).flatMap(
                    JWSToken.milliseconds)
            else { throw MutationError(.notApplicable, "the payload has no signedDate") }
            let (key, leaf) = try issueLeaf(
                context, marker: true, notAfter: signed / 1000 - 365 * 86_400,
                notBefore: signed / 1000 - 2 * 365 * 86_400)
            let signer = JWSSigner(key: key, chain: [leaf] + Array(context.signer.chain.dropFirst()))
            return try context.signed(header: signer.header(), by: signer)
        },
    ]

    /// The payload's claims, signed as they are.

    static func name(_ common: String) -> [(attribute: String, value: String)] {
        [("C", "US"), ("O", "rcpt mutation TEST-ONLY"), ("OU", "TEST-ONLY, not Apple"), ("CN", common)]
    }

    /// A P-256 leaf issued by the test CA's intermediate, with or without the leaf marker.
    static func issueLeaf(
        _ context: JWSMutationContext, marker: Bool, notAfter: Int64,
        notBefore: Int64? = nil
    ) throws -> (PrivateKey, Certificate) {
        let authority = context.authority
        guard let intermediate = authority.intermediate, let intermediateKey = authority.intermediateKey else {
            throw MutationError(.notApplicable, "the CA has no intermediate")
        }
        let key = try PrivateKey.generateEC(curve: "P-256")
        let leaf = try Certificate.issue(
            CertificateRequest(
                subject: name("Receipt Signing TEST-ONLY"), serialNumber: marker ? 43 : 42,
                notBefore: notBefore ?? authority.leaf.notBefore, notAfter: notAfter,
                isCertificateAuthority: false,
                extraExtensions: marker ? [(TestCertificateAuthority.leafMarkerOID, false, [0x05, 0x00])] : []),
            subjectKey: key, issuer: intermediate, issuerKey: intermediateKey, digest: .sha384)
        return (key, leaf)
    }
}
