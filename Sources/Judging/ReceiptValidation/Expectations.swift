import ReceiptASN1
import ReceiptCrypto
import ReceiptModel

/// What the caller expects of a signed document, whatever its kind: the app it belongs to, the device it was issued
/// for, the environment it comes from. Each value is checked where that kind of document carries it: a receipt's
/// bundle id, app version, device hash and environment; a JWS payload's bundleId, appAppleId and environment, where
/// Apple's verifier reads them for that payload kind (`JWSBinding`). A value a kind does not carry is not checked
/// there.
public struct Expectations: Sendable, Hashable {
    public var bundleID: String?
    public var appVersion: String?
    /// The device identifier bytes: 16 for an identifierForVendor UUID, 6 for a Mac's primary MAC address.
    public var deviceID: [UInt8]?
    /// The environment the document must come from: what the endpoint it is sent to would insist on.
    public var environment: ReceiptEnvironment?
    /// A JWS payload's `appAppleId`, as its decimal digits.
    public var appAppleID: String?

    public init(
        bundleID: String? = nil, appVersion: String? = nil, deviceID: [UInt8]? = nil,
        appAppleID: String? = nil, environment: ReceiptEnvironment? = nil
    ) {
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.deviceID = deviceID
        self.environment = environment
        self.appAppleID = appAppleID
    }

    /// What a StoreKit token's `deviceVerification` holds for `deviceID` and `nonce` (Apple: SHA-384 of the ASCII
    /// of the lowercase nonce followed by the lowercase device verification UUID); nil when `deviceID` is not a
    /// UUID (a Mac's MAC address verifies receipts only).
    package static func deviceVerification(nonce: String, deviceID: [UInt8]) -> [UInt8]? {
        guard deviceID.count == 16 else { return nil }
        let uuid = DeviceIdentifier.text(deviceID).lowercased()
        return try? Digest.hash(Array((nonce.lowercased() + uuid).utf8), algorithm: .sha384)
    }

    /// Parses a device id given as a UUID (`8-4-4-4-12` hex) or a MAC address (`aa:bb:cc:dd:ee:ff` or with `-`).
    public static func parseDeviceID(_ text: String) -> [UInt8]? {
        let isUUID =
            text.count == 36
            && text.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
                == [8, 4, 4, 4, 12]
        let isMAC =
            text.count == 17
            && (text.split(separator: ":", omittingEmptySubsequences: false).count == 6
                || text.split(separator: "-", omittingEmptySubsequences: false).count == 6)
        guard isUUID || isMAC else { return nil }
        let hex = text.filter { $0 != "-" && $0 != ":" }
        guard let bytes = ASN1Primitives.bytes(fromHex: hex), bytes.count == (isUUID ? 16 : 6) else { return nil }
        return bytes
    }
}
