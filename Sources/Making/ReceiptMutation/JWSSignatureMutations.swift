import Foundation
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptSigning
import ReceiptSuite

/// The JWS catalogue's algorithm and signature entries.
extension JWSMutationCatalogue {
    /// The header's alg: anything but ES256 is refused, whatever the signature.
    static let algorithms: [Mutation] = [
        Mutation(
            "alg-none", layer: "header", .reject, finding: .jwsAlgorithmNotEs256, signatureValid: false,
            "alg none and no signature: a validator that follows alg verifies nothing"
        ) { context in
            let header = bytes(text(context.header).replacingOccurrences(of: #""ES256""#, with: #""none""#))
            return b64(header) + "." + b64(context.payload) + "."
        },
        Mutation(
            "alg-none-signed", layer: "header", .reject, finding: .jwsAlgorithmNotEs256,
            "alg none with a real signature kept"
        ) { context in
            let header = bytes(text(context.header).replacingOccurrences(of: #""ES256""#, with: #""none""#))
            return try context.signed(header: header)
        },
        Mutation(
            "alg-hs256-public-key", layer: "header", .reject, finding: .jwsAlgorithmNotEs256, signatureValid: false,
            "alg HS256, an HMAC keyed with the leaf's public certificate: the classic key-confusion attack"
        ) { context in
            let header = bytes(text(context.header).replacingOccurrences(of: #""ES256""#, with: #""HS256""#))
            let input = b64(header) + "." + b64(context.payload)
            let key = Array(context.signer.chain[0].pemEncoded.utf8)
            return input + "." + b64(try HMAC.sha256(key: key, message: bytes(input)))
        },
        Mutation(
            "alg-rs256", layer: "header", .reject, finding: .jwsAlgorithmNotEs256,
            "alg RS256 over an ES256 signature"
        ) { context in
            try context.signed(
                header: bytes(text(context.header).replacingOccurrences(of: #""ES256""#, with: #""RS256""#)))
        },
        Mutation(
            "alg-es384", layer: "header", .reject, finding: .jwsAlgorithmNotEs256,
            "alg ES384 over a P-256 ES256 signature"
        ) { context in
            try context.signed(
                header: bytes(text(context.header).replacingOccurrences(of: #""ES256""#, with: #""ES384""#)))
        },
        Mutation(
            "alg-missing", layer: "header", .reject, finding: .jwsAlgorithmNotEs256,
            "no alg member at all"
        ) { context in
            try context.signed(
                header: bytes(text(context.header).replacingOccurrences(of: #""alg":"ES256","#, with: "")))
        },
        Mutation(
            "alg-duplicate", layer: "header", .reject, finding: .jsonDuplicateKey,
            "alg none first and ES256 last: readers that take the first see none"
        ) { context in
            try context.signed(
                header: bytes(
                    text(context.header).replacingOccurrences(
                        of: #"{"alg":"ES256""#,
                        with: #"{"alg":"none","alg":"ES256""#)))
        },
        Mutation(
            "crit-header", layer: "header", .reject, finding: .jwsCriticalHeader,
            "a crit header naming an extension the reader must understand"
        ) { context in
            try context.signed(header: context.header(adding: #""crit":["exp"],"exp":1"#))
        },
    ]

    /// The signature part.
    static let signatures: [Mutation] = [
        Mutation(
            "signature-der", layer: "signature", .reject, finding: .jwsSignatureDer,
            "the signature DER-encoded (what OpenSSL makes), not JOSE's r ‖ s"
        ) { context in
            let input = b64(context.header) + "." + b64(context.payload)
            let raw = try context.signer.signRaw(bytes(input))
            return input + "." + b64(ECDSASignature.der(fromRaw: raw) ?? raw)
        },
        Mutation(
            "signature-truncated", layer: "signature", .reject, finding: .jwsSignatureLength,
            signatureValid: false, "the signature cut to 63 octets"
        ) { context in
            let parts = JWSMutationContext.parts(try context.signed())
            let raw = (try? Base64URL.decode(Array(parts[2].utf8)[...]).get().bytes) ?? []
            return parts[0] + "." + parts[1] + "." + b64(Array(raw.prefix(63)))
        },
        Mutation(
            "signature-empty", layer: "signature", .reject, finding: .jwsSignatureLength,
            signatureValid: false, "no signature octets"
        ) { context in
            b64(context.header) + "." + b64(context.payload) + "."
        },
        Mutation(
            "signature-zero", layer: "signature", .reject, finding: .signatureInvalid, signatureValid: false,
            "64 zero octets (r = s = 0, which some ECDSA code accepts)"
        ) { context in
            b64(context.header) + "." + b64(context.payload) + "." + b64([UInt8](repeating: 0, count: 64))
        },
        Mutation(
            "signature-bit-flip", layer: "signature", .reject, finding: .signatureInvalid, signatureValid: false,
            "one bit of the signature flipped"
        ) { context in
            let parts = JWSMutationContext.parts(try context.signed())
            var raw = (try? Base64URL.decode(Array(parts[2].utf8)[...]).get().bytes) ?? []
            if !raw.isEmpty { raw[10] ^= 0x01 }
            return parts[0] + "." + parts[1] + "." + b64(raw)
        },
        Mutation(
            "xcode-environment-forged", layer: "signature", .reject, finding: .signatureInvalid,
            signatureValid: false,
            "environment changed to Xcode after signing (and any expiry to 2100), the signature kept: Apple's libraries check no signature in the Xcode environment, so a validator that retries with an Xcode verifier accepts a forgery"
        ) { context in
            let payload = context.payload
            guard JWSMutationContext.value(of: "environment", in: payload) != nil else {
                throw MutationError(.notApplicable, "the payload states no environment")
            }
            var edited = JWSMutationContext.setting("environment", to: #""Xcode""#, in: payload)
            if JWSMutationContext.value(of: "receiptType", in: edited) != nil {
                edited = JWSMutationContext.setting("receiptType", to: #""Xcode""#, in: edited)
            }
            if JWSMutationContext.value(of: "expiresDate", in: edited) != nil {
                edited = JWSMutationContext.setting("expiresDate", to: "4102444800000", in: edited)
            }
            let parts = JWSMutationContext.parts(try context.signed())
            return parts[0] + "." + b64(edited) + "." + parts[2]
        },
        Mutation(
            "payload-changed-after-signing", layer: "signature", .reject, finding: .signatureInvalid,
            signatureValid: false,
            "the expiry moved to 2100 after signing (without one, the signing date by 1 ms), the signature kept: only the signature tells"
        ) { context in
            // A claim no other check reads against the caller's expectations: a validator that compares the bundle
            // id but skips the signature must still be caught (a bundleId edit was refused for the wrong reason).
            let parts = JWSMutationContext.parts(try context.signed())
            let payload = context.payload
            let edited: [UInt8]
            if JWSMutationContext.value(of: "expiresDate", in: payload) != nil {
                edited = JWSMutationContext.setting("expiresDate", to: "4102444800000", in: payload)
            } else if let signed = JWSMutationContext.value(of: "signedDate", in: payload).flatMap(Int64.init),
                signed < Int64.max
            {
                edited = JWSMutationContext.setting("signedDate", to: String(signed + 1), in: payload)
            } else {
                edited = JWSMutationContext.setting("bundleId", to: #""com.example.attacker""#, in: payload)
            }
            return parts[0] + "." + b64(edited) + "." + parts[2]
        },
        Mutation(
            "header-changed-after-signing", layer: "signature", .reject, finding: .signatureInvalid,
            signatureValid: false, "a header member added after signing, the signature kept"
        ) { context in
            let parts = JWSMutationContext.parts(try context.signed())
            return b64(context.header(adding: #""typ":"JWT""#)) + "." + parts[1] + "." + parts[2]
        },
        Mutation(
            "jku-foreign-key", layer: "signature", .reject, finding: .signatureInvalid, signatureValid: false,
            "signed by a foreign key that a jku URL points to; x5c still the genuine chain"
        ) { context in
            let header = context.header(adding: #""jku":"https://attacker.example/jwks.json""#)
            return try context.signed(
                header: header, by: JWSSigner(key: context.foreign.key, chain: context.signer.chain))
        },
        Mutation(
            "jwk-embedded-foreign-key", layer: "signature", .reject, finding: .signatureInvalid,
            signatureValid: false, "signed by a foreign key carried in a jwk header member"
        ) { context in
            let header = context.header(adding: #""jwk":{"kty":"EC","crv":"P-256","x":"attacker","y":"attacker"}"#)
            return try context.signed(
                header: header, by: JWSSigner(key: context.foreign.key, chain: context.signer.chain))
        },
    ]
}
