import ReceiptASN1

/// Which App Store environment issued a receipt, read from its `receipt_type` (type 0): the word Apple's
/// verifyReceipt response puts in `environment`, and what `rcpt verify --environment` compares.
public enum ReceiptEnvironment: String, Sendable, Hashable, CaseIterable {
    /// `Production`, `ProductionVPP`.
    case production = "Production"
    /// `ProductionSandbox`, `ProductionVPPSandbox`, `Sandbox`: any type naming the sandbox.
    case sandbox = "Sandbox"
    /// `Xcode`: StoreKit testing in Xcode, signed by a local certificate.
    case xcode = "Xcode"

    /// The environment a `receipt_type` names, if it names one.
    package init?(receiptType: String) {
        // Searched as bytes: `String.contains(String)` goes through the string-processing library, a few per cent
        // of verifying a small receipt.
        if TextCheck.contains(receiptType.utf8, "Sandbox") {
            self = .sandbox
        } else if receiptType.hasPrefix("Production") {
            self = .production
        } else if receiptType == "Xcode" {
            self = .xcode
        } else {
            return nil
        }
    }
}

extension Receipt {
    /// The environment of the receipt's `receipt_type`, if it has a recognised one.
    package var environmentKind: ReceiptEnvironment? { environment.flatMap(ReceiptEnvironment.init(receiptType:)) }
}
