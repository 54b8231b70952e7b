/// Every kind of finding rcpt reports: the one table of findings, as `ErrorCode` is the one table of errors. A
/// finding carries one of these, never a free string. The raw value is the stable kebab-case code output shows
/// ("chain-invalid"); the cases stand in docs/findings.md's order, and its list is generated from `layer`,
/// `severity` and `summary` (FindingCodeMeaning.swift) and checked against this table.
public enum FindingCode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    // MARK: input
    case inputRepaired = "input-repaired"

    // MARK: content
    case bindingRequired = "binding-required"

    // MARK: container
    case trailingBytes = "trailing-bytes"
    case pkcs7ExtraContent = "pkcs7-extra-content"
    case pkcs7ExtraAlgorithmFields = "pkcs7-extra-algorithm-fields"
    case containerLimitExceeded = "container-limit-exceeded"
    case certificateUndecodable = "certificate-undecodable"
    case crlUndecodable = "crl-undecodable"
    case contentTypeNotData = "content-type-not-data"
    case contentDetached = "content-detached"

    // MARK: signature
    case noSigner = "no-signer"
    case multipleSigners = "multiple-signers"
    case signerCertificateMissing = "signer-certificate-missing"
    case signerCertificateAmbiguous = "signer-certificate-ambiguous"
    case signatureUnsupportedDigest = "signature-unsupported-digest"
    case digestAlgorithmNotDeclared = "digest-algorithm-not-declared"
    case signatureAlgorithmMismatch = "signature-algorithm-mismatch"
    case signatureAlgorithmKeyMismatch = "signature-algorithm-key-mismatch"
    case signatureAlgorithmUnsupported = "signature-algorithm-unsupported"
    case signedAttributesNotDer = "signed-attributes-not-der"
    case signedAttributeDuplicate = "signed-attribute-duplicate"
    case signedAttributeValueCount = "signed-attribute-value-count"
    case contentTypeAttributeMissing = "content-type-attribute-missing"
    case contentTypeAttributeMismatch = "content-type-attribute-mismatch"
    case messageDigestMismatch = "message-digest-mismatch"
    case signatureInvalid = "signature-invalid"
    case signatureUnsupported = "signature-unsupported"

    // MARK: chain
    case chainInvalid = "chain-invalid"
    case chainShapeUnexpected = "chain-shape-unexpected"
    case leafMarkerMissing = "leaf-marker-missing"
    case intermediateMarkerMissing = "intermediate-marker-missing"
    case storekitSignerOnAppStoreReceipt = "storekit-signer-on-app-store-receipt"
    case signerIsCa = "signer-is-ca"
    case signerKeyUsage = "signer-key-usage"
    case signerExtendedKeyUsage = "signer-extended-key-usage"
    case noCreationDate = "no-creation-date"

    // MARK: content
    case missingRequiredAttribute = "missing-required-attribute"
    case duplicateAttribute = "duplicate-attribute"
    case hashWrongLength = "hash-wrong-length"
    case hashMismatch = "hash-mismatch"
    case hashUnverifiable = "hash-unverifiable"
    case bundleIdMismatch = "bundle-id-mismatch"
    case environmentMismatch = "environment-mismatch"
    case appVersionMismatch = "app-version-mismatch"
    case responseDecodingMismatch = "response-decoding-mismatch"
    case creationDateMissing = "creation-date-missing"
    case creationDateInFuture = "creation-date-in-future"
    case creationBeforeOriginalPurchase = "creation-before-original-purchase"
    case receiptExpired = "receipt-expired"
    case expirationBeforeCreation = "expiration-before-creation"
    case purchaseAfterCreation = "purchase-after-creation"
    case duplicateTransactionId = "duplicate-transaction-id"
    case quantityOutOfRange = "quantity-out-of-range"
    case expiryBeforePurchase = "expiry-before-purchase"
    case subscriptionActive = "subscription-active"
    case subscriptionExpired = "subscription-expired"
    case subscriptionNotStarted = "subscription-not-started"
    case purchaseCancelled = "purchase-cancelled"
    case purchaseFamilyShared = "purchase-family-shared"
    case purchaseUpgraded = "purchase-upgraded"
    case subscriptionAutoRenewOff = "subscription-auto-renew-off"
    case subscriptionBillingRetry = "subscription-billing-retry"
    case subscriptionGracePeriod = "subscription-grace-period"

    // MARK: payload
    case payloadNotSet = "payload-not-set"
    case payloadTrailingBytes = "payload-trailing-bytes"
    case attributeNotSequence = "attribute-not-sequence"
    case attributeFieldCount = "attribute-field-count"
    case attributeTypeNotInteger = "attribute-type-not-integer"
    case attributeTypeOutOfRange = "attribute-type-out-of-range"
    case attributeVersionNotInteger = "attribute-version-not-integer"
    case attributeValueNotOctetString = "attribute-value-not-octet-string"
    case attributeValueConstructed = "attribute-value-constructed"
    case attributeMalformed = "attribute-malformed"
    case recordNotSet = "record-not-set"
    case recordEmpty = "record-empty"
    case recordMalformed = "record-malformed"

    // MARK: values
    case valueNotAsn1 = "value-not-asn1"
    case valueUnexpectedType = "value-unexpected-type"
    case valueInvalidUtf8 = "value-invalid-utf8"
    case valueInvalidAscii = "value-invalid-ascii"
    case valueInvalidDate = "value-invalid-date"
    case valueInvalidInteger = "value-invalid-integer"
    case valueFlagOutOfRange = "value-flag-out-of-range"
    case valueEmbeddedNul = "value-embedded-nul"

    // MARK: encoding
    case berIndefiniteLength = "ber-indefinite-length"
    case berConstructedString = "ber-constructed-string"
    case berNonMinimalLength = "ber-non-minimal-length"
    case berNonMinimalTag = "ber-non-minimal-tag"
    case berNonMinimalInteger = "ber-non-minimal-integer"
    case berUnsortedSet = "ber-unsorted-set"

    // MARK: JWS: StoreKit 2 tokens and the App Store Server's documents (each code's layer in `layer`)
    case jwsBase64urlPadding = "jws-base64url-padding"
    case jwsBase64urlAlphabet = "jws-base64url-alphabet"
    case jwsBase64urlTrailingBits = "jws-base64url-trailing-bits"
    case jsonDuplicateKey = "json-duplicate-key"
    case jsonUnsafeInteger = "json-unsafe-integer"
    case jwsAlgorithmNotEs256 = "jws-alg-not-es256"
    case jwsCriticalHeader = "jws-crit-header"
    case jwsHeaderUnsupported = "jws-header-unsupported"
    case jwsKeyReferenceHeader = "jws-key-reference-header"
    case jwsSignatureLength = "jws-signature-length"
    case jwsSignatureDer = "jws-signature-der"
    case jwsSignatureHighS = "jws-signature-high-s"
    case jwsKeyNotP256 = "jws-key-not-p256"
    case jwsX5cMissing = "jws-x5c-missing"
    case jwsX5cLength = "jws-x5c-length"
    case jwsX5cOrder = "jws-x5c-order"
    case jwsClaimType = "jws-claim-type"
    case jwsClaimValueUndocumented = "jws-claim-value-undocumented"
    case jwsLimitExceeded = "jws-limit-exceeded"
    case jwsNestedSignerDiffers = "jws-nested-signer-differs"
    case jwsSignedDateMissing = "jws-signed-date-missing"
    case jwsSignedDateInFuture = "jws-signed-date-in-future"
    case appAppleIdMismatch = "app-apple-id-mismatch"
    case jwsNestedInvalid = "jws-nested-invalid"
    case jwsTokenUnreadable = "jws-token-unreadable"
    case jwsTokenSurrounded = "jws-token-surrounded"
    case jwsDateUnusable = "jws-date-unusable"
    case jwsX5cEncoding = "jws-x5c-encoding"
    case jwsCertificateWeakDigest = "jws-certificate-weak-digest"
    case jwsBindingMismatch = "jws-binding-mismatch"
    case jwsKindMismatch = "jws-kind-mismatch"
    case jwsNotBoundToApp = "jws-not-bound-to-app"
    case jwsClaimMisplaced = "jws-claim-misplaced"
    case jwsNestedUnverified = "jws-nested-unverified"
    case jwsDeviceMismatch = "jws-device-mismatch"
    case jwsDeviceUnverifiable = "jws-device-unverifiable"

    public var description: String { rawValue }
}

/// Where in a receipt or a JWS a kind of finding belongs.
package enum FindingLayer: String, Sendable, Hashable, CaseIterable {
    case input, container, signature, chain, content, payload, values, encoding
}
