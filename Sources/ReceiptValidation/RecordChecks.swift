import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptASN1

/// Checks of the in-app records, in one pass that decodes each record once: unique transaction ids (compared by
/// value, whatever their encoding), plausible quantities, expiry after purchase, no purchase or cancellation after
/// the receipt was created, cancellations, and one subscription state per product at the evaluation time.
enum RecordChecks {
    /// Quantities a purchase can have.
    static let quantityRange: ClosedRange<Int64> = 1...1000

    /// The record dates that cannot lie after the receipt's creation: a receipt cannot record what happened after it
    /// was made. The chain is evaluated at the creation date the signer chose, so this is how a receipt backdated
    /// under a retired key shows itself.
    /// The key of records whose product id is not text.
    static let unknownProduct: ArraySlice<UInt8> = Array("?".utf8)[...]

    static let datesBeforeCreation: [(type: Int64, name: String)] = [
        (1704, "purchase_date"), (1706, "original_purchase_date"), (1712, "cancellation_date"),
    ]

    /// `created`: the receipt's creation date, if valid. `isXcode`: an Xcode (StoreKit testing) receipt, whose dates
    /// Xcode has been seen writing in local time with a `Z` suffix, so a date after creation is only a warning.
    static func check(_ payload: ReceiptPayload, at time: Int64, created: ReceiptDate?, isXcode: Bool) -> [Finding] {
        var findings: [Finding] = []
        // Per product (keyed by its bytes in the payload), the record with the latest expiry; dates compared as
        // seconds, Strings built only for the findings.
        var latest: [ByteKey: (expires: Attribute, purchase: Attribute?, offset: Int,
                                         transaction: TransactionKey?)] = [:]
        var productOrder: [ByteKey] = []
        // Transaction ids are keyed by their bytes in the payload: a receipt of 100 000 records would otherwise
        // hold 100 000 Strings here.
        var seenTransactions: [TransactionKey: Int] = [:]
        let createdSeconds = created?.secondsSinceEpoch
        // The in-app types the checks read (1701 quantity … 1712 cancellation_date), found in one pass a record.
        var fields: [Attribute?] = []
        func field(_ type: Int64) -> Attribute? { fields[Int(type) - 1701] }
        for record in payload.inAppRecords {
            let offset = record.offset
            record.firstOfEachType(in: 1701...1712, into: &fields)
            let transactionKey = field(1703).flatMap(TransactionKey.init)
            if let transaction = transactionKey, !transaction.isEmpty {
                // One hash for a new id (the common case); a repeated one keeps the first record's offset.
                if let earlier = seenTransactions.updateValue(offset, forKey: transaction) {
                    seenTransactions[transaction] = earlier
                    findings.append(Finding(.duplicateTransactionId, at: offset,
                                            "transaction \(transaction.display) appears in two records (first at offset \(earlier)), compared by value whatever its encoding: validators disagree on which counts"))
                }
            }
            if let created, let createdSeconds {
                for (type, name) in datesBeforeCreation {
                    guard let attribute = field(type), let seconds = attribute.dateSeconds,
                          seconds > createdSeconds, let date = attribute.date else { continue }
                    findings.append(Finding(.purchaseAfterCreation, severity: isXcode ? .warning : .error,
                                            at: offset,
                                            "\(name) \(date.rfc3339UTC) is after receipt_creation_date \(created.rfc3339UTC): a receipt cannot record what happened after it was made\(isXcode ? " (Xcode writes local times with a Z suffix, so this is only a warning for an Xcode receipt)" : "")"))
                }
            }
            if let quantity = field(1701)?.integer, !quantityRange.contains(quantity) {
                findings.append(Finding(.quantityOutOfRange, at: offset,
                                        "quantity is \(quantity), outside \(quantityRange.lowerBound)–\(quantityRange.upperBound)"))
            }
            let cancelled = field(1712).flatMap { $0.dateSeconds == nil ? nil : $0 }
            let expires = field(1708).flatMap { $0.dateSeconds == nil ? nil : $0 }
            guard cancelled != nil || expires != nil else { continue }
            let productAttribute = field(1702)
            let product = ByteKey(productAttribute?.kind == .text
                ? productAttribute?.contentBytes ?? Self.unknownProduct : Self.unknownProduct)
            if let cancelled, let date = cancelled.date {
                let name = String(decoding: product.bytes, as: UTF8.self)
                findings.append(Finding(.purchaseCancelled, at: offset,
                                        "\(name) was cancelled (refunded) at \(date.rfc3339UTC)",
                                        fields: [FindingField("product_id", name),
                                                 FindingField("cancellation_date", date.rfc3339UTC)]
                                            + (transactionKey.map { [FindingField("transaction_id", $0.display)] } ?? [])))
                continue
            }
            guard let expires, let expiresSeconds = expires.dateSeconds else { continue }
            let purchase = field(1704).flatMap { $0.dateSeconds == nil ? nil : $0 }
            if let purchase, let purchaseSeconds = purchase.dateSeconds, expiresSeconds < purchaseSeconds,
               let expiresDate = expires.date, let purchaseDate = purchase.date {
                findings.append(Finding(.expiryBeforePurchase, at: offset,
                                        "\(String(decoding: product.bytes, as: UTF8.self)): expires_date \(expiresDate.rfc3339UTC) precedes purchase_date \(purchaseDate.rfc3339UTC)"))
            }
            // One hash a record: the product's slot is found once and updated in place.
            if let slot = latest.index(forKey: product) {
                if expiresSeconds > latest.values[slot].expires.dateSeconds ?? Int64.min {
                    latest.values[slot] = (expires, purchase, offset, transactionKey)
                }
            } else {
                productOrder.append(product)
                latest[product] = (expires, purchase, offset, transactionKey)
            }
        }
        let instant = ReceiptDate.format(epochSeconds: time)
        for product in productOrder {
            guard let state = latest[product], let expires = state.expires.date else { continue }
            let started = (state.purchase?.dateSeconds ?? Int64.min) <= time
            let active = expires.secondsSinceEpoch > time && started
            let name = String(decoding: product.bytes, as: UTF8.self)
            findings.append(Finding(active ? .subscriptionActive : .subscriptionExpired, at: state.offset,
                                    "\(name) \(active ? "is active" : "is not active") at \(instant) (latest expires_date \(expires.rfc3339UTC))",
                                    fields: [FindingField("product_id", name),
                                             FindingField("expires_date", expires.rfc3339UTC)]
                                        + (state.transaction.map { [FindingField("transaction_id", $0.display)] } ?? [])))
        }
        return findings
    }
}

/// A transaction id by value: the same id as UTF8String, IA5String, INTEGER or OCTET STRING (an inner element, or
/// the bare value bytes) is the same key. Decimal text that fits 64 bits and INTEGERs meet as numbers; other text
/// and octets as their bytes in the payload (slices: nothing is copied).
private enum TransactionKey: Hashable {
    case number(Int64)
    case bytes(ByteKey)
    case largeInteger(ByteKey)

    init?(_ attribute: Attribute) {
        switch attribute.kind {
        case .integer:
            self = .number(attribute.integer ?? 0)
        case .largeInteger:
            self = .largeInteger(ByteKey(attribute.contentBytes))
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
        if case .bytes(let key) = self { return key.bytes.isEmpty }
        return false
    }

    /// The id for a message.
    var display: String {
        switch self {
        case .number(let number): return String(number)
        case .bytes(let key): return String(decoding: key.bytes, as: UTF8.self)
        case .largeInteger(let key): return "INTEGER 0x" + key.bytes.map { String($0, radix: 16) }.joined()
        }
    }

    /// Canonical decimal text (no sign, no leading zero) that fits 64 bits is a number; anything else stays bytes.
    private static func bytesOrNumber(_ bytes: ArraySlice<UInt8>) -> TransactionKey {
        guard !bytes.isEmpty, bytes.count <= 18, bytes.first != UInt8(ascii: "0") || bytes.count == 1 else {
            return .bytes(ByteKey(bytes))
        }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .bytes(ByteKey(bytes)) }
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

/// Bytes of the payload as a dictionary key, hashed and compared as raw memory (a slice: nothing is copied).
struct ByteKey: Hashable {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    static func == (lhs: ByteKey, rhs: ByteKey) -> Bool {
        lhs.bytes.count == rhs.bytes.count && lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                left.elementsEqual(right)
            }
        }
    }

    func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}
