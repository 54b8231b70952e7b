import ReceiptModel

/// One key of Apple's `receipt` object or of an `in_app` entry: its name, the receipt attribute it comes from and
/// the form Apple gives the value. The tables are in Apple's key order; `docs/verifyreceipt-evidence.md` gives the
/// evidence for each mapping, and the recorded responses in `Tests/ReceiptVerifyReceiptTests/Pairs/` check it.
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

    init(_ name: String, _ type: Int64, _ form: Form, _ source: Source = .attribute, leftOutWhenZero: Bool = false) {
        self.name = name
        self.type = type
        self.form = form
        self.source = source
        self.leftOutWhenZero = leftOutWhenZero
    }

    /// The `receipt` object's keys, in Apple's order.
    package static let receipt: [VerifyReceiptKey] = [
        VerifyReceiptKey("receipt_type", 0, .string),
        VerifyReceiptKey("adam_id", 1, .number),
        VerifyReceiptKey("app_item_id", 1, .number),
        VerifyReceiptKey("bundle_id", 2, .string),
        VerifyReceiptKey("application_version", 3, .string),
        VerifyReceiptKey("download_id", 15, .number),
        VerifyReceiptKey("version_external_identifier", 16, .number),
        VerifyReceiptKey("receipt_creation_date", 12, .date),
        VerifyReceiptKey("request_date", -1, .date, .requestDate),
        VerifyReceiptKey("original_purchase_date", 18, .date),
        VerifyReceiptKey("original_application_version", 19, .string),
        VerifyReceiptKey("expiration_date", 21, .date),
        VerifyReceiptKey("preorder_date", 32, .date),
        VerifyReceiptKey("in_app", 17, .string, .inAppRecords),
    ]

    /// An `in_app` entry's keys, in Apple's order.
    package static let inApp: [VerifyReceiptKey] = [
        VerifyReceiptKey("quantity", 1701, .quotedNumber),
        VerifyReceiptKey("product_id", 1702, .string),
        VerifyReceiptKey("transaction_id", 1703, .string),
        VerifyReceiptKey("original_transaction_id", 1705, .string),
        VerifyReceiptKey("purchase_date", 1704, .date),
        VerifyReceiptKey("original_purchase_date", 1706, .date),
        VerifyReceiptKey("expires_date", 1708, .date),
        VerifyReceiptKey("cancellation_date", 1712, .date),
        VerifyReceiptKey("web_order_line_item_id", 1711, .quotedNumber, leftOutWhenZero: true),
        VerifyReceiptKey("is_trial_period", 1713, .flag),
        VerifyReceiptKey("is_in_intro_offer_period", 1719, .flag),
        VerifyReceiptKey("promotional_offer_id", 1721, .string),
    ]
}
