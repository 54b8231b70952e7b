import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel

/// The app, device and environment the caller expects (`Expectations`), where a receipt carries each: bundle id,
/// application version, receipt type, app item id, and the device hash over the device id.
struct ExpectedValues: ReceiptCheck {
    func findings(_ content: ReceiptContent) -> [Finding] {
        Self.expectedValues(content.payload, content.expectations)
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
            let typeAttribute = payload.first(.receiptType)
            let actual = typeAttribute?.text.flatMap(ReceiptEnvironment.init(receiptType:))
            if actual != expected {
                let said = typeAttribute?.text.map { "\"\($0)\"" } ?? "missing"
                findings.append(
                    Finding(
                        .environmentMismatch, at: typeAttribute?.offset ?? payload.offset,
                        "the receipt type is \(said), not from the \(expected.rawValue) environment",
                        fields: [
                            FindingField("environment", actual?.rawValue ?? "unknown"),
                            FindingField("expected", expected.rawValue),
                        ]))
            }
        }
        if let expected = expectations.appAppleID {
            findings += appAppleID(payload, expected: expected)
        }
        if let device = expectations.deviceID {
            if let opaque = payload.first(.opaqueValue), let bundle = payload.first(.bundleID),
                let hash = payload.first(.sha1Hash),
                let computed = try? Digest.hash(
                    [device[...], opaque.valueBytes, bundle.valueBytes],
                    algorithm: .sha1)
            {
                if !hash.valueBytes.elementsEqual(computed) {
                    findings.append(
                        Finding(
                            .hashMismatch, at: hash.offset,
                            "sha1_hash does not equal SHA-1(device id ‖ opaque value ‖ bundle id): the receipt was not issued for this device"
                        ))
                }
            } else {
                findings.append(
                    Finding(
                        .hashUnverifiable, at: payload.offset,
                        "cannot check the device hash: opaque value, bundle id or hash is missing"))
            }
        }
        return findings
    }

    /// app_item_id (type 1) against `--app-apple-id`: Apple sets it to the app's App Store id only for an app the
    /// App Store sold; outside Production (sandbox, Xcode) it is 0, and then it binds nothing, as Apple's JWS
    /// verifier requires appAppleId only in Production.
    /// What `payload` can be bound to, as `expectedValues` checks it: its bundle id, version and receipt type; its
    /// app item id in Production, or wherever it is not 0 (Sandbox and Xcode receipts carry 0, which binds nothing);
    /// the device when the hash and what it is computed over are there.
    static func carried(_ payload: ReceiptPayload) -> Set<BindingScope.Part> {
        var carried: Set<BindingScope.Part> = [.bundleID, .appVersion, .environment]
        let production = payload.first(.receiptType)?.text.flatMap(ReceiptEnvironment.init(receiptType:)) == .production
        switch payload.first(.appItemID)?.value {
        case .integer(let actual)? where actual == 0 && !production: break
        case nil where !production: break
        default: carried.insert(.appAppleID)
        }
        if payload.first(.opaqueValue) != nil, payload.first(.bundleID) != nil, payload.first(.sha1Hash) != nil {
            carried.insert(.device)
        }
        return carried
    }

    static func appAppleID(_ payload: ReceiptPayload, expected: String) -> [Finding] {
        let attribute = payload.first(.appItemID)
        let production = payload.first(.receiptType)?.text.flatMap(ReceiptEnvironment.init(receiptType:)) == .production
        switch attribute?.value {
        case .integer(let actual)? where actual == 0 && !production:
            return []
        case .integer(let actual)? where String(actual) == expected:
            return []
        case .integer(let actual)?:
            return [
                Finding(
                    .appAppleIdMismatch, at: attribute?.offset,
                    "app_item_id is \(actual), expected \(expected)")
            ]
        default:
            guard production || attribute != nil else { return [] }
            return [
                Finding(
                    .appAppleIdMismatch, at: attribute?.offset ?? payload.offset,
                    "app_item_id is \(attribute == nil ? "missing" : "not an integer"), expected \(expected)")
            ]
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
}
