/// What each finding code means: its default severity, its layer and its one line for people (docs/findings.md's finding
/// list is generated from these).
extension FindingCode {
    /// The severity a finding of this kind has unless its site says otherwise (documented in `summary`).
    public var severity: Severity {
        switch self {
        case .bindingRequired, .trailingBytes, .pkcs7ExtraContent, .containerLimitExceeded, .certificateUndecodable,
            .crlUndecodable, .contentTypeNotData, .contentDetached, .noSigner, .multipleSigners,
            .signerCertificateMissing, .signerCertificateAmbiguous, .signatureUnsupportedDigest,
            .digestAlgorithmNotDeclared,
            .signatureAlgorithmMismatch, .signatureAlgorithmKeyMismatch, .signatureAlgorithmUnsupported,
            .signedAttributesNotDer, .signedAttributeDuplicate, .signedAttributeValueCount,
            .contentTypeAttributeMissing, .contentTypeAttributeMismatch, .messageDigestMismatch, .signatureInvalid,
            .signatureUnsupported, .chainInvalid, .chainShapeUnexpected, .leafMarkerMissing, .intermediateMarkerMissing,
            .storekitSignerOnAppStoreReceipt, .signerIsCa, .signerKeyUsage, .missingRequiredAttribute,
            .duplicateAttribute, .hashWrongLength, .hashMismatch, .hashUnverifiable, .bundleIdMismatch,
            .responseDecodingMismatch,
            .environmentMismatch, .appVersionMismatch, .creationDateMissing, .creationDateInFuture,
            .creationBeforeOriginalPurchase, .receiptExpired, .expirationBeforeCreation, .purchaseAfterCreation,
            .duplicateTransactionId, .quantityOutOfRange, .expiryBeforePurchase, .payloadNotSet, .attributeNotSequence,
            .attributeFieldCount, .attributeTypeNotInteger, .attributeTypeOutOfRange, .attributeVersionNotInteger,
            .attributeValueNotOctetString, .attributeMalformed, .recordNotSet, .recordMalformed, .valueNotAsn1,
            .valueInvalidUtf8, .valueInvalidAscii, .valueInvalidDate, .valueInvalidInteger, .valueFlagOutOfRange,
            .valueEmbeddedNul, .jwsBase64urlAlphabet, .jwsBase64urlTrailingBits, .jsonDuplicateKey,
            .jwsAlgorithmNotEs256, .jwsCriticalHeader,
            .jwsHeaderUnsupported, .jwsSignatureLength, .jwsSignatureDer, .jwsKeyNotP256, .jwsX5cMissing, .jwsX5cLength,
            .jwsX5cOrder, .jwsClaimType, .jwsLimitExceeded, .jwsSignedDateInFuture, .appAppleIdMismatch,
            .jwsNestedInvalid,
            .jwsTokenUnreadable, .jwsDateUnusable, .jwsX5cEncoding, .jwsCertificateWeakDigest, .jwsBindingMismatch,
            .jwsKindMismatch, .jwsNestedUnverified, .jwsDeviceMismatch, .jwsDeviceUnverifiable, .payloadTrailingBytes:
            return .error
        case .pkcs7ExtraAlgorithmFields, .signerExtendedKeyUsage, .noCreationDate,
            .attributeValueConstructed, .recordEmpty, .valueUnexpectedType, .berNonMinimalInteger, .jwsBase64urlPadding,
            .jsonUnsafeInteger, .jwsKeyReferenceHeader, .jwsSignatureHighS,
            .jwsNestedSignerDiffers, .jwsSignedDateMissing, .jwsTokenSurrounded, .jwsNotBoundToApp, .jwsClaimMisplaced,
            .jwsClaimValueUndocumented:
            return .warning
        case .inputRepaired, .subscriptionActive, .subscriptionExpired, .subscriptionNotStarted, .purchaseCancelled,
            .purchaseFamilyShared,
            .purchaseUpgraded, .subscriptionAutoRenewOff, .subscriptionBillingRetry, .subscriptionGracePeriod,
            .berIndefiniteLength, .berConstructedString, .berNonMinimalLength, .berNonMinimalTag, .berUnsortedSet:
            return .info
        }
    }

    /// Where in the document a finding of this kind belongs.
    package var layer: FindingLayer {
        switch self {
        case .inputRepaired:
            return .input
        case .bindingRequired, .missingRequiredAttribute, .duplicateAttribute, .hashWrongLength, .hashMismatch,
            .hashUnverifiable, .bundleIdMismatch, .responseDecodingMismatch, .environmentMismatch, .appVersionMismatch,
            .creationDateMissing,
            .creationDateInFuture, .creationBeforeOriginalPurchase, .receiptExpired, .expirationBeforeCreation,
            .purchaseAfterCreation, .duplicateTransactionId, .quantityOutOfRange, .expiryBeforePurchase,
            .subscriptionActive, .subscriptionExpired, .subscriptionNotStarted, .purchaseCancelled,
            .purchaseFamilyShared, .purchaseUpgraded,
            .subscriptionAutoRenewOff, .subscriptionBillingRetry, .subscriptionGracePeriod, .jwsSignedDateMissing,
            .jwsSignedDateInFuture, .appAppleIdMismatch, .jwsNestedInvalid, .jwsBindingMismatch, .jwsKindMismatch,
            .jwsNotBoundToApp, .jwsClaimMisplaced, .jwsNestedUnverified, .jwsDeviceMismatch, .jwsDeviceUnverifiable:
            return .content
        case .trailingBytes, .pkcs7ExtraContent, .pkcs7ExtraAlgorithmFields, .containerLimitExceeded,
            .certificateUndecodable, .crlUndecodable, .contentTypeNotData, .contentDetached, .jwsBase64urlPadding,
            .jwsBase64urlAlphabet, .jwsBase64urlTrailingBits, .jwsLimitExceeded, .jwsTokenUnreadable:
            return .container
        case .noSigner, .multipleSigners, .signerCertificateMissing, .signerCertificateAmbiguous,
            .signatureUnsupportedDigest,
            .digestAlgorithmNotDeclared, .signatureAlgorithmMismatch, .signatureAlgorithmKeyMismatch,
            .signatureAlgorithmUnsupported, .signedAttributesNotDer, .signedAttributeDuplicate,
            .signedAttributeValueCount, .contentTypeAttributeMissing, .contentTypeAttributeMismatch,
            .messageDigestMismatch, .signatureInvalid, .signatureUnsupported, .jwsAlgorithmNotEs256, .jwsCriticalHeader,
            .jwsHeaderUnsupported, .jwsKeyReferenceHeader, .jwsSignatureLength, .jwsSignatureDer, .jwsSignatureHighS,
            .jwsKeyNotP256:
            return .signature
        case .chainInvalid, .chainShapeUnexpected, .leafMarkerMissing, .intermediateMarkerMissing,
            .storekitSignerOnAppStoreReceipt, .signerIsCa, .signerKeyUsage, .signerExtendedKeyUsage, .noCreationDate,
            .jwsX5cMissing, .jwsX5cLength, .jwsX5cOrder, .jwsNestedSignerDiffers, .jwsX5cEncoding,
            .jwsCertificateWeakDigest:
            return .chain
        case .payloadNotSet, .payloadTrailingBytes, .attributeNotSequence, .attributeFieldCount,
            .attributeTypeNotInteger, .attributeTypeOutOfRange, .attributeVersionNotInteger,
            .attributeValueNotOctetString, .attributeValueConstructed, .attributeMalformed, .recordNotSet, .recordEmpty,
            .recordMalformed, .jsonDuplicateKey, .jsonUnsafeInteger, .jwsClaimType, .jwsClaimValueUndocumented,
            .jwsDateUnusable:
            return .payload
        case .valueNotAsn1, .valueUnexpectedType, .valueInvalidUtf8, .valueInvalidAscii, .valueInvalidDate,
            .valueInvalidInteger, .valueFlagOutOfRange, .valueEmbeddedNul:
            return .values
        case .berIndefiniteLength, .berConstructedString, .berNonMinimalLength, .berNonMinimalTag,
            .berNonMinimalInteger, .berUnsortedSet, .jwsTokenSurrounded:
            return .encoding
        }
    }

    /// What a finding of this kind means, in one line.
    package var summary: String {
        switch self {
        case .inputRepaired:
            return
                "pasted text was repaired before decoding (quotes, byte order mark, percent-escapes, spaces that were +)"
        case .bindingRequired:
            return
                "--require-binding: no bundle id (in Production, no app Apple id) or environment was expected, so any app's genuine document, or this app's Sandbox one, would pass"
        case .trailingBytes:
            return "bytes follow the ContentInfo, outside the signature"
        case .pkcs7ExtraContent:
            return "an element where RFC 5652 has no room (an unsigned addition another parser may read)"
        case .pkcs7ExtraAlgorithmFields:
            return "an AlgorithmIdentifier with more than two fields"
        case .containerLimitExceeded:
            return "more signers, certificates, CRLs, digest algorithms or attributes than ContainerLimits allows"
        case .certificateUndecodable:
            return "an entry of certificates is not an X.509 certificate"
        case .crlUndecodable:
            return "an entry of crls is not an X.509 CertificateList"
        case .contentTypeNotData:
            return "the eContentType is not pkcs7-data"
        case .contentDetached:
            return "the signature is detached: no content"
        case .noSigner:
            return "SignedData has no SignerInfo"
        case .multipleSigners:
            return "more than one SignerInfo: validators disagree on which counts"
        case .signerCertificateMissing:
            return "the SignerInfo names a certificate the receipt does not carry"
        case .signerCertificateAmbiguous:
            return "the SignerInfo's issuer and serial number name more than one carried certificate"
        case .signatureUnsupportedDigest:
            return "the digest algorithm is not SHA-1 or SHA-2"
        case .digestAlgorithmNotDeclared:
            return "the signer's digest algorithm is not in SignedData.digestAlgorithms"
        case .signatureAlgorithmMismatch:
            return "the signature algorithm names another digest than the digest algorithm"
        case .signatureAlgorithmKeyMismatch:
            return "the signature algorithm is for another kind of key than the signer's"
        case .signatureAlgorithmUnsupported:
            return "the signature algorithm is not RSA PKCS#1 v1.5 or ECDSA with SHA-1 or SHA-2"
        case .signedAttributesNotDer:
            return "the signed attributes are not DER"
        case .signedAttributeDuplicate:
            return "a signed attribute type occurs more than once"
        case .signedAttributeValueCount:
            return "contentType or messageDigest without exactly one value"
        case .contentTypeAttributeMissing:
            return "signed attributes without a contentType attribute"
        case .contentTypeAttributeMismatch:
            return "the contentType attribute differs from the eContentType"
        case .messageDigestMismatch:
            return "messageDigest is missing or is not the content's digest"
        case .signatureInvalid:
            return "the signature does not verify"
        case .signatureUnsupported:
            return "the signature cannot be verified with this key"
        case .chainInvalid:
            return "the signer does not chain to a trusted root at the evaluation time"
        case .chainShapeUnexpected:
            return "the verified path is not leaf, intermediate, root (or the signer is the Apple root)"
        case .leafMarkerMissing:
            return "the signer lacks Apple's receipt-signing marker extension"
        case .intermediateMarkerMissing:
            return "the path's intermediate lacks Apple's WWDR marker extension"
        case .storekitSignerOnAppStoreReceipt:
            return
                "a StoreKit-style signer, or a path ending at a StoreKit-style root, on a document whose environment is not Xcode"
        case .signerIsCa:
            return "the signer certificate is a CA"
        case .signerKeyUsage:
            return "the signer's keyUsage does not allow digitalSignature"
        case .signerExtendedKeyUsage:
            return "the signer carries an extendedKeyUsage (Apple's do not)"
        case .noCreationDate:
            return "no valid creation date: the chain is evaluated now"
        case .missingRequiredAttribute:
            return "a required attribute (bundle id, version, opaque value, hash, creation date) is missing"
        case .duplicateAttribute:
            return "an attribute type occurs twice (a warning for undocumented types)"
        case .hashWrongLength:
            return "sha1_hash is not 20 bytes"
        case .hashMismatch:
            return "sha1_hash is not SHA-1(device id, opaque value, bundle id)"
        case .hashUnverifiable:
            return "the device hash cannot be checked: a part is missing"
        case .bundleIdMismatch:
            return "the bundle id is not the expected one"
        case .environmentMismatch:
            return "the receipt type is not from the environment --environment names"
        case .appVersionMismatch:
            return "the app version is not the expected one"
        case .creationDateMissing:
            return "receipt_creation_date holds no date"
        case .creationDateInFuture:
            return "the creation date is more than a day in the future"
        case .creationBeforeOriginalPurchase:
            return "the receipt is created before the app's original purchase"
        case .receiptExpired:
            return "the receipt's expiration date is before the evaluation time"
        case .expirationBeforeCreation:
            return "the expiration date precedes the creation date"
        case .purchaseAfterCreation:
            return "an in-app date lies after the receipt's creation (a warning for Xcode receipts)"
        case .duplicateTransactionId:
            return "two in-app records carry the same transaction id"
        case .quantityOutOfRange:
            return "an in-app quantity outside 1 to 1000"
        case .expiryBeforePurchase:
            return "a subscription expires before its purchase"
        case .subscriptionActive:
            return "a subscription product is active at the evaluation time"
        case .subscriptionExpired:
            return "a subscription product is not active at the evaluation time"
        case .subscriptionNotStarted:
            return
                "a subscription's period starts after the evaluation time (purchased later: Apple signs a renewal seconds before its purchaseDate at times)"
        case .purchaseCancelled:
            return
                "an in-app purchase was cancelled or revoked (refunded, or no longer shared): a receipt's cancellation_date, a transaction's revocationDate"
        case .purchaseFamilyShared:
            return "a purchase a family member shares (inAppOwnershipType FAMILY_SHARED)"
        case .purchaseUpgraded:
            return
                "a subscription upgraded to another of its group (isUpgraded): this transaction no longer grants service"
        case .subscriptionAutoRenewOff:
            return "auto-renew is off: the subscription ends at its expiry"
        case .subscriptionBillingRetry:
            return "the App Store is retrying to bill a subscription that failed to renew (isInBillingRetryPeriod)"
        case .subscriptionGracePeriod:
            return
                "a subscription that failed to renew keeps service until its grace period ends (gracePeriodExpiresDate)"
        case .payloadNotSet:
            return "the payload is not a SET"
        case .payloadTrailingBytes:
            return "bytes follow the payload SET inside the signed content: readers that read on disagree"
        case .attributeNotSequence:
            return "an attribute is not a SEQUENCE"
        case .attributeFieldCount:
            return "an attribute does not have three fields"
        case .attributeTypeNotInteger:
            return "an attribute type is not an INTEGER"
        case .attributeTypeOutOfRange:
            return "an attribute type does not fit 64 bits"
        case .attributeVersionNotInteger:
            return "an attribute version is not an INTEGER"
        case .attributeValueNotOctetString:
            return "an attribute value is not an OCTET STRING"
        case .attributeValueConstructed:
            return "an attribute value is a constructed OCTET STRING"
        case .attributeMalformed:
            return "an attribute cannot be read"
        case .recordNotSet:
            return "an in-app record is not a SET"
        case .recordEmpty:
            return "an in-app record has no attributes"
        case .recordMalformed:
            return "an in-app record cannot be read"
        case .valueNotAsn1:
            return "a value that should hold one ASN.1 element does not"
        case .valueUnexpectedType:
            return "a value of another ASN.1 type than the field table expects"
        case .valueInvalidUtf8:
            return "a UTF8String that is not UTF-8"
        case .valueInvalidAscii:
            return "an IA5String (or similar) with bytes above 0x7F"
        case .valueInvalidDate:
            return "a date field that is not an RFC 3339 date"
        case .valueInvalidInteger:
            return "an INTEGER with no content octets"
        case .valueFlagOutOfRange:
            return "a flag that is not 0 or 1"
        case .valueEmbeddedNul:
            return "text with a NUL byte (C-string validators see a shorter value)"
        case .berIndefiniteLength:
            return "elements with an indefinite length (not DER)"
        case .berConstructedString:
            return "constructed strings (not DER)"
        case .berNonMinimalLength:
            return "non-minimal lengths (not DER)"
        case .berNonMinimalTag:
            return "non-minimal tags (not DER)"
        case .berNonMinimalInteger:
            return "an INTEGER with redundant leading octets"
        case .berUnsortedSet:
            return "a SET OF not in DER order"
        case .jwsBase64urlPadding:
            return
                "a JWS part is padded with '=': RFC 7515 base64url has no padding; padding base64 does not write is refused by Apple's libraries (an error)"
        case .jwsBase64urlAlphabet:
            return "a JWS part uses '+' or '/' (standard base64): readers disagree on whether it is the same token"
        case .jwsBase64urlTrailingBits:
            return
                "a JWS part's last character carries bits decoding drops: a second spelling of the same bytes, refused by Apple's libraries"
        case .jsonDuplicateKey:
            return
                "a JSON object names a member twice: JSON.parse, Python and Foundation take the last copy, others the first"
        case .jsonUnsafeInteger:
            return "a JSON integer beyond 2^53: JavaScript (and any reader into a double) silently rounds it"
        case .jwsAlgorithmNotEs256:
            return
                "the header's alg is not ES256, the only algorithm Apple signs with (none, HS256, RS256 … are refused)"
        case .jwsCriticalHeader:
            return
                "the header has crit: extensions the reader must understand, and rcpt (like Apple's libraries) knows none"
        case .jwsHeaderUnsupported:
            return
                "the header has b64, zip or enc: members that change how the payload is read, which Apple never sends"
        case .jwsKeyReferenceHeader:
            return "the header names a key elsewhere (jku, x5u, jwk; kid as info): never followed, only x5c is used"
        case .jwsSignatureLength:
            return "an ES256 signature is 64 octets (r ‖ s); this one is not"
        case .jwsSignatureDer:
            return
                "the signature is a DER ECDSA-Sig-Value, not JOSE's raw r ‖ s (RFC 7518 §3.4): refused, as JOSE readers do"
        case .jwsSignatureHighS:
            return
                "the ECDSA signature's s is above n/2: valid, but a second signature (n − s) of the same token exists"
        case .jwsKeyNotP256:
            return "the signing certificate's key is not an EC P-256 key, as ES256 needs"
        case .jwsX5cMissing:
            return "the header has no x5c certificate chain to verify the signature with"
        case .jwsX5cLength:
            return
                "x5c does not hold exactly leaf, intermediate and root, as Apple's chains do (Apple's libraries refuse others)"
        case .jwsX5cOrder:
            return
                "x5c[1] is not the leaf's issuer: the chain verifies only through a later certificate (RFC 7515 orders x5c; Apple's libraries refuse it)"
        case .jwsClaimType:
            return "a claim Apple defines has another JSON type (a transactionId as a number, a quantity as a string …)"
        case .jwsClaimValueUndocumented:
            return
                "an environment, type, ownership or reason Apple does not document (\"production\"): readers disagree on it"
        case .jwsLimitExceeded:
            return
                "JWS nested deeper than three levels, or more than 64 in one payload: the ones beyond are not verified"
        case .jwsNestedSignerDiffers:
            return "a nested JWS is signed by another certificate than the token that carries it"
        case .jwsSignedDateMissing:
            return "the payload has no signedDate: the chain is evaluated now (or at --at)"
        case .jwsSignedDateInFuture:
            return "signedDate is later than the time of the check"
        case .appAppleIdMismatch:
            return
                "the app's App Store id is not the expected one (a JWS payload's appAppleId, a Production receipt's app_item_id)"
        case .jwsNestedInvalid:
            return "a JWS nested in the payload is not valid (its own findings say why)"
        case .jwsTokenUnreadable:
            return
                "a token position (a signed… member, or a string a reader would take for a token) holds no compact JWS: a lenient reader may still take an unverified token from it"
        case .jwsTokenSurrounded:
            return
                "a token in JSON has characters around it (white space, quotes, a Bearer prefix, invisible marks): stripped as lenient readers do, then verified; Apple sends bare tokens"
        case .jwsDateUnusable:
            return
                "a millisecond date claim is present but no usable date (beyond 2^53, too long, not a number; a signing time before 1970): never read as absent"
        case .jwsX5cEncoding:
            return
                "an x5c element is not standard base64 (padded, no line breaks) of a DER certificate, as RFC 7515 §4.1.6 and Apple's libraries require"
        case .jwsCertificateWeakDigest:
            return
                "a certificate of the JWS chain is signed with SHA-1 or MD5; Apple's JWS chains are signed with ECDSA and SHA-384"
        case .responseDecodingMismatch:
            return
                "what a verifyReceipt response says unsigned beside its signed latest_receipt (its receipt object's bundle id, app item id or receipt type, any copy, any case; its environment; a status other than 0 or 21006) contradicts it: put together around another receipt"
        case .jwsBindingMismatch:
            return
                "tokens of one input disagree on the app (bundleId, appAppleId) or environment: a nested token and the token that carries it, or the tokens and members of one document"
        case .jwsKindMismatch:
            return
                "a token of one kind where Apple's documents hold another (a notification in signedTransactions): Apple's verifier refuses it there"
        case .jwsNotBoundToApp:
            return
                "renewal info carries no bundleId: on its own it cannot be bound to the expected app (a token carrying it binds it)"
        case .jwsClaimMisplaced:
            return
                "a notification has bundleId, appAppleId or environment at its top level: Apple reads them from data (summary, externalPurchaseToken, appData), and so does rcpt"
        case .jwsNestedUnverified:
            return
                "a nested JWS was read but not verified, because the token carrying it is not trusted: work is bounded by trust"
        case .jwsDeviceMismatch:
            return
                "deviceVerification is not SHA-384 of the nonce and the expected device: the token was issued to another device"
        case .jwsDeviceUnverifiable:
            return
                "--device-id is given, but the token carries no deviceVerification (the App Store Server API's do not) or the id is not a UUID"
        }
    }
}
