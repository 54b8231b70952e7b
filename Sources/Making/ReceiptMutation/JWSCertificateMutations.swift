import ReceiptASN1
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJWS
import ReceiptSigning
import ReceiptSuite

/// Attacks on the x5c chain that OpenSSL alone lets through: certificates written in a way Apple never writes them
/// (RFC 7515 §4.1.6 says standard base64 of DER; Apple's libraries refuse anything else), and leaves Apple's policy
/// does not allow (signed with SHA-1, or with an extendedKeyUsage Apple's JWS leaves do not carry).
extension JWSMutationCatalogue {
    /// A header whose x5c holds `elements` as written (JSON string bodies).
    static func header(x5c elements: [String]) -> [UInt8] {
        bytes(#"{"alg":"ES256","x5c":[\#(elements.map { "\"" + $0 + "\"" }.joined(separator: ","))]}"#)
    }

    /// The test chain's certificates as standard base64.
    static func chainBase64(_ context: JWSMutationContext) -> [String] {
        context.signer.chain.map { Base64Codec.encode($0.derEncoded, alphabet: .standard, padded: true) }
    }

    static func signedWithLeaf(
        _ context: JWSMutationContext, digest: DigestAlgorithm = .sha384,
        extendedKeyUsage: String? = nil
    ) throws -> String {
        let signer = try leafSigner(context, digest: digest, extendedKeyUsage: extendedKeyUsage)
        return try context.signed(header: signer.header(), by: signer)
    }

    /// A signer whose marked P-256 leaf the test CA's intermediate issued (with `padding` octets of an extra
    /// extension, to vary its length).
    static func leafSigner(
        _ context: JWSMutationContext, digest: DigestAlgorithm = .sha384,
        extendedKeyUsage: String? = nil, padding: Int = 0
    ) throws -> JWSSigner {
        let authority = context.authority
        guard let intermediate = authority.intermediate, let intermediateKey = authority.intermediateKey else {
            throw MutationError(.notApplicable, "the CA has no intermediate")
        }
        let key = try PrivateKey.generateEC(curve: "P-256")
        var request = CertificateRequest(
            subject: name("Receipt Signing TEST-ONLY"), serialNumber: 44,
            notBefore: authority.leaf.notBefore, notAfter: authority.leaf.notAfter,
            isCertificateAuthority: false,
            extraExtensions: [(TestCertificateAuthority.leafMarkerOID, false, [0x05, 0x00])])
        request.extendedKeyUsage = extendedKeyUsage
        if padding > 0 {
            request.extraExtensions.append(
                ("1.3.6.1.4.1.55555.1", false, [0x04, UInt8(padding)] + [UInt8](repeating: 0, count: padding)))
        }
        let leaf = try Certificate.issue(
            request, subjectKey: key, issuer: intermediate, issuerKey: intermediateKey,
            digest: digest)
        return JWSSigner(key: key, chain: [leaf] + Array(context.signer.chain.dropFirst()))
    }

    static let certificates: [Mutation] = [
        Mutation(
            "x5c-base64url", layer: "chain", .reject, finding: .jwsX5cEncoding,
            "the x5c certificates in base64url ('-', '_') instead of standard base64"
        ) { context in
            let elements = chainBase64(context).map { String($0.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }) }
            guard elements != chainBase64(context) else {
                throw MutationError(.notApplicable, "no x5c certificate has '+' or '/' in base64")
            }
            return try context.signed(header: header(x5c: elements))
        },
        Mutation(
            "x5c-line-breaks", layer: "chain", .reject, finding: .jwsX5cEncoding,
            "the x5c leaf in 64-column lines, as PEM writes it"
        ) { context in
            var elements = chainBase64(context)
            var lines: [String] = []
            var rest = Substring(elements[0])
            while !rest.isEmpty {
                lines.append(String(rest.prefix(64)))
                rest = rest.dropFirst(64)
            }
            elements[0] = lines.joined(separator: #"\n"#)
            return try context.signed(header: header(x5c: elements))
        },
        Mutation(
            "x5c-missing-padding", layer: "chain", .reject, finding: .jwsX5cEncoding,
            "an x5c certificate without its '=' padding"
        ) { context in
            // A leaf whose DER length is not a multiple of three, so its base64 has padding to drop.
            var signer = context.signer
            for padding in 0..<4 where signer.chain[0].derEncoded.count % 3 == 0 {
                signer = try leafSigner(context, padding: padding + 1)
            }
            var elements = signer.chain.map { Base64Codec.encode($0.derEncoded, alphabet: .standard, padded: true) }
            guard elements[0].hasSuffix("=") else {
                throw MutationError(.notApplicable, "no padded leaf could be made")
            }
            while elements[0].hasSuffix("=") { elements[0].removeLast() }
            return try context.signed(header: header(x5c: elements), by: signer)
        },
        Mutation(
            "x5c-ber-length", layer: "chain", .reject, finding: .jwsX5cEncoding,
            "the x5c leaf's outer length in a longer form than DER allows (OpenSSL reads it; Apple's DER reader does not)"
        ) { context in
            var der = context.signer.chain[0].derEncoded
            guard der.count > 4, der[0] == 0x30, der[1] == 0x82 else {
                throw MutationError(.notApplicable, "the leaf's length is not in the two-octet form")
            }
            der.replaceSubrange(1..<2, with: [0x83, 0x00])
            var elements = chainBase64(context)
            elements[0] = Base64Codec.encode(der, alphabet: .standard, padded: true)
            return try context.signed(header: header(x5c: elements))
        },
        Mutation(
            "leaf-signed-with-sha1", layer: "chain", .reject, finding: .jwsCertificateWeakDigest,
            "a marked leaf the genuine intermediate signed with ECDSA and SHA-1"
        ) { context in
            try signedWithLeaf(context, digest: .sha1)
        },
        Mutation(
            "leaf-extended-key-usage", layer: "chain", .reject, finding: .signerExtendedKeyUsage,
            "a marked leaf with an extendedKeyUsage (serverAuth) Apple's JWS leaves do not carry"
        ) { context in
            try signedWithLeaf(context, extendedKeyUsage: "serverAuth")
        },
    ]
}
