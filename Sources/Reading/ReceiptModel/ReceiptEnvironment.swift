/// Which App Store environment issued a receipt, read from its `receipt_type` (type 0): the word Apple's
/// verifyReceipt response puts in `environment`, and what `rcpt verify --environment` compares.
public enum ReceiptEnvironment: String, Sendable, Hashable, CaseIterable {
    /// `Production`, `ProductionVPP`.
    case production = "Production"
    /// `ProductionSandbox`, `ProductionVPPSandbox`, `Sandbox`.
    case sandbox = "Sandbox"
    /// `Xcode`: StoreKit testing in Xcode, signed by a local certificate.
    case xcode = "Xcode"

    /// The environment a `receipt_type` names, if it is one of the values Apple documents (or Xcode's), exactly:
    /// `Production ` or `Production\0Sandbox` names none (a C-string reader and a prefix test would each read
    /// another environment than the other).
    package init?(receiptType: String) {
        switch receiptType {
        case "Production", "ProductionVPP": self = .production
        case "ProductionSandbox", "ProductionVPPSandbox", "Sandbox": self = .sandbox
        case "Xcode": self = .xcode
        default: return nil
        }
    }
}

extension Receipt {
    /// The environment of the receipt's `receipt_type`, if it has a recognised one.
    package var environmentKind: ReceiptEnvironment? { environment.flatMap(ReceiptEnvironment.init(receiptType:)) }
}
