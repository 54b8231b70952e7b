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
        // Transaction ids are keyed by their bytes in the payload: a receipt of 100 000 records would otherwise
        // hold 100 000 Strings here.
        var seenTransactions: [TransactionKey: Int] = [:]
        for record in payload.inAppRecords {
            let facts = RecordFacts(record)
            if let transaction = facts.transaction, !transaction.isEmpty {
                if let earlier = seenTransactions[transaction] {
                    findings.append(Finding(.duplicateTransactionId, at: facts.offset,
                                            "transaction \(transaction.display) appears in two records (first at offset \(earlier)), compared by value whatever its encoding: validators disagree on which counts"))
                } else {
                    seenTransactions[transaction] = facts.offset
                }
            }
            if let created {
                for (type, name) in datesBeforeCreation {
                    guard let date = facts.date(type), date.secondsSinceEpoch > created.secondsSinceEpoch else {
                        continue
                    }
                    findings.append(Finding(.purchaseAfterCreation, severity: isXcode ? .warning : .error,
                                            at: facts.offset,
                                            "\(name) \(date.rfc3339UTC) is after receipt_creation_date \(created.rfc3339UTC): a receipt cannot record what happened after it was made\(isXcode ? " (Xcode writes local times with a Z suffix, so this is only a warning for an Xcode receipt)" : "")"))
                }
            }
            if let quantity = facts.first(1701)?.integer, !quantityRange.contains(quantity) {
                findings.append(Finding(.quantityOutOfRange, at: facts.offset,
                                        "quantity is \(quantity), outside \(quantityRange.lowerBound)–\(quantityRange.upperBound)"))
            }
            let cancelled = facts.date(1712)
            let expires = facts.date(1708)
            guard cancelled != nil || expires != nil else { continue }
            let productAttribute = facts.first(1702)
            let product = productAttribute?.kind == .text ? productAttribute?.text ?? "?" : "?"
            let transaction = facts.transaction?.display
            if let cancelled {
                findings.append(Finding(.purchaseCancelled, at: facts.offset,
                                        "\(product) was cancelled (refunded) at \(cancelled.rfc3339UTC)",
                                        fields: [FindingField("product_id", product),
                                                 FindingField("cancellation_date", cancelled.rfc3339UTC)]
                                            + (transaction.map { [FindingField("transaction_id", $0)] } ?? [])))
                continue
            }
            guard let expires else { continue }
            let purchase = facts.date(1704)
            if let purchase, expires.secondsSinceEpoch < purchase.secondsSinceEpoch {
                findings.append(Finding(.expiryBeforePurchase, at: facts.offset,
                                        "\(product): expires_date \(expires.rfc3339UTC) precedes purchase_date \(purchase.rfc3339UTC)"))
            }
            if let known = latest[product] {
                if expires.secondsSinceEpoch > known.expires.secondsSinceEpoch {
                    latest[product] = (expires, purchase, facts.offset, transaction)
                }
            } else {
                productOrder.append(product)
                latest[product] = (expires, purchase, facts.offset, transaction)
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

/// The fields of one in-app record that the checks read: the first attribute of each type, found in one walk over
/// the record's entries in the index.
private struct RecordFacts {
    /// The types read; the slot of each is its position here.
    static let checkedTypes: [Int64] = [1701, 1702, 1703, 1704, 1706, 1708, 1712]

    let offset: Int
    private var slots: [Attribute?] = [nil, nil, nil, nil, nil, nil, nil]

    init(_ record: InAppRecord) {
        offset = record.offset
        for attribute in record.attributes {
            guard let type = attribute.type, let slot = Self.checkedTypes.firstIndex(of: type),
                  slots[slot] == nil else { continue }
            slots[slot] = attribute
        }
    }

    /// The first attribute of `type` (one of `checkedTypes`).
    func first(_ type: Int64) -> Attribute? {
        guard let slot = Self.checkedTypes.firstIndex(of: type) else { return nil }
        return slots[slot]
    }

    /// The parsed date of the first attribute of `type`, when it is a valid date.
    func date(_ type: Int64) -> ReceiptDate? { first(type)?.date }

    /// The first transaction id (1703), by value.
    var transaction: TransactionKey? { first(1703).flatMap(TransactionKey.init) }
}

/// A transaction id by value: the same id as UTF8String, IA5String, INTEGER or OCTET STRING (an inner element, or
/// the bare value bytes) is the same key. Decimal text that fits 64 bits and INTEGERs meet as numbers; other text
/// and octets as their bytes in the payload (slices: nothing is copied).
private enum TransactionKey: Hashable {
    case number(Int64)
    case bytes(ArraySlice<UInt8>)
    case largeInteger(ArraySlice<UInt8>)

    init?(_ attribute: Attribute) {
        switch attribute.kind {
        case .integer:
            self = .number(attribute.integer ?? 0)
        case .largeInteger:
            self = .largeInteger(attribute.contentBytes)
        case .text, .date:
            self = Self.bytesOrNumber(attribute.contentBytes)
        case .raw:
            var content = attribute.valueBytes
            if attribute.valueTag == .octetString, let inner = Self.primitiveContent(content) { content = inner }
            self = Self.bytesOrNumber(content)
        case .boolean, .record, .absent:
            return nil
        }
    }

    var isEmpty: Bool {
        if case .bytes(let bytes) = self { return bytes.isEmpty }
        return false
    }

    /// The id for a message.
    var display: String {
        switch self {
        case .number(let number): return String(number)
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .largeInteger(let bytes): return "INTEGER 0x" + bytes.map { String($0, radix: 16) }.joined()
        }
    }

    /// Canonical decimal text (no sign, no leading zero) that fits 64 bits is a number; anything else stays bytes.
    private static func bytesOrNumber(_ bytes: ArraySlice<UInt8>) -> TransactionKey {
        guard !bytes.isEmpty, bytes.count <= 18, bytes.first != UInt8(ascii: "0") || bytes.count == 1 else {
            return .bytes(bytes)
        }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .bytes(bytes) }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return .number(value)
    }

    /// The content of one primitive element filling `bytes` (tag and a short or long definite length), if it is one.
    private static func primitiveContent(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard bytes.count >= 2 else { return nil }
        let base = bytes.startIndex
        let first = Int(bytes[base + 1])
        var start = 2
        var length = first
        if first >= 0x80 {
            let count = first & 0x7F
            guard count >= 1, count <= 4, bytes.count >= 2 + count else { return nil }
            length = 0
            for index in 0..<count { length = length << 8 | Int(bytes[base + 2 + index]) }
            start = 2 + count
        }
        guard start + length == bytes.count else { return nil }
        return bytes[(base + start)...]
    }
}
