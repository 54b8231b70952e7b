/// Every kind of finding rcpt reports: its stable code, default severity, layer and one-line meaning. The one
/// table the README's code list and `rcpt verify`'s documentation are checked against; findings carry one of these,
/// never a free string.
public struct FindingCode: Sendable, Hashable, CustomStringConvertible {
    /// The stable kebab-case code, e.g. "chain-invalid".
    package let rawValue: String
    /// The severity a finding of this kind has unless its site says otherwise (documented in `summary`).
    public let severity: Severity
    package let layer: FindingLayer
    /// What a finding of this kind means, in one line.
    package let summary: String

    init(_ rawValue: String, _ severity: Severity, _ layer: FindingLayer, _ summary: String) {
        self.rawValue = rawValue
        self.severity = severity
        self.layer = layer
        self.summary = summary
    }

    public var description: String { rawValue }

    public static func == (lhs: FindingCode, rhs: FindingCode) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The code named `rawValue`, if there is one.
    package init?(rawValue: String) {
        guard let found = FindingCode.byRawValue[rawValue] else { return nil }
        self = found
    }

    private static let byRawValue: [String: FindingCode] =
        Dictionary(uniqueKeysWithValues: all.map { ($0.rawValue, $0) })
}

/// Where in a receipt a kind of finding belongs.
package enum FindingLayer: String, Sendable, Hashable, CaseIterable {
    case input, container, signature, chain, content, payload, values, encoding
}

extension FindingCode {
    // MARK: - input

    package static let inputRepaired = FindingCode(
        "input-repaired", .info, .input,
        "pasted text was repaired before decoding (quotes, byte order mark, percent-escapes, spaces that were +)")

    // MARK: - container

    package static let trailingBytes = FindingCode(
        "trailing-bytes", .error, .container, "bytes follow the ContentInfo, outside the signature")
    package static let pkcs7ExtraContent = FindingCode(
        "pkcs7-extra-content", .error, .container,
        "an element where RFC 5652 has no room (an unsigned addition another parser may read)")
    package static let pkcs7ExtraAlgorithmFields = FindingCode(
        "pkcs7-extra-algorithm-fields", .warning, .container, "an AlgorithmIdentifier with more than two fields")
    package static let containerLimitExceeded = FindingCode(
        "container-limit-exceeded", .error, .container,
        "more signers, certificates, CRLs, digest algorithms or attributes than ContainerLimits allows")
    package static let certificateUndecodable = FindingCode(
        "certificate-undecodable", .error, .container, "an entry of certificates is not an X.509 certificate")
    package static let crlUndecodable = FindingCode(
        "crl-undecodable", .error, .container, "an entry of crls is not an X.509 CertificateList")
    package static let contentTypeNotData = FindingCode(
        "content-type-not-data", .error, .container, "the eContentType is not pkcs7-data")
    package static let contentDetached = FindingCode(
        "content-detached", .error, .container, "the signature is detached: no content")
    // MARK: - signature

    package static let noSigner = FindingCode(
        "no-signer", .error, .signature, "SignedData has no SignerInfo")
    package static let multipleSigners = FindingCode(
        "multiple-signers", .error, .signature, "more than one SignerInfo: validators disagree on which counts")
    package static let signerCertificateMissing = FindingCode(
        "signer-certificate-missing", .error, .signature,
        "the SignerInfo names a certificate the receipt does not carry")
    package static let signatureUnsupportedDigest = FindingCode(
        "signature-unsupported-digest", .error, .signature, "the digest algorithm is not SHA-1 or SHA-2")
    package static let digestAlgorithmNotDeclared = FindingCode(
        "digest-algorithm-not-declared", .error, .signature,
        "the signer's digest algorithm is not in SignedData.digestAlgorithms")
    package static let signatureAlgorithmMismatch = FindingCode(
        "signature-algorithm-mismatch", .error, .signature,
        "the signature algorithm names another digest than the digest algorithm")
    package static let signatureAlgorithmKeyMismatch = FindingCode(
        "signature-algorithm-key-mismatch", .error, .signature,
        "the signature algorithm is for another kind of key than the signer's")
    package static let signatureAlgorithmUnsupported = FindingCode(
        "signature-algorithm-unsupported", .error, .signature,
        "the signature algorithm is not RSA PKCS#1 v1.5 or ECDSA with SHA-1 or SHA-2")
    package static let signedAttributesNotDer = FindingCode(
        "signed-attributes-not-der", .error, .signature, "the signed attributes are not DER")
    package static let signedAttributeDuplicate = FindingCode(
        "signed-attribute-duplicate", .error, .signature, "a signed attribute type occurs more than once")
    package static let signedAttributeValueCount = FindingCode(
        "signed-attribute-value-count", .error, .signature, "contentType or messageDigest without exactly one value")
    package static let contentTypeAttributeMissing = FindingCode(
        "content-type-attribute-missing", .error, .signature, "signed attributes without a contentType attribute")
    package static let contentTypeAttributeMismatch = FindingCode(
        "content-type-attribute-mismatch", .error, .signature,
        "the contentType attribute differs from the eContentType")
    package static let messageDigestMismatch = FindingCode(
        "message-digest-mismatch", .error, .signature, "messageDigest is missing or is not the content's digest")
    package static let signatureInvalid = FindingCode(
        "signature-invalid", .error, .signature, "the signature does not verify")
    package static let signatureUnsupported = FindingCode(
        "signature-unsupported", .error, .signature, "the signature cannot be verified with this key")
    // MARK: - chain

    package static let chainInvalid = FindingCode(
        "chain-invalid", .error, .chain, "the signer does not chain to a trusted root at the evaluation time")
    package static let chainShapeUnexpected = FindingCode(
        "chain-shape-unexpected", .error, .chain,
        "the verified path is not leaf, intermediate, root (or the signer is the Apple root)")
    package static let leafMarkerMissing = FindingCode(
        "leaf-marker-missing", .error, .chain, "the signer lacks Apple's receipt-signing marker extension")
    package static let intermediateMarkerMissing = FindingCode(
        "intermediate-marker-missing", .error, .chain, "the path's intermediate lacks Apple's WWDR marker extension")
    package static let storekitSignerOnAppStoreReceipt = FindingCode(
        "storekit-signer-on-app-store-receipt", .error, .chain,
        "a self-signed StoreKit-style signer on a receipt whose environment is not Xcode")
    package static let signerIsCa = FindingCode(
        "signer-is-ca", .error, .chain, "the signer certificate is a CA")
    package static let signerKeyUsage = FindingCode(
        "signer-key-usage", .error, .chain, "the signer's keyUsage does not allow digitalSignature")
    package static let signerExtendedKeyUsage = FindingCode(
        "signer-extended-key-usage", .warning, .chain, "the signer carries an extendedKeyUsage (Apple's do not)")
    package static let noCreationDate = FindingCode(
        "no-creation-date", .warning, .chain, "no valid creation date: the chain is evaluated now")
    // MARK: - content

    package static let missingRequiredAttribute = FindingCode(
        "missing-required-attribute", .error, .content,
        "a required attribute (bundle id, version, opaque value, hash, creation date) is missing")
    package static let duplicateAttribute = FindingCode(
        "duplicate-attribute", .error, .content, "an attribute type occurs twice (a warning for undocumented types)")
    package static let hashWrongLength = FindingCode(
        "hash-wrong-length", .error, .content, "sha1_hash is not 20 bytes")
    package static let hashMismatch = FindingCode(
        "hash-mismatch", .error, .content, "sha1_hash is not SHA-1(device id, opaque value, bundle id)")
    package static let hashUnverifiable = FindingCode(
        "hash-unverifiable", .error, .content, "the device hash cannot be checked: a part is missing")
    package static let bindingRequired = FindingCode(
        "binding-required", .error, .content,
        "--require-binding: no bundle id (in Production, no app Apple id) was expected, so any app's genuine document would pass"
    )
    package static let bundleIdMismatch = FindingCode(
        "bundle-id-mismatch", .error, .content, "the bundle id is not the expected one")
    package static let environmentMismatch = FindingCode(
        "environment-mismatch", .error, .content,
        "the receipt type is not from the environment --environment names")
    package static let appVersionMismatch = FindingCode(
        "app-version-mismatch", .error, .content, "the app version is not the expected one")
    package static let creationDateMissing = FindingCode(
        "creation-date-missing", .error, .content, "receipt_creation_date holds no date")
    package static let creationDateInFuture = FindingCode(
        "creation-date-in-future", .error, .content, "the creation date is more than a day in the future")
    package static let creationBeforeOriginalPurchase = FindingCode(
        "creation-before-original-purchase", .error, .content,
        "the receipt is created before the app's original purchase")
    package static let receiptExpired = FindingCode(
        "receipt-expired", .error, .content, "the receipt's expiration date is before the evaluation time")
    package static let expirationBeforeCreation = FindingCode(
        "expiration-before-creation", .error, .content, "the expiration date precedes the creation date")
    package static let purchaseAfterCreation = FindingCode(
        "purchase-after-creation", .error, .content,
        "an in-app date lies after the receipt's creation (a warning for Xcode receipts)")
    package static let duplicateTransactionId = FindingCode(
        "duplicate-transaction-id", .error, .content, "two in-app records carry the same transaction id")
    package static let quantityOutOfRange = FindingCode(
        "quantity-out-of-range", .error, .content, "an in-app quantity outside 1 to 1000")
    package static let expiryBeforePurchase = FindingCode(
        "expiry-before-purchase", .error, .content, "a subscription expires before its purchase")
    package static let subscriptionActive = FindingCode(
        "subscription-active", .info, .content, "a subscription product is active at the evaluation time")
    package static let subscriptionExpired = FindingCode(
        "subscription-expired", .info, .content, "a subscription product is not active at the evaluation time")
    package static let purchaseCancelled = FindingCode(
        "purchase-cancelled", .info, .content,
        "an in-app purchase was cancelled or revoked (refunded, or no longer shared): a receipt's cancellation_date, a transaction's revocationDate"
    )
    package static let purchaseFamilyShared = FindingCode(
        "purchase-family-shared", .info, .content,
        "a purchase a family member shares (inAppOwnershipType FAMILY_SHARED)")
    package static let purchaseUpgraded = FindingCode(
        "purchase-upgraded", .info, .content,
        "a subscription upgraded to another of its group (isUpgraded): this transaction no longer grants service")
    package static let subscriptionAutoRenewOff = FindingCode(
        "subscription-auto-renew-off", .info, .content, "auto-renew is off: the subscription ends at its expiry")
    package static let subscriptionBillingRetry = FindingCode(
        "subscription-billing-retry", .info, .content,
        "the App Store is retrying to bill a subscription that failed to renew (isInBillingRetryPeriod)")
    package static let subscriptionGracePeriod = FindingCode(
        "subscription-grace-period", .info, .content,
        "a subscription that failed to renew keeps service until its grace period ends (gracePeriodExpiresDate)")
    // MARK: - payload

    package static let payloadNotSet = FindingCode(
        "payload-not-set", .error, .payload, "the payload is not a SET")
    package static let payloadTrailingBytes = FindingCode(
        "payload-trailing-bytes", .warning, .payload, "bytes follow the payload SET inside the content")
    package static let attributeNotSequence = FindingCode(
        "attribute-not-sequence", .error, .payload, "an attribute is not a SEQUENCE")
    package static let attributeFieldCount = FindingCode(
        "attribute-field-count", .error, .payload, "an attribute does not have three fields")
    package static let attributeTypeNotInteger = FindingCode(
        "attribute-type-not-integer", .error, .payload, "an attribute type is not an INTEGER")
    package static let attributeTypeOutOfRange = FindingCode(
        "attribute-type-out-of-range", .error, .payload, "an attribute type does not fit 64 bits")
    package static let attributeVersionNotInteger = FindingCode(
        "attribute-version-not-integer", .error, .payload, "an attribute version is not an INTEGER")
    package static let attributeValueNotOctetString = FindingCode(
        "attribute-value-not-octet-string", .error, .payload, "an attribute value is not an OCTET STRING")
    package static let attributeValueConstructed = FindingCode(
        "attribute-value-constructed", .warning, .payload, "an attribute value is a constructed OCTET STRING")
    package static let attributeMalformed = FindingCode(
        "attribute-malformed", .error, .payload, "an attribute cannot be read")
    package static let recordNotSet = FindingCode(
        "record-not-set", .error, .payload, "an in-app record is not a SET")
    package static let recordEmpty = FindingCode(
        "record-empty", .warning, .payload, "an in-app record has no attributes")
    package static let recordMalformed = FindingCode(
        "record-malformed", .error, .payload, "an in-app record cannot be read")
    // MARK: - values

    package static let valueNotAsn1 = FindingCode(
        "value-not-asn1", .error, .values, "a value that should hold one ASN.1 element does not")
    package static let valueUnexpectedType = FindingCode(
        "value-unexpected-type", .warning, .values, "a value of another ASN.1 type than the field table expects")
    package static let valueInvalidUtf8 = FindingCode(
        "value-invalid-utf8", .error, .values, "a UTF8String that is not UTF-8")
    package static let valueInvalidAscii = FindingCode(
        "value-invalid-ascii", .error, .values, "an IA5String (or similar) with bytes above 0x7F")
    package static let valueInvalidDate = FindingCode(
        "value-invalid-date", .error, .values, "a date field that is not an RFC 3339 date")
    package static let valueInvalidInteger = FindingCode(
        "value-invalid-integer", .error, .values, "an INTEGER with no content octets")
    package static let valueFlagOutOfRange = FindingCode(
        "value-flag-out-of-range", .error, .values, "a flag that is not 0 or 1")
    package static let valueEmbeddedNul = FindingCode(
        "value-embedded-nul", .error, .values, "text with a NUL byte (C-string validators see a shorter value)")
    // MARK: - encoding

    /// Public: the fuzz harnesses' oracles, in another package, name it.
    public static let berIndefiniteLength = FindingCode(
        "ber-indefinite-length", .info, .encoding, "elements with an indefinite length (not DER)")
    package static let berConstructedString = FindingCode(
        "ber-constructed-string", .info, .encoding, "constructed strings (not DER)")
    /// Public: the fuzz harnesses' oracles, in another package, name it.
    public static let berNonMinimalLength = FindingCode(
        "ber-non-minimal-length", .info, .encoding, "non-minimal lengths (not DER)")
    package static let berNonMinimalTag = FindingCode(
        "ber-non-minimal-tag", .info, .encoding, "non-minimal tags (not DER)")
    package static let berNonMinimalInteger = FindingCode(
        "ber-non-minimal-integer", .warning, .encoding, "an INTEGER with redundant leading octets")
    package static let berUnsortedSet = FindingCode(
        "ber-unsorted-set", .info, .encoding, "a SET OF not in DER order")

    /// Every code, in the README's order.
    package static let all: [FindingCode] = [
        .inputRepaired, .bindingRequired,
        .trailingBytes, .pkcs7ExtraContent, .pkcs7ExtraAlgorithmFields, .containerLimitExceeded,
        .certificateUndecodable, .crlUndecodable, .contentTypeNotData, .contentDetached, .noSigner, .multipleSigners,
        .signerCertificateMissing, .signatureUnsupportedDigest, .digestAlgorithmNotDeclared,
        .signatureAlgorithmMismatch, .signatureAlgorithmKeyMismatch, .signatureAlgorithmUnsupported,
        .signedAttributesNotDer, .signedAttributeDuplicate, .signedAttributeValueCount, .contentTypeAttributeMissing,
        .contentTypeAttributeMismatch, .messageDigestMismatch, .signatureInvalid, .signatureUnsupported,
        .chainInvalid, .chainShapeUnexpected, .leafMarkerMissing, .intermediateMarkerMissing,
        .storekitSignerOnAppStoreReceipt, .signerIsCa, .signerKeyUsage, .signerExtendedKeyUsage, .noCreationDate,
        .missingRequiredAttribute, .duplicateAttribute, .hashWrongLength, .hashMismatch, .hashUnverifiable,
        .bundleIdMismatch, .environmentMismatch, .appVersionMismatch, .creationDateMissing, .creationDateInFuture,
        .creationBeforeOriginalPurchase, .receiptExpired, .expirationBeforeCreation, .purchaseAfterCreation,
        .duplicateTransactionId, .quantityOutOfRange, .expiryBeforePurchase, .subscriptionActive,
        .subscriptionExpired, .purchaseCancelled, .purchaseFamilyShared, .purchaseUpgraded, .subscriptionAutoRenewOff,
        .subscriptionBillingRetry, .subscriptionGracePeriod, .payloadNotSet, .payloadTrailingBytes,
        .attributeNotSequence,
        .attributeFieldCount, .attributeTypeNotInteger, .attributeTypeOutOfRange, .attributeVersionNotInteger,
        .attributeValueNotOctetString, .attributeValueConstructed, .attributeMalformed, .recordNotSet, .recordEmpty,
        .recordMalformed, .valueNotAsn1, .valueUnexpectedType, .valueInvalidUtf8, .valueInvalidAscii,
        .valueInvalidDate, .valueInvalidInteger, .valueFlagOutOfRange, .valueEmbeddedNul, .berIndefiniteLength,
        .berConstructedString, .berNonMinimalLength, .berNonMinimalTag, .berNonMinimalInteger, .berUnsortedSet,
        .jwsBase64urlPadding, .jwsBase64urlAlphabet, .jwsBase64urlTrailingBits, .jsonDuplicateKey, .jsonUnsafeInteger,
        .jwsAlgorithmNotEs256, .jwsCriticalHeader, .jwsHeaderUnsupported, .jwsKeyReferenceHeader, .jwsSignatureLength,
        .jwsSignatureDer,
        .jwsSignatureHighS, .jwsKeyNotP256, .jwsX5cMissing, .jwsX5cLength, .jwsClaimType, .jwsLimitExceeded,
        .jwsNestedSignerDiffers, .jwsSignedDateMissing,
        .jwsSignedDateInFuture, .appAppleIdMismatch, .jwsNestedInvalid, .jwsTokenUnreadable, .jwsTokenSurrounded,
        .jwsDateUnusable, .jwsX5cEncoding, .jwsCertificateWeakDigest, .jwsBindingMismatch, .jwsKindMismatch,
        .jwsNotBoundToApp,
        .jwsClaimMisplaced, .jwsNestedUnverified, .jwsDeviceMismatch, .jwsDeviceUnverifiable,
    ]
}
