import ReceiptCrypto
import ReceiptModel
import ReceiptSigning

/// The signing material and expectations every mutation works with: the TEST-ONLY CA that re-signs receipts, a
/// second, "foreign" CA a validator must not trust, and the device the receipts' hashes are computed for.
public struct MutationKit: Sendable {
    public var authority: TestCertificateAuthority
    public var foreign: TestCertificateAuthority
    /// Device identifier bytes the baseline's SHA-1 hash is computed for (pass it to validators as --device-id).
    public var deviceID: [UInt8]

    /// A fixed TEST-ONLY identifierForVendor, so suites are reproducible.
    public static let defaultDeviceID = "0EE7C0DE-0000-4000-8000-00000000BEEF"

    public init(authority: TestCertificateAuthority, foreign: TestCertificateAuthority, deviceID: [UInt8]) {
        self.authority = authority
        self.foreign = foreign
        self.deviceID = deviceID
    }

    /// The kit stored in a directory made by `rcpt ca init` (the foreign CA in its `foreign/` folder).
    public static func load(from directory: String, deviceID: [UInt8]) throws(CryptoError) -> MutationKit {
        let authority = try CertificateAuthorityFiles.load(from: directory)
        let foreign = try CertificateAuthorityFiles.load(
            from: directory + "/" + CertificateAuthorityFiles.foreignFolder)
        return MutationKit(authority: authority, foreign: foreign, deviceID: deviceID)
    }

    /// The device id in the textual form validators take.
    package var deviceIDText: String { DeviceIdentifier.text(deviceID) }
}
