/// How an attribute's value is meant to be decoded.
public enum FieldKind: String, Sendable, Hashable {
    /// A UTF8String.
    case utf8String
    /// An IA5String.
    case ia5String
    /// An IA5String holding an RFC 3339 date.
    case date
    /// An INTEGER.
    case integer
    /// An INTEGER meant as a boolean: 0 false, 1 true.
    case flag
    /// Opaque bytes, not ASN.1.
    case raw
    /// A SET of in-app purchase attributes (type 17).
    case inAppRecords
    /// Not known: decoded from whatever ASN.1 the value holds.
    case unknown
}

/// Where an attribute type lives: in the receipt payload or inside a type-17 in-app record.
public enum FieldScope: String, Sendable, Hashable {
    case receipt
    case inApp
}

/// One row of the field table: a type number's name, meaning and expected encoding.
public struct FieldDescriptor: Sendable, Hashable {
    public var type: Int64
    public var scope: FieldScope
    /// The key used in JSON output, following Apple's verifyReceipt JSON where one exists.
    public var name: String
    /// A short human description.
    package var label: String
    public var kind: FieldKind
    /// Whether Apple documents this type; undocumented ones are seen in real receipts only.
    package var isDocumented: Bool
    /// Whether a verdict rests on its value though Apple does not document it (receipt_type: the environment and
    /// who may sign; app_item_id: the app): a second copy is an error, as for a documented type.
    package var isJudged: Bool { isDocumented || (scope == .receipt && (type == 0 || type == 1)) }
}

/// The one source of truth for attribute names, meanings and encodings. Labels, JSON keys, documentation and
/// fuzz dictionaries all derive from it.
public enum FieldTable {
    public static let inAppRecordType: Int64 = 17

    /// Every known field, receipt scope first, in type order.
    public static let all: [FieldDescriptor] = receiptFields + inAppFields

    /// The descriptor of `type` in `scope`, if the type is known. Constant time, no hashing: this runs for
    /// every attribute read.
    package static func descriptor(_ type: Int64, in scope: FieldScope) -> FieldDescriptor? {
        guard let row = row(of: type, in: scope) else { return nil }
        return scope == .receipt ? receiptFields[row] : inAppFields[row]
    }

    /// The version the App Store writes for `type`: 2 for the opaque value, 1 for everything else. Output that
    /// omits versions (the dump's `receipt` object) assumes it; builders default to it.
    @inlinable
    package static func conventionalVersion(of type: Int64, in scope: FieldScope) -> Int64 {
        scope == .receipt && type == 4 ? 2 : 1
    }

    /// The position of `type` in `receiptFields` or `inAppFields`, if the type is known.
    package static func row(of type: Int64, in scope: FieldScope) -> Int? {
        let row = scope == .receipt ? entry(receiptRows, type, base: 0) : entry(inAppRows, type, base: inAppBase)
        guard let row, row >= 0 else { return nil }
        return row
    }

    /// The expected encoding of `type` in `scope` (`.unknown` for types not in the table).
    public static func kind(of type: Int64, in scope: FieldScope) -> FieldKind { kinds.kind(of: type, in: scope) }

    /// Both scopes' expected encodings, by type. The reading pass keeps one for its life, so the lookup of each
    /// attribute is one array load, without the check of a lazily made global.
    struct Kinds {
        private let receipt: [FieldKind]
        private let inApp: [FieldKind]

        fileprivate init(receipt: [FieldKind], inApp: [FieldKind]) {
            self.receipt = receipt
            self.inApp = inApp
        }

        @inline(__always)
        func kind(of type: Int64, in scope: FieldScope) -> FieldKind {
            let kind =
                scope == .receipt
                ? FieldTable.entry(receipt, type, base: 0)
                : FieldTable.entry(inApp, type, base: FieldTable.inAppBase)
            return kind ?? .unknown
        }
    }

    static var kinds: Kinds { Kinds(receipt: receiptKinds, inApp: inAppKinds) }

    /// `table[type - base]`, or nil outside the table. The table is borrowed as an argument: binding one of two
    /// tables to a local first would retain it on every call.
    @inline(__always)
    fileprivate static func entry<Element>(_ table: [Element], _ type: Int64, base: Int64) -> Element? {
        guard type >= base, type - base < Int64(table.count) else { return nil }
        return table[Int(type - base)]
    }

    /// The name output uses for an attribute: the field name, `type_N` when not in the table, `unknown` when the
    /// type is not a readable INTEGER.
    package static func displayName(of type: Int64?, in scope: FieldScope) -> String {
        guard let type else { return "unknown" }
        return descriptor(type, in: scope)?.name ?? "type_\(type)"
    }

    private static let receiptKinds: [FieldKind] = denseKinds(receiptFields, base: 0)
    private static let inAppKinds: [FieldKind] = denseKinds(inAppFields, base: inAppBase)

    private static func denseKinds(_ fields: [FieldDescriptor], base: Int64) -> [FieldKind] {
        let size = Int((fields.map(\.type).max() ?? base) - base + 1)
        var kinds = [FieldKind](repeating: .unknown, count: size)
        for field in fields { kinds[Int(field.type - base)] = field.kind }
        return kinds
    }

    private static let receiptRows: [Int] = denseRows(receiptFields, base: 0)
    private static let inAppRows: [Int] = denseRows(inAppFields, base: inAppBase)

    private static func denseRows(_ fields: [FieldDescriptor], base: Int64) -> [Int] {
        let size = Int((fields.map(\.type).max() ?? base) - base + 1)
        var rows = [Int](repeating: -1, count: size)
        for (row, field) in fields.enumerated() { rows[Int(field.type - base)] = row }
        return rows
    }

    /// The lowest in-app type number; in-app types index `inAppRows` from here.
    static let inAppBase: Int64 = 1700

    /// The descriptor with JSON key `name` in `scope`.
    package static func descriptor(named name: String, in scope: FieldScope) -> FieldDescriptor? {
        all.first { $0.scope == scope && $0.name == name }
    }

    private static func field(
        _ type: Int64, _ name: String, _ label: String, _ kind: FieldKind,
        documented: Bool, _ scope: FieldScope
    ) -> FieldDescriptor {
        FieldDescriptor(type: type, scope: scope, name: name, label: label, kind: kind, isDocumented: documented)
    }

    package static let receiptFields: [FieldDescriptor] = [
        field(
            0, "receipt_type", "environment (Production, ProductionSandbox, Xcode)", .utf8String,
            documented: false, .receipt),
        field(1, "app_item_id", "App Store item id of the app", .integer, documented: false, .receipt),
        field(2, "bundle_id", "bundle identifier", .utf8String, documented: true, .receipt),
        field(3, "application_version", "app version (CFBundleVersion)", .utf8String, documented: true, .receipt),
        field(4, "opaque_value", "opaque value hashed with the device id", .raw, documented: true, .receipt),
        field(5, "sha1_hash", "SHA-1 of device id, opaque value and bundle id", .raw, documented: true, .receipt),
        field(6, "type_6", "undocumented", .raw, documented: false, .receipt),
        field(7, "type_7", "undocumented", .raw, documented: false, .receipt),
        field(8, "date_8", "undocumented date", .date, documented: false, .receipt),
        field(9, "type_9", "undocumented", .unknown, documented: false, .receipt),
        field(10, "age_rating", "age rating", .ia5String, documented: false, .receipt),
        field(11, "type_11", "undocumented", .unknown, documented: false, .receipt),
        field(12, "receipt_creation_date", "receipt creation date", .date, documented: true, .receipt),
        field(13, "type_13", "undocumented", .unknown, documented: false, .receipt),
        field(14, "type_14", "undocumented", .unknown, documented: false, .receipt),
        field(15, "download_id", "download id", .unknown, documented: false, .receipt),
        field(
            16, "version_external_identifier", "external version identifier", .unknown, documented: false,
            .receipt),
        field(17, "in_app", "in-app purchase record", .inAppRecords, documented: true, .receipt),
        field(
            18, "original_purchase_date", "original purchase date of the app", .date, documented: false,
            .receipt),
        field(
            19, "original_application_version", "app version originally purchased", .utf8String,
            documented: true, .receipt),
        field(20, "type_20", "undocumented", .unknown, documented: false, .receipt),
        field(
            21, "expiration_date", "receipt expiration date (volume purchase)", .date, documented: true,
            .receipt),
        field(25, "type_25", "undocumented", .unknown, documented: false, .receipt),
        field(
            32, "preorder_date", "pre-order date (an app bought before its release)", .date, documented: true,
            .receipt),
    ]

    package static let inAppFields: [FieldDescriptor] = [
        field(1701, "quantity", "quantity", .integer, documented: true, .inApp),
        field(1702, "product_id", "product identifier", .utf8String, documented: true, .inApp),
        field(1703, "transaction_id", "transaction identifier", .utf8String, documented: true, .inApp),
        field(1704, "purchase_date", "purchase date", .date, documented: true, .inApp),
        field(
            1705, "original_transaction_id", "original transaction identifier", .utf8String, documented: true,
            .inApp),
        field(1706, "original_purchase_date", "original purchase date", .date, documented: true, .inApp),
        field(1707, "product_type", "product type", .integer, documented: false, .inApp),
        field(1708, "expires_date", "subscription expiration date", .date, documented: true, .inApp),
        field(1709, "type_1709", "undocumented", .unknown, documented: false, .inApp),
        field(1710, "type_1710", "undocumented", .unknown, documented: false, .inApp),
        field(1711, "web_order_line_item_id", "web order line item id", .integer, documented: true, .inApp),
        field(1712, "cancellation_date", "cancellation (refund) date", .date, documented: true, .inApp),
        field(1713, "is_trial_period", "in a free trial period", .flag, documented: true, .inApp),
        field(1714, "type_1714", "undocumented", .unknown, documented: false, .inApp),
        field(1715, "type_1715", "undocumented", .unknown, documented: false, .inApp),
        field(1716, "type_1716", "undocumented", .unknown, documented: false, .inApp),
        field(1717, "type_1717", "undocumented", .unknown, documented: false, .inApp),
        field(1718, "type_1718", "undocumented", .unknown, documented: false, .inApp),
        field(
            1719, "is_in_intro_offer_period", "in an introductory offer period", .flag, documented: true,
            .inApp),
        field(1721, "promotional_offer_id", "promotional offer identifier", .utf8String, documented: true, .inApp),
        field(1722, "type_1722", "undocumented", .unknown, documented: false, .inApp),
    ]

}
