import ReceiptDiagnostics
import ReceiptModel
import ReceiptValidation

/// A small Swift receipt validator written for the purpose (TEST FIXTURE), with one planted bug: it verifies the
/// signature and chain and checks the bundle id, but when the bundle id attribute occurs more than once it takes the
/// LAST copy, and it does not count the duplicate as a reason to refuse — the classic "last wins" reader.
struct PlantedBugValidator {
    let anchors: TrustAnchors
    let bundleID: String
    let appVersion: String
    let deviceID: [UInt8]

    func accepts(_ bytes: [UInt8]) -> Bool {
        let options = InspectionOptions(
            anchors: anchors, time: .signed,
            expectations: Expectations(appVersion: appVersion, deviceID: deviceID))
        let inspection = ReceiptInspector.inspect(bytes, options: options)
        guard inspection.readError == nil, let receipt = inspection.receipt else { return false }
        // Every error but the duplicate (the bug: a duplicated bundle id is "fine").
        let errors = inspection.findings.filter { $0.severity == .error && $0.code != "duplicate-attribute" }
        guard errors.isEmpty else { return false }
        let bundles = receipt.attributes.filter { $0.type == 2 }
        return bundles.last?.text == bundleID
    }
}
