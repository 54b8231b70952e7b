import ReceiptASN1
import ReceiptModel

/// What the caller expects of a receipt: the app it belongs to and the device it was issued for.
public struct ReceiptExpectations: Sendable, Hashable {
    public var bundleID: String?
    public var appVersion: String?
    /// The device identifier bytes: 16 for an identifierForVendor UUID, 6 for a Mac's primary MAC address.
    public var deviceID: [UInt8]?
    /// The environment the receipt must come from: what the endpoint a receipt is sent to would insist on.
    public var environment: ReceiptEnvironment?

    public init(bundleID: String? = nil, appVersion: String? = nil, deviceID: [UInt8]? = nil,
                environment: ReceiptEnvironment? = nil) {
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.deviceID = deviceID
        self.environment = environment
    }

    /// Parses a device id given as a UUID (`8-4-4-4-12` hex) or a MAC address (`aa:bb:cc:dd:ee:ff` or with `-`).
    public static func parseDeviceID(_ text: String) -> [UInt8]? {
        let isUUID = text.count == 36 && text.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
            == [8, 4, 4, 4, 12]
        let isMAC = text.count == 17 && (text.split(separator: ":", omittingEmptySubsequences: false).count == 6
            || text.split(separator: "-", omittingEmptySubsequences: false).count == 6)
        guard isUUID || isMAC else { return nil }
        let hex = text.filter { $0 != "-" && $0 != ":" }
        guard let bytes = ASN1Primitives.bytes(fromHex: hex), bytes.count == (isUUID ? 16 : 6) else { return nil }
        return bytes
    }
}
