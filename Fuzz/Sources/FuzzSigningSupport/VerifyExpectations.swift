import ReceiptBuilding
import ReceiptModel
import ReceiptMutation
import ReceiptValidation

/// What the `verify` harness expects of a receipt, and what its seeds are made to satisfy: the bundle id and app
/// version of `SyntheticReceipt`'s defaults, the hash computed for the mutation kit's TEST-ONLY device, and a fixed
/// "now" so that every run is reproducible.
public enum VerifyExpectations {
    public static let bundleID = SyntheticReceipt().bundleID
    public static let appVersion = SyntheticReceipt().appVersion
    public static let deviceID = Expectations.parseDeviceID(MutationKit.defaultDeviceID)
    /// 2025-06-15T15:06:40Z: after every seed's creation date, well inside the TEST-ONLY chain's validity.
    public static let now: Int64 = 1_750_000_000

    public static var expectations: Expectations {
        Expectations(bundleID: bundleID, appVersion: appVersion, deviceID: deviceID)
    }
}
