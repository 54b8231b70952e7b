import ReceiptDiagnostics
import ReceiptSuite

/// Who could make a catalogue entry's input and what accepting it costs: its attacker, its concern, why, and for a
/// robustness entry the readers it would fool. One table for receipts and one for JWS, each a rule by where the
/// edit sits (signed content or not) with the named exceptions; `ThreatTests` hold every entry to it.
package struct Threat: Sendable, Hashable {
    package var attacker: Attacker
    package var concern: Concern
    /// Why, in one sentence.
    package var why: String
    /// For a robustness entry: the readers a validator that accepts it could disagree with, when any is known.
    package var readers: String?

    init(_ attacker: Attacker, _ concern: Concern, _ why: String, readers: String? = nil) {
        self.attacker = attacker
        self.concern = concern
        self.why = why
        self.readers = readers
    }
}

extension Threat {
    /// The threat of an input made by several edits: the strongest attacker any of them needs (anyone, then a
    /// replay, then the signer); robustness when that is the signer, else security when any edit is.
    package static func combined(_ threats: [Threat]) -> Threat {
        let order: [Attacker] = [.anyone, .replay, .signer]
        guard
            let strongest = threats.max(by: {
                (order.firstIndex(of: $0.attacker) ?? 0) < (order.firstIndex(of: $1.attacker) ?? 0)
            })
        else { return Threat(.anyone, .security, "no edit") }
        if strongest.attacker == .signer { return strongest }
        guard let security = threats.first(where: { $0.concern == .security }) else { return strongest }
        return Threat(strongest.attacker, .security, security.why, readers: security.readers)
    }

    /// A payload or claim edit re-signed by the test CA.
    package static let signedEdit = Threat(
        .signer, .robustness, "an edit of the signed content, re-signed: only the signing key's holder can make it")

    /// What a genuine document would be refused for in the same way: a signed edit that rcpt refuses (`codes`, its
    /// findings' codes) for another app, device or version is no more than a genuine document of that app, device
    /// or version replayed. Not when its claims disagree among themselves (`jws-binding-mismatch`: a nested token
    /// against its carrier, an app transaction's environment against its receiptType): no genuine document does,
    /// and a validator that reads the one of them that matches refuses every genuine document of another app.
    package static func replayed(for codes: [String]) -> Threat? {
        guard !codes.contains(FindingCode.jwsBindingMismatch.rawValue) else { return nil }
        let otherApp: [FindingCode] = [.bundleIdMismatch, .hashMismatch, .jwsDeviceMismatch, .jwsKindMismatch]
        if codes.contains(where: { code in otherApp.contains { $0.rawValue == code } }) {
            return Threat(
                .replay, .security, "a genuine document of another app, device or kind is refused the same way")
        }
        if codes.contains(FindingCode.appVersionMismatch.rawValue)
            || codes.contains(FindingCode.environmentMismatch.rawValue)
        {
            return Threat(
                .replay, .policy, "a genuine document of another version or environment is refused the same way")
        }
        return nil
    }
}

extension Threat {
    static let unsignedReceipt = "the signature no longer covers what it signs, or was never made: anyone can make it"
    static let receiptContainer =
        "outside the signed content (container, unsigned fields, certificates, wrapping): anyone can edit a genuine receipt so"
    static let receiptSigned =
        "inside the signed content: only the signing key's holder can make it, and Apple never signs it"
    static let developerCertificate =
        "any Apple developer holds a certificate from Apple's WWDR CA: the marker is what tells Apple's receipt signer from it"
    static let authorityOnly = "only a holder of the CA's keys can issue or sign so, and Apple never does"
    static let ownChain = "a chain of the attacker's own: anyone can make one"

    /// The threat of a receipt mutation.
    static func receipt(name: String, group: MutationGroup, layer: String, signatureValid: Bool) -> Threat {
        if let replay = receiptReplays[name] { return replay }
        if name == "baseline" { return Threat(.replay, .security, "the input itself, re-signed: genuine") }
        if !signatureValid { return Threat(.anyone, .security, unsignedReceipt) }
        if [
            "leaf-marker-stripped", "intermediate-marker-stripped", "decoy-intermediate-with-marker",
            "decoy-marked-leaf-first",
        ].contains(name) {
            return Threat(.anyone, .security, developerCertificate)
        }
        if let signer = receiptSignerOutsidePayload[name] { return signer }
        if let harmless = receiptHarmlessOutsideContent[name] { return harmless }
        if ["foreign-ca", "self-signed-leaf", "genuine-chain-before-self-signed-signer"].contains(name) {
            return Threat(.anyone, .security, ownChain)
        }
        if [
            "storekit-certificate-on-production", "storekit-signed-production", "storekit-certificate-on-xcode-type",
            "storekit-issued-chain-production",
        ].contains(name) {
            return Threat(
                .anyone, .security,
                "Xcode signs StoreKit test receipts with a certificate of its own on any Mac: anyone can make one")
        }
        switch layer {
        case "payload", "attribute", "record":
            return Threat(.signer, .robustness, receiptSigned, readers: receiptReaders(name: name, group: group))
        case "signature":
            return Threat(
                .anyone, .security,
                "the algorithm identifiers are not signed: anyone can change them on a genuine receipt")
        default:
            return Threat(.anyone, .security, receiptContainer)
        }
    }

    /// Edits anyone can make outside the signed content that leave it Apple's, with the signature still verifying
    /// over it (`openssl cms -verify` takes each): a verifier that accepts one reads what Apple signed, so the
    /// attacker gains nothing. rcpt refuses them (they are no receipt Apple writes), and a careful validator that
    /// accepts them is not insecure: robustness, not security (a CI trial's OpenSSL-based validator failed the gate
    /// on them).
    static let receiptHarmlessOutsideContent: [String: Threat] = {
        let identifier =
            "the signature algorithm's identifier is not signed, and the signature still verifies over Apple's content: a verifier that accepts it reads what Apple signed"
        let readers = "OpenSSL's cms -verify takes it; rcpt and a strict reader refuse it"
        return [
            "signature-algorithm-mismatch": Threat(.anyone, .robustness, identifier, readers: readers),
            "signature-algorithm-md5-rsa": Threat(.anyone, .robustness, identifier, readers: readers),
            "content-type-not-data": Threat(
                .anyone, .robustness,
                "the content type is not signed, and the content is Apple's: a verifier that accepts it reads what Apple signed",
                readers: readers),
            "certificates-over-limit": Threat(
                .anyone, .robustness,
                "extra copies of the chain are not signed, and the chain and content are Apple's: a cost to a reader, no gain to an attacker",
                readers: "OpenSSL reads every certificate; rcpt stops at 16"),
            "trailing-garbage": Threat(
                .anyone, .robustness,
                "bytes after the ContentInfo are outside the receipt, which is Apple's and verifies: a verifier that reads the one element reads what Apple signed",
                readers: "OpenSSL's cms -verify reads the first element and leaves what follows; rcpt refuses it"),
            "verify-receipt-body-duplicate-key": Threat(
                .anyone, .robustness,
                "two receipt-data copies, one forged: a validator verifies the copy it reads, so it is fooled only when what verifies and what reads the purchases take different copies",
                readers:
                    "most JSON readers (Python's json, JavaScript's JSON.parse) take the last copy, some the first; rcpt refuses both"
            ),
            "certificates-missing-intermediate": Threat(
                .anyone, .robustness,
                "the certificates set is not signed, and Apple's intermediate is public: a verifier that brings its own builds the same chain to the trusted root over Apple's signature and content",
                readers:
                    "OpenSSL's cms -verify with the intermediate given (-certfile, -untrusted) takes it; rcpt, given only the root, refuses it"
            ),
            "decoy-leaf-before-genuine": Threat(
                .anyone, .robustness,
                "the certificates set is not signed, and the signature verifies with the genuine leaf that follows the decoy: a verifier that verifies and chains that one reads what Apple signed",
                readers: "OpenSSL's cms -verify takes the first certificate of the name and fails; rcpt refuses it"),
            "signed-attributes-not-der": Threat(
                .anyone, .robustness,
                "the signature covers the signed attributes in DER order, so anyone can reorder them on a genuine receipt; their values, and the content, are Apple's",
                readers: readers),
        ]
    }()

    /// Genuine receipts of another app, device, version, environment or time.
    static let receiptReplays: [String: Threat] = {
        var table: [String: Threat] = [
            "other-bundle-id": Threat(
                .replay, .security, "a genuine receipt of another app: anyone can buy one from their own app"),
            "bundle-id-extended": Threat(
                .replay, .security,
                "a genuine receipt of an app whose bundle id extends yours: anyone can register one and buy in it"),
            "bundle-id-prefixed": Threat(
                .replay, .security,
                "a genuine receipt of an app whose bundle id ends with yours: anyone can register one and buy in it"),
            "hash-for-other-device": Threat(
                .replay, .security, "a genuine receipt from another device: anyone can copy one"),
            "chain-sha1-signatures": Threat(
                .replay, .security,
                "Apple signed its chains with SHA-1 until 2023: a genuine receipt of those years carries one, and a validator that refuses it refuses genuine receipts"
            ),
            "wrong-app-version": Threat(.replay, .policy, "a genuine receipt of another version of the app"),
            "receipt-expired": Threat(
                .replay, .policy, "a genuine receipt past its expiration date: an old one replayed"),
            "subscription-expired": Threat(.replay, .policy, "a genuine receipt whose subscription has lapsed"),
            "purchase-cancelled": Threat(.replay, .policy, "a genuine receipt whose purchase was refunded"),
            "product-of-another-app": Threat(.replay, .policy, "a genuine record of a product another app sells"),
        ]
        for environment in ["production", "productionsandbox", "sandbox", "xcode", "empty"] {
            table["environment-" + environment] = Threat(.replay, .policy, "a genuine receipt of another environment")
        }
        return table
    }()

    /// Shapes outside the payload that still need a key: signed attributes, a chain only the CA could issue.
    static let receiptSignerOutsidePayload: [String: Threat] = {
        var table: [String: Threat] = [:]
        let signedAttributes = "the signed attributes are signed: only the key's holder can make them so"
        for name in ["signed-attributes-no-content-type", "signed-attributes-content-type-mismatch"] {
            table[name] = Threat(.signer, .robustness, signedAttributes)
        }
        for name in [
            "signed-attributes-two-message-digests", "signed-attributes-message-digest-two-values",
            "signed-attributes-duplicate-content-type",
        ] {
            table[name] = Threat(
                .signer, .robustness, signedAttributes,
                readers: "a reader that takes the first value and one that takes the last check different digests")
        }
        for name in [
            "leaf-expired-at-creation", "leaf-not-yet-valid-at-creation", "leaf-issued-by-root",
            "marked-leaf-issued-by-root", "signer-is-intermediate", "signer-is-root", "signer-is-ca",
            "signer-key-usage-without-digital-signature", "leaf-key-1024", "signer-extended-key-usage",
        ] {
            table[name] = Threat(.signer, .robustness, authorityOnly)
        }
        return table
    }()

    /// The readers a signed-content shape would set against each other.
    static func receiptReaders(name: String, group: MutationGroup) -> String? {
        if name.hasPrefix("duplicate-bundle-id") || name.hasPrefix("duplicate-transaction-id") {
            return "a reader that keeps the first of two attributes and one that keeps the last see different values"
        }
        switch group {
        case .encoding:
            return
                "a DER reader refuses what a BER reader reads on, and lengths that disagree are read to different ends"
        case .types:
            return "a reader that casts the value to the type Apple writes crashes or reads another value"
        case .structure:
            return "ASN.1 readers disagree on malformed attributes: one skips them, another reads them as another field"
        case .semantics:
            return "string comparisons disagree on case, NUL, escapes and look-alike characters"
        case .dates:
            return
                "date parsers disagree on impossible and zone-less dates: one refuses, another rolls over or reads local time"
        default:
            return nil
        }
    }
}

extension Threat {
    static let unsignedToken = "the signature does not verify, or the token is no JWS at all: anyone can make it"
    static let tokenSigned =
        "in the signed header or payload: only the signing key's holder can make it, and Apple never signs it"
    static let aroundToken = "bytes around or beside genuine tokens, which no signature covers: anyone can make it"
    /// A cross-reader ambiguity anyone can make: what is forged sits where Apple's documents carry nothing a server
    /// reads, so a validator that verifies the tokens it reads is not fooled, and one that reads elsewhere is.
    static let unreadMember =
        "anyone can add it to a genuine document, where Apple's documents carry nothing a server reads: a validator that verifies the tokens it reads is not fooled"
    static let tokenScanner =
        "a reader that scans every string for tokens verifies, or trusts, one that a reader of Apple's members never sees"

    /// The threat of a JWS mutation.
    static func jws(name: String, layer: String, signatureValid: Bool) -> Threat {
        if let named = jwsNamed[name] { return named }
        let readers = jwsReaders(name: name)
        if layer == "document" { return Threat(.anyone, .security, aroundToken, readers: readers) }
        if !signatureValid { return Threat(.anyone, .security, unsignedToken, readers: readers) }
        return Threat(.signer, .robustness, tokenSigned, readers: readers)
    }

    /// The exceptions to the rule: what anyone or a replay can make though the signature verifies.
    static let jwsNamed: [String: Threat] = [
        "baseline": Threat(.replay, .security, "the input itself, re-signed: genuine"),
        "bundle-id-other-app": Threat(
            .replay, .security, "a genuine document of another app: anyone can get one from an app of their own"),
        "bundle-id-extended": Threat(
            .replay, .security,
            "a genuine document of an app whose bundle id extends yours: anyone can register one and buy in it"),
        "bundle-id-prefixed": Threat(
            .replay, .security,
            "a genuine document of an app whose bundle id ends with yours: anyone can register one and buy in it"),
        "environment-other": Threat(
            .replay, .policy,
            "a genuine document of the other environment: anyone with a Sandbox tester account can make one"),
        "high-s-twin": Threat(.anyone, .security, "anyone can turn a genuine ECDSA signature into its high-S twin"),
        "base64url-padded": Threat(
            .anyone, .policy, "anyone can pad a genuine token's signature part; the signed text is unchanged"),
        "signature-der": Threat(
            .anyone, .robustness,
            "anyone can re-encode a genuine signature as DER, a second token for the same claims: a verifier that converts it back checks Apple's signature over Apple's claims (as for the high-S twin)",
            readers:
                "JOSE readers (Apple's library, PyJWT, jose) refuse it; a verifier built on OpenSSL's DER ECDSA takes it"
        ),
        "x5c-foreign-chain": Threat(.anyone, .security, ownChain),
        "leaf-marker-missing": Threat(.anyone, .security, developerCertificate),
        "intermediate-marker-missing": Threat(.anyone, .security, developerCertificate),
        "untrusted-carrier-many-nested": Threat(.anyone, .security, "a carrier of the attacker's own chain"),
        "document-names-another-app": Threat(
            .anyone, .robustness, unreadMember,
            readers: "a server that reads the response's unsigned bundleId instead of its token's sees another app"),
        "document-member-case-variant": Threat(
            .anyone, .robustness, unreadMember,
            readers:
                "Go's encoding/json matches member names case-insensitively: it reads a member other readers do not see"
        ),
        "document-token-no-break-space": Threat(.anyone, .robustness, unreadMember, readers: tokenScanner),
        "document-token-spaced-header": Threat(.anyone, .robustness, unreadMember, readers: tokenScanner),
        "device-verification-other-device": Threat(.replay, .security, "a genuine token StoreKit gave another device"),
        "document-notification-as-transaction": Threat(
            .replay, .security,
            "a genuine token of another kind, where a transaction belongs: anyone holding one can put it there"),
        "application-version-other": Threat(
            .replay, .policy, "a genuine app transaction of another version of the app"),
        "document-two-genuine-tokens": Threat(.replay, .security, "two genuine tokens in one document"),
        "document-duplicate-signed-payload-forged-first": Threat(
            .anyone, .robustness, forgedFirst, readers: lastCopyReaders),
        "document-duplicate-transaction-info-forged-first": Threat(
            .anyone, .robustness, forgedFirst, readers: lastCopyReaders),
    ]

    /// A member named twice, the forgery first: the readers most servers use keep the genuine last copy, so a
    /// validator that verifies the copy it reads is not fooled (Apple's library behind a Python webhook accepts it,
    /// safely); one that verifies one copy and reads the other is.
    static let forgedFirst =
        "anyone can name a member twice around a genuine token; a validator is fooled only when what it verifies and what it reads are different copies"
    static let lastCopyReaders =
        "Python's json, JavaScript's JSON.parse and Go's encoding/json keep the last copy (the genuine one here); a reader that keeps the first reads the forgery"

    /// The readers a signed token shape would set against each other.
    static func jwsReaders(name: String) -> String? {
        if name.contains("case-variant") {
            return
                "Go's encoding/json matches member names case-insensitively: it reads a member other readers do not see"
        }
        if name.contains("duplicate") {
            return
                "Python's json, JavaScript's JSON.parse and Go's encoding/json keep the last of two members; a reader that keeps the first, or refuses duplicates, reads another token"
        }
        if name.contains("beyond-2-53") || name.contains("beyond-64-bits") || name.contains("huge-exponent")
            || name.contains("thousand-digits")
        {
            return
                "JavaScript and any reader into a double read 2^53 + 1 as 2^53; a 64-bit integer reader refuses, wraps or saturates"
        }
        if name.contains("minus-zero") || name.hasSuffix("-negative") || name.contains("exponent-form")
            || name.contains("fraction")
        {
            return
                "-0, exponents and fractions are one number to a double reader and an error or another number to an integer reader"
        }
        if name.hasSuffix("-as-string") || name.hasSuffix("-as-number") || name.hasSuffix("-as-array")
            || name.hasSuffix("-as-boolean") || name.hasSuffix("-as-iso-string") || name.hasSuffix("-null")
        {
            return
                "a dynamically typed reader (Python, JavaScript) takes the value as it comes: \"1\" + 1 is \"11\" in JavaScript, and a date string compares as text"
        }
        if name.hasPrefix("x5c-"),
            ["base64", "line-breaks", "padding", "ber-length"].contains(where: { name.contains($0) })
        {
            return
                "certificate and base64 readers disagree on non-DER lengths and on base64 that is not the standard alphabet"
        }
        if name.hasPrefix("alg-") || name == "crit-header" || name == "header-b64-false" {
            return
                "a library that honours the header's alg, crit or b64 and one that assumes ES256 verify different things"
        }
        if name.contains("homoglyph") || name.contains("look-alike") {
            return "a comparison after Unicode normalisation or case folding matches what a byte comparison does not"
        }
        return nil
    }
}
