import ReceiptModel

/// One key of Apple's `receipt` object or of an `in_app` entry: its name, the receipt attribute it comes from and
/// the form Apple gives the value. The tables are in Apple's key order; `docs/verifyreceipt-evidence.md` gives the
/// evidence for each mapping, and the recorded responses in `Tests/Judging/ReceiptVerifyReceiptTests/Pairs/` check it.
package struct VerifyReceiptKey: Sendable, Hashable {
    /// How Apple writes a value.
    package enum Form: String, Sendable, Hashable {
        /// A JSON string of the text.
        case string
        /// A JSON number.
        case number
        /// A JSON string of the decimal number (`"quantity": "1"`).
        case quotedNumber
        /// `"true"` or `"false"`.
        case flag
        /// Three keys: `X` (`Etc/GMT`), `X_ms` and `X_pst` (`America/Los_Angeles`).
        case date
    }

    /// Where the value comes from.
    package enum Source: Sendable, Hashable {
        case attribute
        /// The time of the request (`--request-date`), not the receipt.
        case requestDate
        /// The type-17 records, as the `in_app` array.
        case inAppRecords
    }

    package var name: String
    package var type: Int64
    package var form: Form
    package var source: Source
    /// Apple leaves the key out when the value is 0 (`web_order_line_item_id` of a purchase that is not a
    /// subscription).
    package var leftOutWhenZero: Bool

    /// The key of attribute `type`, named as the one field table names it (`FieldTable`), so the dump, this JSON,
    /// the diff and build specs say the same name for the same attribute.
    init(_ type: Int64, _ scope: FieldScope, _ form: Form, _ source: Source = .attribute, leftOutWhenZero: Bool = false)
    {
        self.init(
            named: FieldTable.descriptor(type, in: scope)?.name ?? "type_\(type)", type, form, source,
            leftOutWhenZero: leftOutWhenZero)
    }

    /// A key Apple writes under a name of its own: `adam_id` (a second name for the app's item id) and
    /// `request_date` (not an attribute).
    init(named name: String, _ type: Int64, _ form: Form, _ source: Source = .attribute, leftOutWhenZero: Bool = false)
    {
        self.name = name
        self.type = type
        self.form = form
        self.source = source
        self.leftOutWhenZero = leftOutWhenZero
    }

    /// The `receipt` object's keys, in Apple's order.
    package static let receipt: [VerifyReceiptKey] = [
        VerifyReceiptKey(0, .receipt, .string),  // receipt_type
        VerifyReceiptKey(named: "adam_id", 1, .number),
        VerifyReceiptKey(1, .receipt, .number),  // app_item_id
        VerifyReceiptKey(2, .receipt, .string),  // bundle_id
        VerifyReceiptKey(3, .receipt, .string),  // application_version
        VerifyReceiptKey(15, .receipt, .number),  // download_id
        VerifyReceiptKey(16, .receipt, .number),  // version_external_identifier
        VerifyReceiptKey(12, .receipt, .date),  // receipt_creation_date
        VerifyReceiptKey(named: "request_date", -1, .date, .requestDate),
        VerifyReceiptKey(18, .receipt, .date),  // original_purchase_date
        VerifyReceiptKey(19, .receipt, .string),  // original_application_version
        VerifyReceiptKey(21, .receipt, .date),  // expiration_date
        VerifyReceiptKey(32, .receipt, .date),  // preorder_date
        VerifyReceiptKey(17, .receipt, .string, .inAppRecords),  // in_app
    ]

    /// An `in_app` entry's keys, in Apple's order.
    package static let inApp: [VerifyReceiptKey] = [
        VerifyReceiptKey(1701, .inApp, .quotedNumber),  // quantity
        VerifyReceiptKey(1702, .inApp, .string),  // product_id
        VerifyReceiptKey(1703, .inApp, .string),  // transaction_id
        VerifyReceiptKey(1705, .inApp, .string),  // original_transaction_id
        VerifyReceiptKey(1704, .inApp, .date),  // purchase_date
        VerifyReceiptKey(1706, .inApp, .date),  // original_purchase_date
        VerifyReceiptKey(1708, .inApp, .date),  // expires_date
        VerifyReceiptKey(1712, .inApp, .date),  // cancellation_date
        VerifyReceiptKey(1711, .inApp, .quotedNumber, leftOutWhenZero: true),  // web_order_line_item_id
        VerifyReceiptKey(1713, .inApp, .flag),  // is_trial_period
        VerifyReceiptKey(1719, .inApp, .flag),  // is_in_intro_offer_period
        VerifyReceiptKey(1721, .inApp, .string),  // promotional_offer_id
    ]
}
