import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptModel

/// Every in-app record (`RecordChecks`) at the status time: as the reading pass read them, when it ran the checks,
/// else over the index. Xcode's records are judged with Xcode's known date quirk.
struct InAppRecordChecks: ReceiptCheck {
    func findings(_ content: ReceiptContent) -> [Finding] {
        let isXcode = content.receipt.environment == "Xcode"
        if var checks = content.streamed?.checks {
            checks.noteUpgrades(in: content.payload.index)
            return checks.findings(at: content.statusAt, isXcode: isXcode)
        }
        return RecordChecks.check(
            content.payload, at: content.statusAt, created: content.receipt.creationDate,
            isXcode: isXcode)
    }
}
