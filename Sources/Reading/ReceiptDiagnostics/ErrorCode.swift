/// Every reason rcpt gives for stopping: the one table of error codes, as `FindingCode` is the one table of findings.
/// A read that stops, a key that cannot be loaded, a mutation that cannot be applied, a suite that cannot be run: each
/// carries one of these (`kind`), never a free string. The raw value is the stable kebab-case code output shows; the
/// README's list is generated from `layer` and `summary` and checked against this table.
public enum ErrorCode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    // MARK: input: what holds the document
    case fileUnreadable = "unreadable"
    case inputEmpty = "input-empty"
    case notAReceipt = "not-a-receipt"
    case legacyTransactionReceipt = "legacy-transaction-receipt"
    case base64FollowedByText = "base64-followed-by-text"
    case base64Damaged = "base64-damaged"
    case inputIsJWS = "input-is-jws"
    case inputIsNotification = "input-is-notification"
    case inputIsVerifyReceiptResponse = "input-is-verify-receipt-response"
    case inputAmbiguous = "input-ambiguous"
    case pemUnterminated = "pem-unterminated"
    case pemInvalidBase64 = "pem-invalid-base64"
    case jsonMalformed = "json-malformed"
    case jsonNoReceiptData = "json-no-receipt-data"
    case jsonInvalidBase64 = "json-invalid-base64"
    case jsonDuplicateReceiptData = "json-duplicate-receipt-data"
    case jsonReceiptDataNested = "json-receipt-data-nested"

    // MARK: container
    case pkcs7EmptyInput = "pkcs7-empty-input"
    case pkcs7NotContentInfo = "pkcs7-not-content-info"
    case pkcs7NotSignedData = "pkcs7-not-signed-data"
    case pkcs7MissingElement = "pkcs7-missing-element"
    case pkcs7UnexpectedElement = "pkcs7-unexpected-element"
    case pkcs7InvalidOID = "pkcs7-invalid-oid"

    // MARK: payload
    case payloadEmpty = "payload-empty"
    case payloadNotSet = "payload-not-set"
    case payloadTooLarge = "payload-too-large"

    // MARK: jws
    case jwsPartCount = "jws-part-count"
    case jwsInvalidBase64URL = "jws-invalid-base64url"
    case jwsHeaderNotJSON = "jws-header-not-json"
    case jwsHeaderNotObject = "jws-header-not-object"
    case jwsPayloadNotJSON = "jws-payload-not-json"
    case jwsPayloadNotObject = "jws-payload-not-object"
    case jwsNoneInJSON = "jws-none-in-json"
    case jwsTooManyTokens = "jws-too-many-tokens"
    case jwsTokenInJSONString = "jws-token-in-json-string"
    case jwsTokenAsName = "jws-token-as-name"
    case x5cNotBase64 = "x5c-not-base64"

    // MARK: json: the JSON reader
    case jsonEmpty = "json-empty"
    case jsonTruncated = "json-truncated"
    case jsonUnexpectedByte = "json-unexpected-byte"
    case jsonInvalidString = "json-invalid-string"
    case jsonInvalidNumber = "json-invalid-number"
    case jsonTrailingBytes = "json-trailing-bytes"
    case jsonDepthLimit = "json-depth-limit"
    case jsonNodeLimit = "json-node-limit"
    case jsonTooLarge = "json-too-large"

    // MARK: asn1: the BER/DER reader, at any layer
    case asn1TruncatedHeader = "asn1-truncated-header"
    case asn1LengthExceedsInput = "asn1-length-exceeds-input"
    case asn1LengthTooLarge = "asn1-length-too-large"
    case asn1ReservedLengthOctet = "asn1-reserved-length-octet"
    case asn1TagNumberTooLarge = "asn1-tag-number-too-large"
    case asn1IndefinitePrimitive = "asn1-indefinite-primitive"
    case asn1MissingEndOfContents = "asn1-missing-end-of-contents"
    case asn1InvalidEndOfContents = "asn1-invalid-end-of-contents"
    case asn1UnexpectedEndOfContents = "asn1-unexpected-end-of-contents"
    case asn1DepthLimit = "asn1-depth-limit"
    case asn1NodeLimit = "asn1-node-limit"
    case asn1SegmentLimit = "asn1-segment-limit"
    case asn1InvalidStringSegment = "asn1-invalid-string-segment"
    case asn1NotDER = "asn1-not-der"
    case asn1TrailingBytes = "asn1-trailing-bytes"
    case asn1UnexpectedTag = "asn1-unexpected-tag"
    case asn1InvalidValue = "asn1-invalid-value"

    // MARK: crypto: certificates, keys, signing (OpenSSL)
    case certificateDecodeFailed = "certificate-decode-failed"
    case certificateIssueFailed = "certificate-issue-failed"
    case crlDecodeFailed = "crl-decode-failed"
    case digestFailed = "digest-failed"
    case keyDecodeFailed = "key-decode-failed"
    case keyEncodeFailed = "key-encode-failed"
    case keyGenerationFailed = "key-generation-failed"
    case signingFailed = "signing-failed"
    case signerIdentity = "signer-identity"
    case anchorMissing = "anchor-missing"
    case anchorUnreadable = "anchor-unreadable"

    // MARK: ca: the TEST-ONLY certificate authority
    case caExists = "ca-exists"
    case caUnreadable = "ca-unreadable"
    case caWriteFailed = "ca-write-failed"
    case caNotJWS = "ca-not-jws"

    // MARK: mutation
    case inputUnreadable = "input-unreadable"
    case mutationFailed = "mutation-failed"
    case notApplicable = "not-applicable"
    case notAJWSMutation = "not-a-jws-mutation"
    case notAReceiptMutation = "not-a-receipt-mutation"
    case noIntermediate = "no-intermediate"
    case noSignature = "no-signature"
    case attributeMissing = "attribute-missing"
    case bundleIdNotFound = "bundle-id-not-found"
    case payloadUnreadable = "payload-unreadable"
    case payloadTooSmall = "payload-too-small"
    case containerUnreadable = "container-unreadable"
    case reencodeFailed = "reencode-failed"
    case writeFailed = "write-failed"
    case suiteExists = "suite-exists"
    case baselineInvalid = "baseline-invalid"

    // MARK: spec: `rcpt build` specs
    case specInvalidJSON = "spec-invalid-json"
    case specDuplicateKey = "spec-duplicate-key"
    case specNotObject = "spec-not-object"
    case specInvalidValue = "spec-invalid-value"
    case specInvalidType = "spec-invalid-type"
    case specInvalidHex = "spec-invalid-hex"
    case specUnknownField = "spec-unknown-field"

    // MARK: suite: suites and validators
    case manifestMissing = "manifest-missing"
    case manifestInvalid = "manifest-invalid"
    case manifestNoBaseline = "manifest-no-baseline"
    case validatorFailed = "validator-failed"

    // MARK: status: what `rcpt status` refuses
    case appsMixed = "apps-mixed"
    case noBundleId = "no-bundle-id"

    public var description: String { rawValue }

    /// Where a code belongs, for the README's grouped list.
    package var layer: ErrorLayer {
        switch self {
        case .fileUnreadable, .inputEmpty, .notAReceipt, .legacyTransactionReceipt, .base64FollowedByText,
            .base64Damaged,
            .inputIsJWS,
            .inputIsNotification, .inputIsVerifyReceiptResponse, .inputAmbiguous, .pemUnterminated, .pemInvalidBase64,
            .jsonMalformed, .jsonNoReceiptData, .jsonInvalidBase64, .jsonDuplicateReceiptData, .jsonReceiptDataNested:
            return .input
        case .pkcs7EmptyInput, .pkcs7NotContentInfo, .pkcs7NotSignedData, .pkcs7MissingElement,
            .pkcs7UnexpectedElement, .pkcs7InvalidOID:
            return .container
        case .payloadEmpty, .payloadNotSet, .payloadTooLarge:
            return .payload
        case .jwsPartCount, .jwsInvalidBase64URL, .jwsHeaderNotJSON, .jwsHeaderNotObject, .jwsPayloadNotJSON,
            .jwsPayloadNotObject, .jwsNoneInJSON, .jwsTooManyTokens, .jwsTokenInJSONString, .jwsTokenAsName,
            .x5cNotBase64:
            return .jws
        case .jsonEmpty, .jsonTruncated, .jsonUnexpectedByte, .jsonInvalidString, .jsonInvalidNumber,
            .jsonTrailingBytes, .jsonDepthLimit, .jsonNodeLimit, .jsonTooLarge:
            return .json
        case .asn1TruncatedHeader, .asn1LengthExceedsInput, .asn1LengthTooLarge, .asn1ReservedLengthOctet,
            .asn1TagNumberTooLarge, .asn1IndefinitePrimitive, .asn1MissingEndOfContents, .asn1InvalidEndOfContents,
            .asn1UnexpectedEndOfContents, .asn1DepthLimit, .asn1NodeLimit, .asn1SegmentLimit,
            .asn1InvalidStringSegment, .asn1NotDER, .asn1TrailingBytes, .asn1UnexpectedTag, .asn1InvalidValue:
            return .asn1
        case .certificateDecodeFailed, .certificateIssueFailed, .crlDecodeFailed, .digestFailed, .keyDecodeFailed,
            .keyEncodeFailed, .keyGenerationFailed, .signingFailed, .signerIdentity, .anchorMissing,
            .anchorUnreadable:
            return .crypto
        case .caExists, .caUnreadable, .caWriteFailed, .caNotJWS:
            return .ca
        case .inputUnreadable, .mutationFailed, .notApplicable, .notAJWSMutation, .notAReceiptMutation, .noIntermediate,
            .noSignature,
            .attributeMissing, .bundleIdNotFound, .payloadUnreadable, .payloadTooSmall, .containerUnreadable,
            .reencodeFailed, .writeFailed, .suiteExists, .baselineInvalid:
            return .mutation
        case .specInvalidJSON, .specDuplicateKey, .specNotObject, .specInvalidValue, .specInvalidType,
            .specInvalidHex, .specUnknownField:
            return .spec
        case .manifestMissing, .manifestInvalid, .manifestNoBaseline, .validatorFailed:
            return .suite
        case .appsMixed, .noBundleId:
            return .status
        }
    }

    /// What the code means, in one line (the README's list).
    package var summary: String {
        switch self {
        case .fileUnreadable: return "a file of a batch cannot be read (missing, a directory, no permission)"
        case .inputEmpty: return "the input is empty"
        case .notAReceipt: return "nothing in the input is a receipt or a JWS; the message says what was looked for"
        case .legacyTransactionReceipt: return "an iOS 6 transaction receipt (a NeXTSTEP plist), not a PKCS#7 receipt"
        case .base64FollowedByText: return "base64 followed by text that is not base64"
        case .base64Damaged:
            return "base64 with a character lost or misread (OCR, a copy by hand); the message says where"
        case .inputIsJWS: return "the input is a JWS where a receipt was asked for"
        case .inputIsNotification: return "the input is a server notification where a receipt was asked for"
        case .inputIsVerifyReceiptResponse: return "a verifyReceipt response without `latest_receipt`"
        case .inputAmbiguous:
            return "two documents, or copies readers take differently (a form field or JSON name given twice)"
        case .pemUnterminated: return "a PEM block with no matching -----END line"
        case .pemInvalidBase64: return "a PEM block whose body is not base64"
        case .jsonMalformed:
            return "the input is not JSON, or not a JSON object (the JSON reader's code in the message)"
        case .jsonNoReceiptData: return "JSON without `receipt-data`, `latest_receipt` or a token"
        case .jsonInvalidBase64: return "`receipt-data` is not base64"
        case .jsonDuplicateReceiptData: return "`receipt-data` given twice"
        case .jsonReceiptDataNested: return "`receipt-data` below the top level"
        case .pkcs7EmptyInput: return "the decoded receipt is empty"
        case .pkcs7NotContentInfo: return "not a ContentInfo SEQUENCE"
        case .pkcs7NotSignedData: return "a ContentInfo whose content type is not signedData"
        case .pkcs7MissingElement: return "SignedData or a SignerInfo lacks an element RFC 5652 requires"
        case .pkcs7UnexpectedElement: return "an element of the wrong type where RFC 5652 requires another"
        case .pkcs7InvalidOID: return "an OBJECT IDENTIFIER that is not valid"
        case .payloadEmpty: return "the signed content is empty"
        case .payloadNotSet: return "the signed content is not a SET of attributes"
        case .payloadTooLarge: return "a payload beyond 4 GiB"
        case .jwsPartCount: return "a compact JWS has three parts; five is a JWE"
        case .jwsInvalidBase64URL: return "a part is not base64url"
        case .jwsHeaderNotJSON: return "the header is not JSON"
        case .jwsHeaderNotObject: return "the header is JSON but not an object"
        case .jwsPayloadNotJSON: return "the payload is not JSON"
        case .jwsPayloadNotObject: return "the payload is JSON but not an object"
        case .jwsNoneInJSON: return "JSON holding no readable token"
        case .jwsTooManyTokens: return "a JSON document with more than 64 token positions"
        case .jwsTokenInJSONString: return "a token hidden in JSON inside a string (in a document's findings)"
        case .jwsTokenAsName: return "a token used as a member's name (in a document's findings)"
        case .x5cNotBase64: return "an x5c element that is not base64 of a certificate"
        case .jsonEmpty: return "no JSON value"
        case .jsonTruncated: return "the JSON ends inside a value"
        case .jsonUnexpectedByte: return "a byte JSON does not allow there"
        case .jsonInvalidString: return "a string with a bad escape, a control character or invalid UTF-8"
        case .jsonInvalidNumber: return "a number JSON does not allow"
        case .jsonTrailingBytes: return "bytes after the JSON value"
        case .jsonDepthLimit: return "nesting deeper than 128 levels"
        case .jsonNodeLimit: return "more values than the JSON limits allow"
        case .jsonTooLarge: return "a document larger than the JSON limits allow"
        case .asn1TruncatedHeader: return "a tag or length cut short"
        case .asn1LengthExceedsInput: return "a length beyond the end of the input (a cut receipt)"
        case .asn1LengthTooLarge: return "a length that does not fit the reader"
        case .asn1ReservedLengthOctet: return "the reserved length octet 0xFF"
        case .asn1TagNumberTooLarge: return "a tag number that does not fit the reader"
        case .asn1IndefinitePrimitive: return "an indefinite length on a primitive element"
        case .asn1MissingEndOfContents: return "an indefinite length with no end-of-contents"
        case .asn1InvalidEndOfContents: return "an end-of-contents with content"
        case .asn1UnexpectedEndOfContents: return "an end-of-contents outside an indefinite length"
        case .asn1DepthLimit: return "nesting deeper than ASN1Limits allows"
        case .asn1NodeLimit: return "more elements than ASN1Limits allows"
        case .asn1SegmentLimit: return "more constructed string segments than ASN1Limits allows"
        case .asn1InvalidStringSegment: return "a constructed string segment of another type"
        case .asn1NotDER: return "an encoding DER forbids where DER is required"
        case .asn1TrailingBytes: return "bytes after the outermost element"
        case .asn1UnexpectedTag: return "an element of another type than the structure requires"
        case .asn1InvalidValue: return "a value its type does not allow"
        case .certificateDecodeFailed: return "a certificate that OpenSSL cannot decode"
        case .certificateIssueFailed: return "a TEST-ONLY certificate could not be issued"
        case .crlDecodeFailed: return "a CRL that OpenSSL cannot decode"
        case .digestFailed: return "OpenSSL could not hash (out of memory, no provider; never caused by input)"
        case .keyDecodeFailed: return "a private key that cannot be read"
        case .keyEncodeFailed: return "a private key that cannot be written"
        case .keyGenerationFailed: return "a key could not be generated"
        case .signingFailed: return "OpenSSL could not sign"
        case .signerIdentity: return "the signing certificate cannot be read"
        case .anchorMissing: return "a bundled Apple root certificate could not be decoded (never caused by input)"
        case .anchorUnreadable: return "a `--root` file cannot be read"
        case .caExists: return "`rcpt ca init` would overwrite a CA (use --force)"
        case .caUnreadable: return "a CA directory cannot be read"
        case .caWriteFailed: return "a CA directory cannot be written"
        case .caNotJWS: return "a JWS is re-signed with an EC chain: the CA was made for receipts"
        case .inputUnreadable: return "the input to mutate cannot be read completely"
        case .mutationFailed: return "a mutation could not be applied"
        case .notApplicable: return "the input has nothing this mutation changes"
        case .notAJWSMutation: return "a receipt mutation asked of a JWS"
        case .notAReceiptMutation: return "a JWS mutation asked of a receipt"
        case .noIntermediate: return "the CA has no intermediate for a chain mutation"
        case .noSignature: return "the receipt has no signature to change"
        case .attributeMissing: return "the input has no attribute of the type a mutation changes"
        case .bundleIdNotFound: return "the bundle id is not in the signed content"
        case .payloadUnreadable: return "the payload SET cannot be read for an encoding mutation"
        case .payloadTooSmall: return "the payload SET is too small for an encoding mutation"
        case .containerUnreadable: return "a mutated container cannot be read back"
        case .reencodeFailed: return "a mutated structure cannot be re-encoded"
        case .writeFailed: return "an output file cannot be written"
        case .suiteExists: return "the directory already holds a suite (use --force)"
        case .baselineInvalid:
            return "the CA cannot make a valid baseline of this input, so no verdict a mutation expects would hold"
        case .specInvalidJSON: return "a build spec is not JSON"
        case .specDuplicateKey: return "a build spec names a member twice"
        case .specNotObject: return "a build spec is not a JSON object"
        case .specInvalidValue: return "a build spec value of the wrong shape"
        case .specInvalidType: return "a build spec `unknown` key that is not a type number"
        case .specInvalidHex: return "a build spec `raw` value that is not hex"
        case .specUnknownField: return "a build spec names a field the field table does not know"
        case .manifestMissing: return "a suite directory without manifest.json"
        case .manifestInvalid: return "a manifest.json that is not a rcpt.mutations/1 manifest"
        case .manifestNoBaseline:
            return
                "a suite or findings folder with no must-accept baseline: a validator that rejects everything would pass it"
        case .validatorFailed: return "the validator command cannot be started or followed"
        case .appsMixed:
            return
                "documents of different apps or environments given to `rcpt status` together (--per-app gives a status each)"
        case .noBundleId:
            return "a document whose transactions name no app (no bundleId): `rcpt status` does not count it"
        }
    }
}

/// Where an error code belongs.
package enum ErrorLayer: String, Sendable, Hashable, CaseIterable {
    case input, container, payload, jws, json, asn1, crypto, ca, mutation, spec, suite, status
}
