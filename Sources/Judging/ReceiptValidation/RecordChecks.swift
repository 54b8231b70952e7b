import ReceiptASN1
import ReceiptDiagnostics
import ReceiptModel
import ReceiptPKCS7
import ReceiptPurchases

/// Checks of the in-app records, one record at a time: unique transaction ids (compared by value, whatever their
/// encoding), plausible quantities, expiry after purchase, no purchase or cancellation after the receipt was
/// created, cancellations, and one subscription state per product at the evaluation time.
///
/// The same steps run either as the reading pass reads each record (`StreamedRecordChecks`, when the receipt's
/// creation date comes before its first record, as in every receipt Apple writes) or after it over the index
/// (`check(_:at:created:isXcode:)`): one judgement either way.
struct RecordChecks {
    /// Quantities a purchase can have.
    static let quantityRange: ClosedRange<Int64> = 1...1000

    /// The record dates that cannot lie after the receipt's creation: a receipt cannot record what happened after it
    /// was made. The chain is evaluated at the creation date the signer chose, so this is how a receipt backdated
    /// under a retired key shows itself.
    static let datesBeforeCreation: [(type: Int64, name: String)] = [
        (1704, "purchase_date"), (1706, "original_purchase_date"), (1712, "cancellation_date"),
    ]

    /// Every record of a read payload, checked after the read. `created`: the receipt's creation date, if valid.
    /// `isXcode`: an Xcode (StoreKit testing) receipt, whose dates Xcode has been seen writing in local time with a
    /// `Z` suffix, so a date after creation is only a warning.
    static func check(_ payload: ReceiptPayload, at time: Int64, created: ReceiptDate?, isXcode: Bool) -> [Finding] {
        let table = payload.index.table
        var checks = RecordChecks(created: created, expectedRecords: payload.index.records.count)
        table.bytes.withUnsafeBufferPointer { buffer in
            for record in payload.index.records { checks.check(record: Int(record), in: table, buffer) }
            checks.close()
        }
        checks.noteUpgrades(in: payload.index)
        return checks.findings(at: time, isXcode: isXcode)
    }

    private let created: ReceiptDate?
    private let createdSeconds: Int64?
    var findings: [Finding] = []
    /// The findings of a date after the creation date (in `findings`), whose severity is the environment's.
    private var afterCreation: [(finding: Int, name: String, date: ReceiptDate)] = []
    /// Per product (keyed by its bytes in the payload), the record with the latest expiry, while the payload is
    /// lent; Strings are built only for the findings.
    private var latest = ProductTable<Latest>()
    /// The same when the read is over, the keys made text: one subscription state a product.
    private var subscriptions: [(product: String, latest: Latest, transaction: String?)] = []
    /// Transaction ids keyed by their bytes in the payload: a receipt of 100 000 records would otherwise hold
    /// 100 000 Strings here. Numbers (nearly every real id) have their own table, hashed as plain integers.
    private var seenNumbers: [Int64: Int] = [:]
    private var seenTransactions: [TransactionKey: Int] = [:]
    /// The in-app types the checks read (1701 quantity … 1712 cancellation_date), found in one pass a record.
    var fields: [Int32] = []
    /// Each cancelled subscription record: its finding's place, original transaction id, product and cancellation
    /// second, for `noteUpgrade`.
    private(set) var cancellations: [UpgradeMoment: [(finding: Int, product: String)]] = [:]

    /// A product's latest expiry so far.
    private struct Latest {
        /// When its service ended: the expiry, or the cancellation when that came first.
        var expires: EntryTable.StoredDate
        var cancelled = false
        var purchaseSeconds: Int64?
        var offset: Int
        var transaction: TransactionKey?
    }

    /// `expectedRecords` sizes the transaction table (sized for one id a record, it never grows).
    init(created: ReceiptDate?, expectedRecords: Int) {
        self.created = created
        createdSeconds = created?.secondsSinceEpoch
        seenNumbers.reserveCapacity(expectedRecords)
    }

    /// Checks the record held by `record`, over the entries of `table` (numbers, not `Attribute` views: no
    /// reference counting per field) with the payload `buffer` lent for the keys, which must stay the same buffer
    /// until `close`.
    mutating func check(record: Int, in table: borrowing EntryTable, _ buffer: UnsafeBufferPointer<UInt8>) {
        let offset = table.recordOffset(record)
        table.firstOfEachType(inRecord: record, types: 1701...1712, into: &fields)
        func field(_ type: Int) -> Int? {
            let entry = fields[type - 1701]
            return entry < 0 ? nil : Int(entry)
        }
        /// The entry of a date field that parsed.
        func parsedDate(_ type: Int) -> (entry: Int, seconds: Int64)? {
            guard let entry = field(type), let seconds = table.dateSeconds(entry) else { return nil }
            return (entry, seconds)
        }
        // No closure over `table` here: capturing it copies it (a reference count for each of its arrays).
        var transactionKey: TransactionKey?
        if let entry = field(1703) { transactionKey = TransactionKey(table, entry, buffer) }
        if let transaction = transactionKey, !transaction.isEmpty {
            // One hash for a new id (the common case); a repeated one keeps the first record's offset.
            let earlier: Int?
            if case .number(let number) = transaction {
                earlier = seenNumbers.updateValue(offset, forKey: number)
                if let earlier { seenNumbers[number] = earlier }
            } else {
                earlier = seenTransactions.updateValue(offset, forKey: transaction)
                if let earlier { seenTransactions[transaction] = earlier }
            }
            if let earlier {
                // Messages are Strings made here: a key borrows the buffer and must not outlive the read.
                let display = transaction.display
                findings.append(
                    Finding(
                        .duplicateTransactionId, at: offset,
                        "transaction \(display) appears in two records (first at offset \(earlier)), compared by value whatever its encoding: validators disagree on which counts"
                    ))
            }
        }
        if created != nil, let createdSeconds {
            for (type, name) in Self.datesBeforeCreation {
                guard let (entry, seconds) = parsedDate(Int(type)), seconds > createdSeconds,
                    let date = table.date(entry)
                else { continue }
                // Its severity and message wait for the environment (`findings(at:isXcode:)`).
                afterCreation.append((findings.count, name, date))
                findings.append(Finding(.purchaseAfterCreation, at: offset, ""))
            }
        }
        // An INTEGER past 64 bits is out of range too, never skipped (a red team's trial: quantity 2^64 was valid).
        if let entry = field(1701), table.kind(entry) == .integer || table.kind(entry) == .largeInteger {
            let quantity = table.kind(entry) == .integer ? table.number(entry) : nil
            if !(quantity.map(Self.quantityRange.contains) ?? false) {
                findings.append(
                    Finding(
                        .quantityOutOfRange, at: offset,
                        "quantity is \(quantity.map { String($0) } ?? "an INTEGER beyond 64 bits"), outside \(Self.quantityRange.lowerBound)–\(Self.quantityRange.upperBound)"
                    ))
            }
        }
        let cancelled = parsedDate(1712)
        let expires = parsedDate(1708)
        guard cancelled != nil || expires != nil else { return }
        var product = ByteKey(unknown: ())
        if let entry = field(1702), table.kind(entry) == .text { product = ByteKey(buffer, table.contentRange(entry)) }
        if let cancelled, let date = table.date(cancelled.entry) {
            let name = product.text
            if let originalEntry = field(1705), expires != nil,
                let original = TransactionKey(table, originalEntry, buffer)
            {
                cancellations[UpgradeMoment(original: original.display, seconds: cancelled.seconds), default: []]
                    .append((findings.count, name))
            }
            findings.append(
                Finding(
                    .purchaseCancelled, at: offset,
                    "\(name) was cancelled (refunded) at \(date.rfc3339UTC)",
                    fields: [
                        FindingField("product_id", name),
                        FindingField("cancellation_date", date.rfc3339UTC),
                    ]
                        + (transactionKey.map { [FindingField("transaction_id", $0.display)] } ?? [])))
        }
        guard let expires, var expiresDate = table.storedDate(expires.entry) else { return }
        // A cancelled period served until its cancellation (a refund or an upgrade after the time judged at leaves
        // the time inside it): it takes part in the product's state with that end. One cancelled after its expiry
        // served its whole period, as `rcpt status` reads it (a red team's trial: it was left out, so a refund after
        // the period made the customer lose service earlier than a refund inside it).
        var ended = expires.seconds
        let cutShort = cancelled.map { $0.seconds < expires.seconds } ?? false
        if cutShort, let cancelled {
            guard let cancellation = table.storedDate(cancelled.entry) else { return }
            (expiresDate, ended) = (cancellation, cancelled.seconds)
        }
        let purchase = parsedDate(1704)
        if cancelled == nil, let purchase, expires.seconds < purchase.seconds,
            let purchaseDate = table.date(purchase.entry)
        {
            let name = product.text
            let expiry = expiresDate.date.rfc3339UTC
            findings.append(
                Finding(
                    .expiryBeforePurchase, at: offset,
                    "\(name): expires_date \(expiry) precedes purchase_date \(purchaseDate.rfc3339UTC)"
                ))
        }
        // One hash a record: the product's slot is found once and updated in place.
        let state = Latest(
            expires: expiresDate, cancelled: cutShort, purchaseSeconds: purchase?.seconds, offset: offset,
            transaction: transactionKey)
        if let slot = latest.slot(of: product) {
            if ended > latest.values[slot].expires.seconds { latest.values[slot] = state }
        } else {
            latest.append(product, state)
        }
    }

    /// The read is over: what borrowed the payload buffer is made text or let go.
    mutating func close() {
        subscriptions = zip(latest.keys, latest.values).map { product, state in
            var owned = state
            owned.transaction = nil  // it borrows the buffer: kept as text beside
            return (product.text, owned, state.transaction?.display)
        }
        latest = ProductTable()
        seenTransactions = [:]
    }

    /// Every finding, with the subscription states at `time` last. `isXcode`: see `check(_:at:created:isXcode:)`.
    consuming func findings(at time: Int64, isXcode: Bool) -> [Finding] {
        if let created {
            for (position, name, date) in afterCreation {
                let offset = findings[position].offset
                findings[position] = Finding(
                    .purchaseAfterCreation, severity: isXcode ? .warning : .error, at: offset,
                    "\(name) \(date.rfc3339UTC) is after receipt_creation_date \(created.rfc3339UTC): a receipt cannot record what happened after it was made\(isXcode ? " (Xcode writes local times with a Z suffix, so this is only a warning for an Xcode receipt)" : "")"
                )
            }
        }
        let instant = ReceiptDate.format(epochSeconds: time)
        for (name, state, transaction) in subscriptions {
            let expires = state.expires.date
            // The period that ended last decides; a cancelled one ended at its cancellation.
            let code = ServicePeriod(
                purchased: state.purchaseSeconds.map(ServicePeriod.milliseconds),
                expires: expires.millisecondsSinceEpoch
            ).stateCode(at: ServicePeriod.milliseconds(time))
            let said =
                code == .subscriptionActive
                ? "is active"
                : code == .subscriptionNotStarted ? "is not yet active (purchased later)" : "is not active"
            let end = state.cancelled ? "cancellation_date" : "expires_date"
            let ended = state.cancelled ? "its latest period cancelled" : "latest expires_date"
            findings.append(
                Finding(
                    code, at: state.offset,
                    "\(name) \(said) at \(instant) (\(ended) \(expires.rfc3339UTC))",
                    fields: [
                        FindingField("product_id", name),
                        FindingField(end, expires.rfc3339UTC),
                    ]
                        + (transaction.map { [FindingField("transaction_id", $0)] } ?? [])))
        }
        return findings
    }
}

/// A transaction id by value: the same id as UTF8String, IA5String, INTEGER or OCTET STRING (an inner element, or
/// the bare value bytes) is the same key. Decimal text that fits 64 bits and INTEGERs meet as numbers; other text
/// and octets as their bytes in the payload (borrowed: nothing is copied).
enum TransactionKey: Hashable {
    case number(Int64)
    case bytes(ByteKey)
    case largeInteger(ByteKey)

    /// The key of the attribute at `entry`, reading its bytes from `buffer` (the table's own bytes, borrowed).
    init?(_ table: borrowing EntryTable, _ entry: Int, _ buffer: UnsafeBufferPointer<UInt8>) {
        switch table.kind(entry) {
        case .integer:
            self = .number(table.number(entry))
        case .largeInteger:
            self = .largeInteger(ByteKey(buffer, table.contentRange(entry)))
        case .text, .date:
            self = Self.bytesOrNumber(ByteKey(buffer, table.contentRange(entry)))
        case .raw:
            guard let value = table.valueRange(entry) else { return nil }
            var content = ByteKey(buffer, value)
            if table.valueTag(entry) == .octetString, let inner = Self.primitiveContent(content) { content = inner }
            self = Self.bytesOrNumber(content)
        case .boolean, .record, .absent:
            return nil
        }
    }

    var isEmpty: Bool {
        if case .bytes(let key) = self { return key.count == 0 }
        return false
    }

    /// The id for a message.
    var display: String {
        switch self {
        case .number(let number): return String(number)
        case .bytes(let key): return key.text
        case .largeInteger(let key): return "INTEGER 0x" + key.octets.map { String($0, radix: 16) }.joined()
        }
    }

    /// Canonical decimal text (no sign, no leading zero) that fits 64 bits is a number; anything else stays bytes.
    private static func bytesOrNumber(_ key: ByteKey) -> TransactionKey {
        let bytes = key.octets
        guard !bytes.isEmpty, bytes.count <= 18, bytes.first != UInt8(ascii: "0") || bytes.count == 1 else {
            return .bytes(key)
        }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .bytes(key) }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return .number(value)
    }

    /// The content of one primitive element filling `key`'s bytes (tag and a short or long definite length), if it
    /// is one.
    private static func primitiveContent(_ key: ByteKey) -> ByteKey? {
        let bytes = key.octets
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
        return key.suffix(from: start)
    }
}

/// Bytes of the payload as a dictionary key, hashed and compared as raw memory. It borrows the payload buffer (no
/// copy, no reference counting): keys live only while `RecordChecks` reads records, while the buffer is lent.
struct ByteKey: Hashable {
    private let base: UnsafeRawPointer?
    let count: Int

    /// `range` of `buffer`, clamped to it.
    init(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        let lower = Swift.min(Swift.max(range.lowerBound, 0), buffer.count)
        let upper = Swift.min(Swift.max(range.upperBound, lower), buffer.count)
        base = buffer.baseAddress.map { UnsafeRawPointer($0 + lower) }
        count = upper - lower
    }

    /// The key of records whose product id is not text: "?".
    init(unknown: Void) {
        base = UnsafeRawPointer(Self.questionMark.utf8Start)
        count = Self.questionMark.utf8CodeUnitCount
    }

    private init(base: UnsafeRawPointer?, count: Int) {
        self.base = base
        self.count = count
    }

    /// The unknown product's "?", in static storage (valid for the life of the process).
    private static let questionMark: StaticString = "?"

    var octets: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: count == 0 ? nil : base, count: count) }

    var text: String { String(decoding: octets, as: UTF8.self) }

    func suffix(from start: Int) -> ByteKey { ByteKey(base: base.map { $0 + start }, count: count - start) }

    /// Equal bytes, compared eight at a time.
    static func == (lhs: ByteKey, rhs: ByteKey) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.count > 0, let left = lhs.base, let right = rhs.base else { return true }
        var offset = 0
        while lhs.count &- offset >= 8 {
            if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset &+= 8
        }
        while offset < lhs.count {
            if left.load(fromByteOffset: offset, as: UInt8.self) != right.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset &+= 1
        }
        return true
    }

    func hash(into hasher: inout Hasher) { hasher.combine(bytes: octets) }
}

/// Products and a value each, in the order first seen: a receipt names few products, so up to eight are found by
/// comparing bytes (no hash); beyond that a dictionary finds them.
private struct ProductTable<Value> {
    static var scanLimit: Int { 8 }
    private(set) var keys: [ByteKey] = []
    var values: [Value] = []
    private var slots: [ByteKey: Int] = [:]

    func slot(of key: ByteKey) -> Int? {
        guard keys.count > Self.scanLimit else { return keys.firstIndex(of: key) }
        return slots[key]
    }

    mutating func append(_ key: ByteKey, _ value: Value) {
        keys.append(key)
        values.append(value)
        if keys.count == Self.scanLimit + 1 {
            for (slot, known) in keys.enumerated() { slots[known] = slot }
        } else if keys.count > Self.scanLimit + 1 {
            slots[key] = keys.count - 1
        }
    }
}
