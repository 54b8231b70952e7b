import ReceiptModel
import ReceiptPKCS7

/// Checks across in-app records: transaction ids are unique, quantities are plausible.
enum RecordChecks {
    /// Quantities a purchase can have.
    static let quantityRange: ClosedRange<Int64> = 1...1000

    static func check(_ payload: ReceiptPayload) -> [Finding] {
        var findings: [Finding] = []
        var seenTransactions: [String: Int] = [:]
        for record in payload.inAppRecords {
            let attributes = record.attributes
            if case .text(let transaction)? = attributes.first(where: { $0.type == 1703 })?.value, !transaction.isEmpty {
                if let first = seenTransactions[transaction] {
                    findings.append(Finding(.error, "duplicate-transaction-id", at: record.offset,
                                            "transaction \(transaction) appears in two records (first at offset \(first)): validators disagree on which counts"))
                } else {
                    seenTransactions[transaction] = record.offset
                }
            }
            if case .integer(let quantity)? = attributes.first(where: { $0.type == 1701 })?.value,
               !quantityRange.contains(quantity) {
                findings.append(Finding(.error, "quantity-out-of-range", at: record.offset,
                                        "quantity is \(quantity), outside \(quantityRange.lowerBound)–\(quantityRange.upperBound)"))
            }
        }
        return findings
    }
}
