import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptJWS
import ReceiptSigning
import ReceiptSuite
import Foundation

/// One named attack on a JWS validator (or a valid variant a correct one must accept): what it does, the layer it
/// targets, the verdict a correct validator reaches and the finding `rcpt verify` gives. `make` builds the token
/// from the baseline, re-signed with the TEST-ONLY key where that makes the point.
public struct JWSMutation: Sendable {
    public let name: String
    package let summary: String
    /// header, signature, chain, payload, nesting or encoding.
    package let layer: String
    package let expected: ExpectedVerdict
    package let finding: String?
    /// Whether the token carries a valid ES256 signature by its x5c leaf over what it holds.
    package let signatureValid: Bool
    let make: @Sendable (JWSMutationContext) throws -> String

    /// Who could make it and what accepting it costs.
    package var threat: Threat { Threat.jws(name: name, layer: layer, signatureValid: signatureValid) }

    /// A mutation `rcpt verify` judges with `finding` (or with no finding code, when nil).
    init(_ name: String, layer: String, _ expected: ExpectedVerdict, finding: FindingCode?, signatureValid: Bool = true,
         _ summary: String, _ make: @escaping @Sendable (JWSMutationContext) throws -> String) {
        self.init(name, layer: layer, expected, code: finding?.rawValue, signatureValid: signatureValid,
                  summary, make)
    }

    /// A mutation whose reading `rcpt verify` stops with `error`.
    init(_ name: String, layer: String, _ expected: ExpectedVerdict, error: ErrorCode, signatureValid: Bool = true,
         _ summary: String, _ make: @escaping @Sendable (JWSMutationContext) throws -> String) {
        self.init(name, layer: layer, expected, code: error.rawValue, signatureValid: signatureValid,
                  summary, make)
    }

    private init(_ name: String, layer: String, _ expected: ExpectedVerdict, code: String?, signatureValid: Bool,
                 _ summary: String, _ make: @escaping @Sendable (JWSMutationContext) throws -> String) {
        self.name = name
        self.summary = summary
        self.layer = layer
        self.expected = expected
        self.finding = code
        self.signatureValid = signatureValid
        self.make = make
    }

    /// The mutated token of `input` (a JWS, a notification body or an API response: its first token).
    public func apply(to input: [UInt8], kit: MutationKit) throws(MutationError) -> [UInt8] {
        try apply(in: JWSMutationContext.baseline(of: input, kit: kit))
    }

    /// The mutated token of the input whose baseline is `context`.
    package func apply(in context: JWSMutationContext) throws(MutationError) -> [UInt8] {
        do {
            return Array((try make(context) + "\n").utf8)
        } catch let error as MutationError {
            throw error
        } catch {
            throw MutationError(.mutationFailed, "\(name): \(error)")
        }
    }
}

/// The named JWS attacks: what JWT/JWS validators are known to fall for, with Apple's tokens as the target.
public enum JWSMutationCatalogue {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func b64(_ bytes: [UInt8]) -> String { Base64URL.encode(bytes) }
    /// The baseline's environment as a JSON string literal (where its kind's binding reads it; Sandbox when none).
    static func environmentLiteral(_ context: JWSMutationContext) -> String {
        context.binding.environment.map { JSONWriter.literal($0.text) } ?? #""Sandbox""#
    }

    /// The baseline: the input's payload re-signed as it is.
    public static let baseline = JWSMutation("baseline", layer: "header", .accept, finding: nil,
                                             "the input's payload re-signed by the test CA, unchanged") { try $0.signed() }

    public static let all: [JWSMutation] = [baseline] + validVariants + algorithms + signatures + chains + payloads
        + encodings + nesting + documents + dates + shapes + bindings + certificates + headers + claimTypes

    /// Variants a correct validator must accept.
    static let validVariants: [JWSMutation] = [
        JWSMutation("high-s-twin", layer: "signature", .accept, finding: nil,
                    "the same token with s replaced by n − s: also a valid ECDSA signature (only reported)") { context in
            let parts = JWSMutationContext.parts(try context.signed())
            let raw = try Base64URL.decode(Array(parts[2].utf8)[...]).get().bytes
            return parts[0] + "." + parts[1] + "." + b64(ECDSASignature.negatingS(raw))
        },
        JWSMutation("kid-header", layer: "header", .accept, finding: nil,
                    "a kid header member, as Xcode's tokens carry: a key name, not a key") { context in
            try context.signed(header: context.header(adding: #""kid":"Apple_Xcode_Key","typ":"JWT""#))
        },
        JWSMutation("unknown-claim", layer: "payload", .accept, finding: nil,
                    "an extra claim Apple does not define: kept and shown, not a reason to refuse") { context in
            try context.signed(payload: JWSMutationContext.setting("rcptExtra", to: #""test""#, in: context.payload))
        },
        JWSMutation("escaped-claim-text", layer: "payload", .accept, finding: nil,
                    "the bundleId written with \\u escapes: the same string to any JSON reader") { context in
            guard let value = JWSMutationContext.value(of: "bundleId", in: context.payload), value.count > 2 else {
                throw MutationError(.notApplicable, "the payload has no bundleId")
            }
            let escaped = "\"" + String(value.dropFirst().dropLast()).unicodeScalars.map {
                $0 == "." ? "\\u002e" : String($0)
            }.joined() + "\""
            return try context.signed(payload: JWSMutationContext.setting("bundleId", to: escaped, in: context.payload))
        },
        JWSMutation("whitespace-payload", layer: "payload", .accept, finding: nil,
                    "the payload JSON with white space between its tokens, signed as such") { context in
            let spaced = text(context.payload).replacingOccurrences(of: "\",\"", with: "\", \"")
            return try context.signed(payload: bytes(spaced))
        },
        JWSMutation("base64url-padded", layer: "encoding", .accept, finding: .jwsBase64urlPadding,
                    "the signature part padded with '=' (not base64url; the signed text is unchanged)") { context in
            let token = try context.signed()
            let signature = JWSMutationContext.parts(token)[2]
            return token + String(repeating: "=", count: (4 - signature.utf8.count % 4) % 4)
        },
    ]

    /// The header's alg: anything but ES256 is refused, whatever the signature.
    static let algorithms: [JWSMutation] = [
        JWSMutation("alg-none", layer: "header", .reject, finding: .jwsAlgorithmNotEs256, signatureValid: false,
                    "alg none and no signature: a validator that follows alg verifies nothing") { context in
            let header = bytes(text(context.header).replacingOccurrences(of: #""ES256""#, with: #""none""#))
            return b64(header) + "." + b64(context.payload) + "."
        },
        JWSMutation("alg-none-signed", layer: "header", .reject, finding: .jwsAlgorithmNotEs256,
                    "alg none with a real signature kept") { context in
            let header = bytes(text(context.header).replacingOccurrences(of: #""ES256""#, with: #""none""#))
            return try context.signed(header: header)
        },
        JWSMutation("alg-hs256-public-key", layer: "header", .reject, finding: .jwsAlgorithmNotEs256, signatureValid: false,
                    "alg HS256, an HMAC keyed with the leaf's public certificate: the classic key-confusion attack") { context in
            let header = bytes(text(context.header).replacingOccurrences(of: #""ES256""#, with: #""HS256""#))
            let input = b64(header) + "." + b64(context.payload)
            let key = Array(context.signer.chain[0].pemEncoded.utf8)
            return input + "." + b64(try HMAC.sha256(key: key, message: bytes(input)))
        },
        JWSMutation("alg-rs256", layer: "header", .reject, finding: .jwsAlgorithmNotEs256,
                    "alg RS256 over an ES256 signature") { context in
            try context.signed(header: bytes(text(context.header).replacingOccurrences(of: #""ES256""#, with: #""RS256""#)))
        },
        JWSMutation("alg-es384", layer: "header", .reject, finding: .jwsAlgorithmNotEs256,
                    "alg ES384 over a P-256 ES256 signature") { context in
            try context.signed(header: bytes(text(context.header).replacingOccurrences(of: #""ES256""#, with: #""ES384""#)))
        },
        JWSMutation("alg-missing", layer: "header", .reject, finding: .jwsAlgorithmNotEs256,
                    "no alg member at all") { context in
            try context.signed(header: bytes(text(context.header).replacingOccurrences(of: #""alg":"ES256","#, with: "")))
        },
        JWSMutation("alg-duplicate", layer: "header", .reject, finding: .jsonDuplicateKey,
                    "alg none first and ES256 last: readers that take the first see none") { context in
            try context.signed(header: bytes(text(context.header).replacingOccurrences(of: #"{"alg":"ES256""#,
                                                                                        with: #"{"alg":"none","alg":"ES256""#)))
        },
        JWSMutation("crit-header", layer: "header", .reject, finding: .jwsCriticalHeader,
                    "a crit header naming an extension the reader must understand") { context in
            try context.signed(header: context.header(adding: #""crit":["exp"],"exp":1"#))
        },
    ]

    /// The signature part.
    static let signatures: [JWSMutation] = [
        JWSMutation("signature-der", layer: "signature", .reject, finding: .jwsSignatureDer,
                    "the signature DER-encoded (what OpenSSL makes), not JOSE's r ‖ s") { context in
            let input = b64(context.header) + "." + b64(context.payload)
            let raw = try context.signer.signRaw(bytes(input))
            return input + "." + b64(ECDSASignature.der(fromRaw: raw) ?? raw)
        },
        JWSMutation("signature-truncated", layer: "signature", .reject, finding: .jwsSignatureLength,
                    signatureValid: false, "the signature cut to 63 octets") { context in
            let parts = JWSMutationContext.parts(try context.signed())
            let raw = (try? Base64URL.decode(Array(parts[2].utf8)[...]).get().bytes) ?? []
            return parts[0] + "." + parts[1] + "." + b64(Array(raw.prefix(63)))
        },
        JWSMutation("signature-empty", layer: "signature", .reject, finding: .jwsSignatureLength,
                    signatureValid: false, "no signature octets") { context in
            b64(context.header) + "." + b64(context.payload) + "."
        },
        JWSMutation("signature-zero", layer: "signature", .reject, finding: .signatureInvalid, signatureValid: false,
                    "64 zero octets (r = s = 0, which some ECDSA code accepts)") { context in
            b64(context.header) + "." + b64(context.payload) + "." + b64([UInt8](repeating: 0, count: 64))
        },
        JWSMutation("signature-bit-flip", layer: "signature", .reject, finding: .signatureInvalid, signatureValid: false,
                    "one bit of the signature flipped") { context in
            let parts = JWSMutationContext.parts(try context.signed())
            var raw = (try? Base64URL.decode(Array(parts[2].utf8)[...]).get().bytes) ?? []
            if !raw.isEmpty { raw[10] ^= 0x01 }
            return parts[0] + "." + parts[1] + "." + b64(raw)
        },
        JWSMutation("payload-changed-after-signing", layer: "signature", .reject, finding: .signatureInvalid,
                    signatureValid: false, "the bundleId changed after signing, the signature kept") { context in
            let parts = JWSMutationContext.parts(try context.signed())
            let edited = JWSMutationContext.setting("bundleId", to: #""com.example.attacker""#, in: context.payload)
            return parts[0] + "." + b64(edited) + "." + parts[2]
        },
        JWSMutation("header-changed-after-signing", layer: "signature", .reject, finding: .signatureInvalid,
                    signatureValid: false, "a header member added after signing, the signature kept") { context in
            let parts = JWSMutationContext.parts(try context.signed())
            return b64(context.header(adding: #""typ":"JWT""#)) + "." + parts[1] + "." + parts[2]
        },
        JWSMutation("jku-foreign-key", layer: "signature", .reject, finding: .signatureInvalid, signatureValid: false,
                    "signed by a foreign key that a jku URL points to; x5c still the genuine chain") { context in
            let header = context.header(adding: #""jku":"https://attacker.example/jwks.json""#)
            return try context.signed(header: header, by: JWSSigner(key: context.foreign.key, chain: context.signer.chain))
        },
        JWSMutation("jwk-embedded-foreign-key", layer: "signature", .reject, finding: .signatureInvalid,
                    signatureValid: false, "signed by a foreign key carried in a jwk header member") { context in
            let header = context.header(adding: #""jwk":{"kty":"EC","crv":"P-256","x":"attacker","y":"attacker"}"#)
            return try context.signed(header: header, by: JWSSigner(key: context.foreign.key, chain: context.signer.chain))
        },
    ]

    /// The x5c chain.
    static let chains: [JWSMutation] = [
        JWSMutation("x5c-missing", layer: "chain", .reject, finding: .jwsX5cMissing,
                    "no x5c: nothing to verify with") { context in
            try context.signed(header: bytes(#"{"alg":"ES256"}"#))
        },
        JWSMutation("x5c-leaf-only", layer: "chain", .reject, finding: .chainInvalid,
                    "only the leaf in x5c") { context in
            try context.signed(header: JWSSigner(key: context.signer.key, chain: [context.signer.chain[0]]).header())
        },
        JWSMutation("x5c-reordered", layer: "chain", .reject, finding: .jwsKeyNotP256, signatureValid: false,
                    "x5c root first, leaf last: the first certificate is the signer, and the root did not sign") { context in
            try context.signed(header: JWSSigner(key: context.signer.key, chain: context.signer.chain.reversed()).header())
        },
        JWSMutation("x5c-extra-certificate", layer: "chain", .reject, finding: .jwsX5cLength,
                    "a fourth certificate (the foreign root) after Apple's three") { context in
            try context.signed(header: JWSSigner(key: context.signer.key,
                                                 chain: context.signer.chain + [context.foreign.chain[2]]).header())
        },
        JWSMutation("x5c-foreign-chain", layer: "chain", .reject, finding: .chainInvalid,
                    "signed by the foreign CA, its own chain in x5c") { context in
            try context.signed(header: context.foreign.header(), by: context.foreign)
        },
        JWSMutation("leaf-marker-missing", layer: "chain", .reject, finding: .leafMarkerMissing,
                    "a leaf without Apple's receipt-signing marker, issued by the genuine intermediate") { context in
            let (key, leaf) = try issueLeaf(context, marker: false, notAfter: context.authority.leaf.notAfter)
            let signer = JWSSigner(key: key, chain: [leaf] + Array(context.signer.chain.dropFirst()))
            return try context.signed(header: signer.header(), by: signer)
        },
        JWSMutation("intermediate-marker-missing", layer: "chain", .reject, finding: .intermediateMarkerMissing,
                    "an intermediate without Apple's WWDR marker between the genuine root and a marked leaf") { context in
            let authority = context.authority
            let intermediateKey = try PrivateKey.generateEC(curve: "P-384")
            let intermediate = try Certificate.issue(
                CertificateRequest(subject: name("Unmarked Intermediate TEST-ONLY"), serialNumber: 40,
                                   notBefore: authority.root.notBefore, notAfter: authority.root.notAfter,
                                   isCertificateAuthority: true),
                subjectKey: intermediateKey, issuer: authority.root, issuerKey: authority.rootKey, digest: .sha384)
            let leafKey = try PrivateKey.generateEC(curve: "P-256")
            let leaf = try Certificate.issue(
                CertificateRequest(subject: name("Receipt Signing TEST-ONLY"), serialNumber: 41,
                                   notBefore: authority.leaf.notBefore, notAfter: authority.leaf.notAfter,
                                   isCertificateAuthority: false,
                                   extraExtensions: [(TestCertificateAuthority.leafMarkerOID, false, [0x05, 0x00])]),
                subjectKey: leafKey, issuer: intermediate, issuerKey: intermediateKey, digest: .sha384)
            let signer = JWSSigner(key: leafKey, chain: [leaf, intermediate, authority.root])
            return try context.signed(header: signer.header(), by: signer)
        },
        JWSMutation("leaf-expired-at-signed-date", layer: "chain", .reject, finding: .chainInvalid,
                    "a marked leaf that expired a year before the token's signedDate") { context in
            guard let signed = JWSMutationContext.value(of: "signedDate", in: context.payload).flatMap(JWSToken.milliseconds)
            else { throw MutationError(.notApplicable, "the payload has no signedDate") }
            let (key, leaf) = try issueLeaf(context, marker: true, notAfter: signed / 1000 - 365 * 86_400,
                                            notBefore: signed / 1000 - 2 * 365 * 86_400)
            let signer = JWSSigner(key: key, chain: [leaf] + Array(context.signer.chain.dropFirst()))
            return try context.signed(header: signer.header(), by: signer)
        },
    ]

    /// The payload's claims, signed as they are.
    static let payloads: [JWSMutation] = [
        JWSMutation("duplicate-bundle-id", layer: "payload", .reject, finding: .jsonDuplicateKey,
                    "a second bundleId after the genuine one: JSON.parse takes the attacker's") { context in
            try context.signed(payload: JWSMutationContext.duplicating("bundleId", as: #""com.example.attacker""#,
                                                                     in: context.payload))
        },
        JWSMutation("duplicate-environment", layer: "payload", .reject, finding: .jsonDuplicateKey,
                    "environment Sandbox then Production") { context in
            try context.signed(payload: JWSMutationContext.duplicating("environment", as: #""Production""#, in: context.payload))
        },
        JWSMutation("duplicate-transaction-id", layer: "payload", .reject, finding: .jsonDuplicateKey,
                    "a second transactionId: two readers see two purchases") { context in
            try context.signed(payload: JWSMutationContext.duplicating("transactionId", as: #""1000000000000001""#,
                                                                     in: context.payload))
        },
        JWSMutation("transaction-id-beyond-2-53", layer: "payload", .reject, finding: .jwsClaimType,
                    "transactionId as a number above 2^53, which JavaScript rounds to another id") { context in
            try context.signed(payload: JWSMutationContext.setting("transactionId", to: "9007199254740993", in: context.payload))
        },
        JWSMutation("bundle-id-homoglyph", layer: "payload", .reject, finding: .bundleIdMismatch,
                    "the bundleId with a Cyrillic е (U+0435) for e: looks the same, is another app") { context in
            guard let value = JWSMutationContext.value(of: "bundleId", in: context.payload), value.contains("e") else {
                throw MutationError(.notApplicable, "the payload's bundleId has no e")
            }
            var replaced = value
            if let index = replaced.firstIndex(of: "e") { replaced.replaceSubrange(index...index, with: "\u{0435}") }
            return try context.signed(payload: JWSMutationContext.setting("bundleId", to: replaced, in: context.payload))
        },
        JWSMutation("signed-date-in-future", layer: "payload", .reject, finding: .jwsSignedDateInFuture,
                    "signedDate in 2096: judged then, every certificate is valid") { context in
            try context.signed(payload: JWSMutationContext.setting("signedDate", to: "4000000000000", in: context.payload))
        },
        JWSMutation("payload-not-json", layer: "payload", .reject, error: .jwsPayloadNotJSON,
                    "a signed payload that is not JSON") { context in
            try context.signed(payload: bytes("not json"))
        },
    ]

    /// Header members that change how the payload is read.
    static let headers: [JWSMutation] = [
        JWSMutation("header-b64-false", layer: "header", .reject, finding: .jwsHeaderUnsupported,
                    "b64 false without crit (RFC 7797): a reader that honours it signs the payload unencoded") { context in
            try context.signed(header: context.header(adding: #""b64":false"#))
        },
    ]

    /// How the parts are written.
    static let encodings: [JWSMutation] = [
        JWSMutation("base64-standard-alphabet", layer: "encoding", .reject, finding: .jwsBase64urlAlphabet,
                    "the payload in standard base64 ('+', '/'), signed as written") { context in
            var payload = context.payload
            payload = JWSMutationContext.setting("rcptPad", to: #""\u00ff\u00fe>>>???""#, in: payload)
            let standard = String(b64(payload).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
            let input = b64(context.header) + "." + standard
            return input + "." + b64(try context.signer.signRaw(bytes(input)))
        },
        JWSMutation("jwe-five-parts", layer: "encoding", .reject, error: .jwsPartCount, signatureValid: false,
                    "a five-part (JWE-shaped) token") { context in
            let parts = JWSMutationContext.parts(try context.signed())
            return parts[0] + ".." + parts[1] + "." + parts[2] + "."
        },
    ]

    /// JWS inside JWS (notifications).
    static let nesting: [JWSMutation] = [
        JWSMutation("notification-nested-valid", layer: "nesting", .accept, finding: nil,
                    "a notification whose data carries the token, both signed by the test CA") { context in
            try context.notificationBody(payload: try notification(carrying: try context.signed(), context))
        },
        JWSMutation("notification-nested-foreign-chain", layer: "nesting", .reject, finding: .jwsNestedInvalid,
                    "a notification signed by the test CA carrying a transaction signed by the foreign CA") { context in
            try context.notificationBody(payload: try notification(carrying: try context.signed(by: context.foreign), context))
        },
        JWSMutation("notification-nested-tampered", layer: "nesting", .reject, finding: .jwsNestedInvalid,
                    "a valid notification carrying a transaction whose payload changed after signing") { context in
            let parts = JWSMutationContext.parts(try context.signed())
            let edited = JWSMutationContext.setting("productId", to: #""com.example.attacker.lifetime""#, in: context.payload)
            return try context.notificationBody(payload: try notification(carrying: parts[0] + "." + b64(edited) + "." + parts[2], context))
        },
        JWSMutation("notification-carries-notification", layer: "nesting", .reject, finding: .jwsKindMismatch,
                    "a notification whose signedTransactionInfo is another notification (carrying the transaction), all validly signed") {
            context in
            let inner = try context.signed(payload: try notification(carrying: try context.signed(), context))
            return try context.notificationBody(payload: try notification(carrying: inner, context))
        },
        JWSMutation("document-notification-as-transaction", layer: "document", .reject, finding: .jwsKindMismatch,
                    "an API response whose signedTransactions holds a genuine notification of the app (carrying the transaction), not a transaction") {
            context in
            let notification = try context.signed(payload: try notification(carrying: try context.signed(), context))
            return #"{"signedTransactions":["\#(notification)"]}"#
        },
    ]

    static func name(_ common: String) -> [(attribute: String, value: String)] {
        [("C", "US"), ("O", "rcpt mutation TEST-ONLY"), ("OU", "TEST-ONLY, not Apple"), ("CN", common)]
    }

    /// A P-256 leaf issued by the test CA's intermediate, with or without the leaf marker.
    static func issueLeaf(_ context: JWSMutationContext, marker: Bool, notAfter: Int64,
                          notBefore: Int64? = nil) throws -> (PrivateKey, Certificate) {
        let authority = context.authority
        guard let intermediate = authority.intermediate, let intermediateKey = authority.intermediateKey else {
            throw MutationError(.notApplicable, "the CA has no intermediate")
        }
        let key = try PrivateKey.generateEC(curve: "P-256")
        let leaf = try Certificate.issue(
            CertificateRequest(subject: name("Receipt Signing TEST-ONLY"), serialNumber: marker ? 43 : 42,
                               notBefore: notBefore ?? authority.leaf.notBefore, notAfter: notAfter,
                               isCertificateAuthority: false,
                               extraExtensions: marker ? [(TestCertificateAuthority.leafMarkerOID, false, [0x05, 0x00])] : []),
            subjectKey: key, issuer: intermediate, issuerKey: intermediateKey, digest: .sha384)
        return (key, leaf)
    }
}

/// HMAC-SHA256 (RFC 2104), for the key-confusion mutation.
enum HMAC {
    static func sha256(key: [UInt8], message: [UInt8]) throws(CryptoError) -> [UInt8] {
        var block = key.count > 64 ? try Digest.hash(key, algorithm: .sha256) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = try Digest.hash(block.map { $0 ^ 0x36 } + message, algorithm: .sha256)
        return try Digest.hash(block.map { $0 ^ 0x5C } + inner, algorithm: .sha256)
    }
}
