/// The finding codes of Apple's JWS: StoreKit 2 tokens and the App Store Server's documents.
extension FindingCode {
    // MARK: - JWS (StoreKit 2 and the App Store Server)

    package static let jwsBase64urlPadding = FindingCode(
        "jws-base64url-padding", .warning, .container,
        "a JWS part is padded with '=': RFC 7515 base64url has no padding, and strict readers refuse it")
    package static let jwsBase64urlAlphabet = FindingCode(
        "jws-base64url-alphabet", .error, .container,
        "a JWS part uses '+' or '/' (standard base64): readers disagree on whether it is the same token")
    package static let jwsBase64urlTrailingBits = FindingCode(
        "jws-base64url-trailing-bits", .warning, .container,
        "a JWS part's last character carries bits decoding drops: a second spelling of the same bytes")
    package static let jsonDuplicateKey = FindingCode(
        "json-duplicate-key", .error, .payload,
        "a JSON object names a member twice: JSON.parse, Python and Foundation take the last copy, others the first")
    package static let jsonUnsafeInteger = FindingCode(
        "json-unsafe-integer", .warning, .payload,
        "a JSON integer beyond 2^53: JavaScript (and any reader into a double) silently rounds it")
    package static let jwsAlgorithmNotEs256 = FindingCode(
        "jws-alg-not-es256", .error, .signature,
        "the header's alg is not ES256, the only algorithm Apple signs with (none, HS256, RS256 … are refused)")
    package static let jwsCriticalHeader = FindingCode(
        "jws-crit-header", .error, .signature,
        "the header has crit: extensions the reader must understand, and rcpt (like Apple's libraries) knows none")
    package static let jwsHeaderUnsupported = FindingCode(
        "jws-header-unsupported", .error, .signature,
        "the header has b64, zip or enc: members that change how the payload is read, which Apple never sends")
    package static let jwsKeyReferenceHeader = FindingCode(
        "jws-key-reference-header", .warning, .signature,
        "the header names a key elsewhere (jku, x5u, jwk; kid as info): never followed, only x5c is used")
    package static let jwsSignatureLength = FindingCode(
        "jws-signature-length", .error, .signature, "an ES256 signature is 64 octets (r ‖ s); this one is not")
    package static let jwsSignatureDer = FindingCode(
        "jws-signature-der", .error, .signature,
        "the signature is a DER ECDSA-Sig-Value, not JOSE's raw r ‖ s (RFC 7518 §3.4): refused, as JOSE readers do")
    package static let jwsSignatureHighS = FindingCode(
        "jws-signature-high-s", .warning, .signature,
        "the ECDSA signature's s is above n/2: valid, but a second signature (n − s) of the same token exists")
    package static let jwsKeyNotP256 = FindingCode(
        "jws-key-not-p256", .error, .signature, "the signing certificate's key is not an EC P-256 key, as ES256 needs")
    package static let jwsX5cMissing = FindingCode(
        "jws-x5c-missing", .error, .chain, "the header has no x5c certificate chain to verify the signature with")
    package static let jwsX5cLength = FindingCode(
        "jws-x5c-length", .error, .chain,
        "x5c does not hold exactly leaf, intermediate and root, as Apple's chains do (Apple's libraries refuse others)")
    package static let jwsClaimType = FindingCode(
        "jws-claim-type", .error, .payload,
        "a claim Apple defines has another JSON type (a transactionId as a number, a quantity as a string …)")
    package static let jwsLimitExceeded = FindingCode(
        "jws-limit-exceeded", .error, .container,
        "JWS nested deeper than three levels, or more than 64 in one payload: the ones beyond are not verified")
    package static let jwsNestedSignerDiffers = FindingCode(
        "jws-nested-signer-differs", .warning, .chain,
        "a nested JWS is signed by another certificate than the token that carries it")
    package static let jwsSignedDateMissing = FindingCode(
        "jws-signed-date-missing", .warning, .content,
        "the payload has no signedDate: the chain is evaluated now (or at --at)")
    package static let jwsSignedDateInFuture = FindingCode(
        "jws-signed-date-in-future", .error, .content, "signedDate is later than the time of the check")
    package static let appAppleIdMismatch = FindingCode(
        "app-apple-id-mismatch", .error, .content,
        "the app's App Store id is not the expected one (a JWS payload's appAppleId, a Production receipt's app_item_id)"
    )
    package static let jwsNestedInvalid = FindingCode(
        "jws-nested-invalid", .error, .content, "a JWS nested in the payload is not valid (its own findings say why)")
    package static let jwsTokenUnreadable = FindingCode(
        "jws-token-unreadable", .error, .container,
        "a token position (a signed… member, or a string a reader would take for a token) holds no compact JWS: a lenient reader may still take an unverified token from it"
    )
    package static let jwsTokenSurrounded = FindingCode(
        "jws-token-surrounded", .warning, .encoding,
        "a token in JSON has characters around it (white space, quotes, a Bearer prefix, invisible marks): stripped as lenient readers do, then verified; Apple sends bare tokens"
    )
    package static let jwsDateUnusable = FindingCode(
        "jws-date-unusable", .error, .payload,
        "a millisecond date claim is present but no usable date (beyond 2^53, too long, not a number; a signing time before 1970): never read as absent"
    )
    package static let jwsX5cEncoding = FindingCode(
        "jws-x5c-encoding", .error, .chain,
        "an x5c element is not standard base64 (padded, no line breaks) of a DER certificate, as RFC 7515 §4.1.6 and Apple's libraries require"
    )
    package static let jwsCertificateWeakDigest = FindingCode(
        "jws-certificate-weak-digest", .error, .chain,
        "a certificate of the JWS chain is signed with SHA-1 or MD5; Apple's JWS chains are signed with ECDSA and SHA-384"
    )
    package static let jwsBindingMismatch = FindingCode(
        "jws-binding-mismatch", .error, .content,
        "tokens of one input disagree on the app (bundleId, appAppleId) or environment: a nested token and the token that carries it, or the tokens and members of one document"
    )
    package static let jwsDeviceMismatch = FindingCode(
        "jws-device-mismatch", .error, .content,
        "deviceVerification is not SHA-384 of the nonce and the expected device: the token was issued to another device"
    )
    package static let jwsDeviceUnverifiable = FindingCode(
        "jws-device-unverifiable", .warning, .content,
        "--device-id is given, but the token carries no deviceVerification (the App Store Server API's do not) or the id is not a UUID"
    )
    package static let jwsKindMismatch = FindingCode(
        "jws-kind-mismatch", .error, .content,
        "a token of one kind where Apple's documents hold another (a notification in signedTransactions): Apple's verifier refuses it there"
    )
    package static let jwsNotBoundToApp = FindingCode(
        "jws-not-bound-to-app", .warning, .content,
        "renewal info carries no bundleId: on its own it cannot be bound to the expected app (a token carrying it binds it)"
    )
    package static let jwsClaimMisplaced = FindingCode(
        "jws-claim-misplaced", .warning, .content,
        "a notification has bundleId, appAppleId or environment at its top level: Apple reads them from data (summary, externalPurchaseToken, appData), and so does rcpt"
    )
    package static let jwsNestedUnverified = FindingCode(
        "jws-nested-unverified", .error, .content,
        "a nested JWS was read but not verified, because the token carrying it is not trusted: work is bounded by trust"
    )
}
