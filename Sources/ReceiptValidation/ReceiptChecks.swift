import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// Checks of the receipt's content: required attributes, the expected app and device, expiry and subscription
/// state at the evaluation time. Every outcome is a finding.
enum ReceiptChecks {
    /// Types an App Store receipt always carries; a receipt without one of them is not one Apple issued.
    static let requiredTypes: [Int64] = [2, 3, 4, 5, 12]

    /// `time`: the chain's evaluation time (the receipt's expiry is judged then); `statusAt`: when subscriptions
    /// are judged active or expired. `streamed`: the record checks the reading pass ran, if it ran them.
    static func check(_ receipt: Receipt, expectations: Expectations, at time: Int64, statusAt: Int64,
                      now: Int64, streamed: StreamedRecordChecks? = nil) -> [Finding]
    {
        guard let payload = receipt.payload, receipt.error == nil else { return [] }
        var findings: [Finding] = []
        for type in requiredTypes where payload.first(type) == nil {
            let name = FieldTable.descriptor(type, in: .receipt)?.name ?? "type_\(type)"
            findings.append(Finding(.missingRequiredAttribute, at: payload.offset,
                                    "the receipt has no \(name) (type \(type))"))
        }
        if let hash = payload.first(5) {
            let length = hash.valueBytes.count
            if length != 20 {
                findings.append(Finding(.hashWrongLength, at: hash.offset,
                                        "sha1_hash is \(length) bytes, not the 20 of a SHA-1 digest"))
            }
        }
        findings += expectedValues(payload, expectations)
        findings += creationDate(receipt, payload, now: now)
        findings += expiry(receipt, payload, at: time)
        let isXcode = receipt.environment == "Xcode"
        if let checks = streamed?.checks {
            findings += checks.findings(at: statusAt, isXcode: isXcode)
        } else {
            findings += RecordChecks.check(payload, at: statusAt, created: receipt.creationDate, isXcode: isXcode)
        }
        return findings
    }

    /// The creation date must be a date, not in the future, and not before the app was first bought.
    static func creationDate(_ receipt: Receipt, _ payload: ReceiptPayload, now: Int64) -> [Finding] {
        guard let attribute = payload.first(12) else { return [] }  // reported as missing-required-attribute
        let created: ReceiptDate
        switch attribute.value {
        case .date(_, let parsed?):
            created = parsed
        case .date(let text, nil) where !text.isEmpty:
            return []  // reported as value-invalid-date
        default:
            return [Finding(.creationDateMissing, at: attribute.offset,
                            "receipt_creation_date holds no date, so nothing can be evaluated at it")]
        }
        var findings: [Finding] = []
        if created.secondsSinceEpoch > now + 86_400 {
            findings.append(Finding(.creationDateInFuture, at: attribute.offset,
                                    "the receipt claims to be created at \(created.rfc3339UTC), after today"))
        }
        if case .date(_, let original?)? = payload.first(18)?.value,
           original.secondsSinceEpoch > created.secondsSinceEpoch {
            findings.append(Finding(.creationBeforeOriginalPurchase, at: attribute.offset,
                                    "the receipt is created at \(created.rfc3339UTC), before the app's original purchase at \(original.rfc3339UTC)"))
        }
        return findings
    }

    static func expectedValues(_ payload: ReceiptPayload, _ expectations: Expectations) -> [Finding] {
        var findings: [Finding] = []
        if let expected = expectations.bundleID {
            findings += compareText(payload, type: 2, expected: expected, code: .bundleIdMismatch)
        }
        if let expected = expectations.appVersion {
            findings += compareText(payload, type: 3, expected: expected, code: .appVersionMismatch)
        }
        if let expected = expectations.environment {
            let typeAttribute = payload.first(0)
            let actual = typeAttribute?.text.flatMap(ReceiptEnvironment.init(receiptType:))
            if actual != expected {
                let said = typeAttribute?.text.map { "\"\($0)\"" } ?? "missing"
                findings.append(Finding(.environmentMismatch, at: typeAttribute?.offset ?? payload.offset,
                                        "the receipt type is \(said), not from the \(expected.rawValue) environment",
                                        fields: [FindingField("environment", actual?.rawValue ?? "unknown"),
                                                 FindingField("expected", expected.rawValue)]))
            }
        }
        if let expected = expectations.appAppleID {
            findings += appAppleID(payload, expected: expected)
        }
        if let device = expectations.deviceID {
            if let opaque = payload.first(4), let bundle = payload.first(2), let hash = payload.first(5),
               let computed = try? Digest.hash([device[...], opaque.valueBytes, bundle.valueBytes],
                                               algorithm: .sha1) {
                if !hash.valueBytes.elementsEqual(computed) {
                    findings.append(Finding(.hashMismatch, at: hash.offset,
                                            "sha1_hash does not equal SHA-1(device id ‖ opaque value ‖ bundle id): the receipt was not issued for this device"))
                }
            } else {
                findings.append(Finding(.hashUnverifiable, at: payload.offset,
                                        "cannot check the device hash: opaque value, bundle id or hash is missing"))
            }
        }
        return findings
    }

    /// app_item_id (type 1) against `--app-apple-id`: Apple sets it to the app's App Store id only for an app the
    /// App Store sold; outside Production (sandbox, Xcode) it is 0, and then it binds nothing, as Apple's JWS
    /// verifier requires appAppleId only in Production.
    static func appAppleID(_ payload: ReceiptPayload, expected: String) -> [Finding] {
        let attribute = payload.first(1)
        let production = payload.first(0)?.text.flatMap(ReceiptEnvironment.init(receiptType:)) == .production
        switch attribute?.value {
        case .integer(let actual)? where actual == 0 && !production:
            return []
        case .integer(let actual)? where String(actual) == expected:
            return []
        case .integer(let actual)?:
            return [Finding(.appAppleIdMismatch, at: attribute?.offset,
                            "app_item_id is \(actual), expected \(expected)")]
        default:
            guard production || attribute != nil else { return [] }
            return [Finding(.appAppleIdMismatch, at: attribute?.offset ?? payload.offset,
                            "app_item_id is \(attribute == nil ? "missing" : "not an integer"), expected \(expected)")]
        }
    }

    static func compareText(_ payload: ReceiptPayload, type: Int64, expected: String, code: FindingCode) -> [Finding] {
        let name = FieldTable.descriptor(type, in: .receipt)?.name ?? "type_\(type)"
        guard let attribute = payload.first(type) else { return [] }  // reported as missing-required-attribute
        guard case .text(let actual) = attribute.value else {
            return [Finding(code, at: attribute.offset, "\(name) is not text, so it cannot be \"\(expected)\"")]
        }
        guard Array(actual.utf8) == Array(expected.utf8) else {
            return [Finding(code, at: attribute.offset, "\(name) is \"\(actual)\", expected \"\(expected)\"")]
        }
        return []
    }

    static func expiry(_ receipt: Receipt, _ payload: ReceiptPayload, at time: Int64) -> [Finding] {
        var findings: [Finding] = []
        let instant = ReceiptDate.format(epochSeconds: time)
        if case .date(_, let parsed?)? = payload.first(21)?.value, parsed.secondsSinceEpoch <= time {
            findings.append(Finding(.receiptExpired, at: payload.first(21)?.offset,
                                    "the receipt expired at \(parsed.rfc3339UTC), before the evaluation time \(instant)"))
        }
        if let created = receipt.creationDate, case .date(_, let expires?)? = payload.first(21)?.value,
           expires.secondsSinceEpoch < created.secondsSinceEpoch {
            findings.append(Finding(.expirationBeforeCreation, at: payload.first(21)?.offset,
                                    "expiration_date \(expires.rfc3339UTC) precedes receipt_creation_date \(created.rfc3339UTC)"))
        }
        return findings
    }

    static func text(_ attribute: Attribute?) -> String? {
        if case .text(let value)? = attribute?.value { return value }
        return nil
    }
}
