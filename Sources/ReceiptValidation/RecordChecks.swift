import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7

/// Checks of the in-app records, in one pass that decodes each record once: unique transaction ids (compared by
/// value, whatever their encoding), plausible quantities, expiry after purchase, no purchase or cancellation after
/// the receipt was created, cancellations, and one subscription state per product at the evaluation time.
enum RecordChecks {
    /// Quantities a purchase can have.
    static let quantityRange: ClosedRange<Int64> = 1...1000

    /// The record dates that cannot lie after the receipt's creation: a receipt cannot record what happened after it
    /// was made. The chain is evaluated at the creation date the signer chose, so this is how a receipt backdated
    /// under a retired key shows itself.
    static let datesBeforeCreation: [(type: Int64, name: String)] = [
        (1704, "purchase_date"), (1706, "original_purchase_date"), (1712, "cancellation_date"),
    ]

    /// `created`: the receipt's creation date, if valid. `isXcode`: an Xcode (StoreKit testing) receipt, whose dates
    /// Xcode has been seen writing in local time with a `Z` suffix, so a date after creation is only a warning.
    static func check(_ payload: ReceiptPayload, at time: Int64, created: ReceiptDate?, isXcode: Bool) -> [Finding] {
        var findings: [Finding] = []
        var latest: [String: (expires: ReceiptDate, purchase: ReceiptDate?, offset: Int, transaction: String?)] = [:]
        var productOrder: [String] = []
        // One record at a time, straight from the views: nothing per record outlives its checks.
        payload.withViews { views in
            // Transaction ids are keyed by their bytes in the payload buffer: a receipt of 100 000 records would
            // otherwise hold 100 000 Strings here.
            var seenTransactions: [TransactionKey: Int] = [:]
            for index in 0..<views.count {
                guard case .record(let set) = views.attribute(at: index).value else { continue }
                var record = RecordFacts(offset: views.map.fileOffset(set.offset))
                views.forEachAttribute(ofRecord: set) { attribute, views in record.note(attribute, views.buffer) }
                func first(_ type: Int64) -> RecordFacts.Field? { record.field(type) }
                if let transaction = record.transaction, !transaction.isEmpty {
                    if let earlier = seenTransactions[transaction] {
                        findings.append(Finding(.duplicateTransactionId, at: record.offset,
                                                "transaction \(transaction.display) appears in two records (first at offset \(earlier)), compared by value whatever its encoding: validators disagree on which counts"))
                    } else {
                        seenTransactions[transaction] = record.offset
                    }
                }
                if let created {
                    for (type, name) in datesBeforeCreation {
                        guard case .date(_, let date?)? = first(type)?.value,
                              date.secondsSinceEpoch > created.secondsSinceEpoch else { continue }
                        findings.append(Finding(.purchaseAfterCreation, severity: isXcode ? .warning : .error,
                                                at: record.offset,
                                                "\(name) \(date.rfc3339UTC) is after receipt_creation_date \(created.rfc3339UTC): a receipt cannot record what happened after it was made\(isXcode ? " (Xcode writes local times with a Z suffix, so this is only a warning for an Xcode receipt)" : "")"))
                    }
                }
                if case .integer(let quantity)? = first(1701)?.value, !quantityRange.contains(quantity) {
                    findings.append(Finding(.quantityOutOfRange, at: record.offset,
                                            "quantity is \(quantity), outside \(quantityRange.lowerBound)–\(quantityRange.upperBound)"))
                }
                let product: String
                if case .text(let name)? = first(1702)?.value { product = name } else { product = "?" }
                let transaction = record.transaction?.display
                if case .date(_, let cancelled?)? = first(1712)?.value {
                    findings.append(Finding(.purchaseCancelled, at: record.offset,
                                            "\(product) was cancelled (refunded) at \(cancelled.rfc3339UTC)",
                                            fields: [FindingField("product_id", product),
                                                     FindingField("cancellation_date", cancelled.rfc3339UTC)]
                                                + (transaction.map { [FindingField("transaction_id", $0)] } ?? [])))
                    continue
                }
                guard case .date(_, let expires?)? = first(1708)?.value else { continue }
                var purchase: ReceiptDate?
                if case .date(_, let parsed?)? = first(1704)?.value { purchase = parsed }
                if let purchase, expires.secondsSinceEpoch < purchase.secondsSinceEpoch {
                    findings.append(Finding(.expiryBeforePurchase, at: record.offset,
                                            "\(product): expires_date \(expires.rfc3339UTC) precedes purchase_date \(purchase.rfc3339UTC)"))
                }
                if let known = latest[product] {
                    if expires.secondsSinceEpoch > known.expires.secondsSinceEpoch {
                        latest[product] = (expires, purchase, record.offset, transaction)
                    }
                } else {
                    productOrder.append(product)
                    latest[product] = (expires, purchase, record.offset, transaction)
                }
            }
        }
        let instant = ReceiptDate.format(epochSeconds: time)
        for product in productOrder {
            guard let state = latest[product] else { continue }
            let started = (state.purchase?.secondsSinceEpoch ?? Int64.min) <= time
            let active = state.expires.secondsSinceEpoch > time && started
            findings.append(Finding(active ? .subscriptionActive : .subscriptionExpired, at: state.offset,
                                    "\(product) \(active ? "is active" : "is not active") at \(instant) (latest expires_date \(state.expires.rfc3339UTC))",
                                    fields: [FindingField("product_id", product),
                                             FindingField("expires_date", state.expires.rfc3339UTC)]
                                        + (state.transaction.map { [FindingField("transaction_id", $0)] } ?? [])))
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
    static let checkedTypes: [Int64] = [1701, 1702, 1704, 1706, 1708, 1712]

    let offset: Int
    private var slots: (Field?, Field?, Field?, Field?, Field?, Field?) = (nil, nil, nil, nil, nil, nil)
    /// The first transaction id (1703), by value.
    private(set) var transaction: TransactionKey?
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
        case 1706: return slots.5
        default: return nil
        }
    }

    mutating func note(_ attribute: AttributeView, _ buffer: UnsafeBufferPointer<UInt8>) {
        if attribute.type == 1703, !sawTransaction {
            sawTransaction = true
            transaction = TransactionKey(attribute, buffer)
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
        case 1712: slots.4 = field
        default: slots.5 = field
        }
    }
}

/// A transaction id by value: the same id as UTF8String, IA5String, INTEGER or OCTET STRING (an inner element, or
/// the bare value bytes) is the same key. Decimal text that fits 64 bits and INTEGERs meet as numbers; other text
/// and octets as their bytes in the payload buffer (valid only while the buffer is).
private enum TransactionKey: Hashable {
    case number(Int64)
    case bytes(BufferText)
    case largeInteger(BufferText)

    init?(_ attribute: AttributeView, _ buffer: UnsafeBufferPointer<UInt8>) {
        switch attribute.value {
        case .integer(let number):
            self = .number(number)
        case .largeInteger(let range):
            self = .largeInteger(BufferText(bytes: buffer.slice(range)))
        case .text(let range), .date(let range, _):
            self = Self.bytesOrNumber(buffer.slice(range))
        case .raw:
            guard let range = attribute.valueRange, range.upperBound <= buffer.count else { return nil }
            var content = buffer.slice(range)
            if attribute.valueTag == .octetString, let inner = Self.primitiveContent(content) { content = inner }
            self = Self.bytesOrNumber(content)
        default:
            return nil
        }
    }

    var isEmpty: Bool {
        if case .bytes(let text) = self { return text.bytes.isEmpty }
        return false
    }

    /// The id for a message.
    var display: String {
        switch self {
        case .number(let number): return String(number)
        case .bytes(let text): return String(decoding: text.bytes, as: UTF8.self)
        case .largeInteger(let text): return "INTEGER 0x" + text.bytes.map { String($0, radix: 16) }.joined()
        }
    }

    /// Canonical decimal text (no sign, no leading zero) that fits 64 bits is a number; anything else stays bytes.
    private static func bytesOrNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> TransactionKey {
        guard !bytes.isEmpty, bytes.count <= 18, bytes[0] != UInt8(ascii: "0") || bytes.count == 1 else {
            return .bytes(BufferText(bytes: bytes))
        }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .bytes(BufferText(bytes: bytes)) }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return .number(value)
    }

    /// The content of one primitive element filling `bytes` (tag and a short or long definite length), if it is one.
    private static func primitiveContent(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard bytes.count >= 2 else { return nil }
        let first = Int(bytes[1])
        var start = 2
        var length = first
        if first >= 0x80 {
            let count = first & 0x7F
            guard count >= 1, count <= 4, bytes.count >= 2 + count else { return nil }
            length = 0
            for index in 0..<count { length = length << 8 | Int(bytes[2 + index]) }
            start = 2 + count
        }
        guard start + length == bytes.count else { return nil }
        return bytes.slice(start..<bytes.count)
    }
}

/// Text as it stands in a borrowed buffer, hashed and compared by its bytes; valid only while the buffer is.
private struct BufferText: Hashable {
    let bytes: UnsafeBufferPointer<UInt8>

    static func == (lhs: BufferText, rhs: BufferText) -> Bool { lhs.bytes.elementsEqual(rhs.bytes) }

    func hash(into hasher: inout Hasher) { hasher.combine(bytes: UnsafeRawBufferPointer(bytes)) }
}
