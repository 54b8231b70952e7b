import ReceiptModel
import ReceiptPKCS7

/// Checks of the in-app records, in one pass that decodes each record once: unique transaction ids, plausible
/// quantities, expiry after purchase, cancellations, and one subscription state per product at the evaluation time.
enum RecordChecks {
    /// Quantities a purchase can have.
    static let quantityRange: ClosedRange<Int64> = 1...1000

    static func check(_ payload: ReceiptPayload, at time: Int64) -> [Finding] {
        var findings: [Finding] = []
        var seenTransactions: [String: Int] = [:]
        var latest: [String: (expires: ReceiptDate, purchase: ReceiptDate?, offset: Int)] = [:]
        var productOrder: [String] = []
        for record in payload.inAppRecords {
            let attributes = record.attributes  // decoded once per record
            func first(_ type: Int64) -> ReceiptAttribute? { attributes.first { $0.type == type } }
            if case .text(let transaction)? = first(1703)?.value, !transaction.isEmpty {
                if let earlier = seenTransactions[transaction] {
                    findings.append(Finding(.error, "duplicate-transaction-id", at: record.offset,
                                            "transaction \(transaction) appears in two records (first at offset \(earlier)): validators disagree on which counts"))
                } else {
                    seenTransactions[transaction] = record.offset
                }
            }
            if case .integer(let quantity)? = first(1701)?.value, !quantityRange.contains(quantity) {
                findings.append(Finding(.error, "quantity-out-of-range", at: record.offset,
                                        "quantity is \(quantity), outside \(quantityRange.lowerBound)–\(quantityRange.upperBound)"))
            }
            let product = ReceiptChecks.text(first(1702)) ?? "?"
            if case .date(_, let cancelled?)? = first(1712)?.value {
                findings.append(Finding(.info, "purchase-cancelled", at: record.offset,
                                        "\(product) was cancelled (refunded) at \(cancelled.rfc3339UTC)"))
                continue
            }
            guard case .date(_, let expires?)? = first(1708)?.value else { continue }
            var purchase: ReceiptDate?
            if case .date(_, let parsed?)? = first(1704)?.value { purchase = parsed }
            if let purchase, expires.secondsSinceEpoch < purchase.secondsSinceEpoch {
                findings.append(Finding(.error, "expiry-before-purchase", at: record.offset,
                                        "\(product): expires_date \(expires.rfc3339UTC) precedes purchase_date \(purchase.rfc3339UTC)"))
            }
            if let known = latest[product] {
                if expires.secondsSinceEpoch > known.expires.secondsSinceEpoch {
                    latest[product] = (expires, purchase, record.offset)
                }
            } else {
                productOrder.append(product)
                latest[product] = (expires, purchase, record.offset)
            }
        }
        let instant = ReceiptDate.format(epochSeconds: time)
        for product in productOrder {
            guard let state = latest[product] else { continue }
            let started = (state.purchase?.secondsSinceEpoch ?? Int64.min) <= time
            let active = state.expires.secondsSinceEpoch > time && started
            findings.append(Finding(.info, active ? "subscription-active" : "subscription-expired", at: state.offset,
                                    "\(product) \(active ? "is active" : "is not active") at \(instant) (latest expires_date \(state.expires.rfc3339UTC))"))
        }
        return findings
    }
}
