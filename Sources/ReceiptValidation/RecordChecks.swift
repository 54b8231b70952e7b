import ReceiptModel
import ReceiptPKCS7

/// Checks of the in-app records, in one pass that decodes each record once: unique transaction ids, plausible
/// quantities, expiry after purchase, cancellations, and one subscription state per product at the evaluation time.
enum RecordChecks {
    /// Quantities a purchase can have.
    static let quantityRange: ClosedRange<Int64> = 1...1000

    static func check(_ payload: ReceiptPayload, at time: Int64) -> [Finding] {
        var findings: [Finding] = []
        var latest: [String: (expires: ReceiptDate, purchase: ReceiptDate?, offset: Int)] = [:]
        var productOrder: [String] = []
        // One record at a time, straight from the views: nothing per record outlives its checks.
        payload.withViews { views in
            // Transaction ids are keyed by their bytes in the payload buffer: a receipt of 100 000 records would
            // otherwise hold 100 000 Strings here.
            var seenTransactions: [BufferText: Int] = [:]
            for index in 0..<views.count {
                guard case .record(let set) = views.attribute(at: index).value else { continue }
                var record = RecordFacts(offset: views.map.fileOffset(set.offset))
                views.forEachAttribute(ofRecord: set) { attribute, views in record.note(attribute, views.buffer) }
                func first(_ type: Int64) -> RecordFacts.Field? { record.field(type) }
                if let transaction = record.transaction, !transaction.bytes.isEmpty {
                    if let earlier = seenTransactions[transaction] {
                        findings.append(Finding(.error, "duplicate-transaction-id", at: record.offset,
                                                "transaction \(String(decoding: transaction.bytes, as: UTF8.self)) appears in two records (first at offset \(earlier)): validators disagree on which counts"))
                    } else {
                        seenTransactions[transaction] = record.offset
                    }
                }
                if case .integer(let quantity)? = first(1701)?.value, !quantityRange.contains(quantity) {
                    findings.append(Finding(.error, "quantity-out-of-range", at: record.offset,
                                            "quantity is \(quantity), outside \(quantityRange.lowerBound)–\(quantityRange.upperBound)"))
                }
                let product: String
                if case .text(let name)? = first(1702)?.value { product = name } else { product = "?" }
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

/// The fields of one in-app record that the checks read: the first of each type, text materialised.
private struct RecordFacts {
    struct Field {
        var value: AttributeValue
    }

    /// The types read, each with its slot in `slots` (the transaction id, 1703, is kept apart, in the buffer).
    static let checkedTypes: [Int64] = [1701, 1702, 1704, 1708, 1712]

    let offset: Int
    private var slots: (Field?, Field?, Field?, Field?, Field?) = (nil, nil, nil, nil, nil)
    /// The first transaction id (1703) when it is text, as it stands in the payload buffer.
    private(set) var transaction: BufferText?
    private var sawTransaction = false

    init(offset: Int) {
        self.offset = offset
    }

    func field(_ type: Int64) -> Field? {
        switch type {
        case 1701: return slots.0
        case 1702: return slots.1
        case 1704: return slots.2
        case 1708: return slots.3
        case 1712: return slots.4
        default: return nil
        }
    }

    mutating func note(_ attribute: AttributeView, _ buffer: UnsafeBufferPointer<UInt8>) {
        if attribute.type == 1703, !sawTransaction {
            sawTransaction = true
            if case .text(let range) = attribute.value { transaction = BufferText(bytes: buffer.slice(range)) }
            return
        }
        guard let type = attribute.type, Self.checkedTypes.contains(type), field(type) == nil else { return }
        let value: AttributeValue
        switch attribute.value {
        case .text(let range): value = .text(String(decoding: buffer.slice(range), as: UTF8.self))
        case .date(_, let parsed): value = .date(text: "", parsed: parsed)
        case .integer(let number): value = .integer(number)
        default: value = .raw
        }
        let field = Field(value: value)
        switch type {
        case 1701: slots.0 = field
        case 1702: slots.1 = field
        case 1704: slots.2 = field
        case 1708: slots.3 = field
        default: slots.4 = field
        }
    }
}

/// Text as it stands in a borrowed buffer, hashed and compared by its bytes; valid only while the buffer is.
private struct BufferText: Hashable {
    let bytes: UnsafeBufferPointer<UInt8>

    static func == (lhs: BufferText, rhs: BufferText) -> Bool { lhs.bytes.elementsEqual(rhs.bytes) }

    func hash(into hasher: inout Hasher) { hasher.combine(bytes: UnsafeRawBufferPointer(bytes)) }
}
