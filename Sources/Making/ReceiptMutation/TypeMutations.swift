import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptModel
import ReceiptSuite

/// A field's value in another ASN.1 type than Apple writes: an INTEGER quantity as a UTF8String, an OCTET STRING or
/// a SET; a date as an INTEGER; a product id as an INTEGER … A validator that assumes the type casts, and a parser
/// that throws on the unexpected tag crashes: the receipt must be judged (a warning where the value is not relied
/// on, a rejection where it is), never crash the reader. Each is re-signed, so it reaches the validator's parser.
enum TypeMutations {
    static func encoded(_ write: (inout ASN1Writer) -> Void) -> [UInt8] {
        var writer = ASN1Writer()
        write(&writer)
        return writer.bytes
    }

    static func utf8(_ text: String) -> [UInt8] { encoded { $0.appendUTF8String(text) } }
    static func ia5(_ text: String) -> [UInt8] { encoded { $0.appendIA5String(text) } }
    static func integer(_ number: Int64) -> [UInt8] { encoded { $0.appendInteger(number) } }
    static func octets(_ bytes: [UInt8]) -> [UInt8] { encoded { $0.appendOctetString(bytes) } }
    static let emptySet: [UInt8] = [0x31, 0x00]
    static let booleanTrue: [UInt8] = encoded { $0.appendBoolean(true) }

    /// A top-level attribute's value replaced by `value` (added when the receipt has none).
    static func topLevel(
        _ name: String, type: Int64, expected: ExpectedVerdict, finding: FindingCode?, _ summary: String,
        _ value: @escaping @Sendable (MutationWorkspace) -> [UInt8]
    ) -> Mutation {
        Mutation(name, .types, layer: "attribute", expected: expected, finding: finding, summary) { workspace in
            workspace.blueprint.set(AttributeSpec(type: type, value: value(workspace)))
        }
    }

    /// The first in-app record's attribute of `type` replaced by `value` (a plausible record added when the
    /// receipt has none).
    static func record(
        _ name: String, type: Int64, expected: ExpectedVerdict, finding: FindingCode?, _ summary: String,
        _ value: @escaping @Sendable (MutationWorkspace) -> [UInt8]
    ) -> Mutation {
        Mutation(name, .types, layer: "record", expected: expected, finding: finding, summary) { workspace in
            let bytes = value(workspace)
            workspace.blueprint.editFirstRecord { record in
                InAppMutations.set(&record, AttributeSpec(type: type, value: bytes))
            }
        }
    }

    static let all: [Mutation] = [
        topLevel(
            "bundle-id-as-integer", type: 2, expected: .reject, finding: .bundleIdMismatch,
            "bundle_id as an INTEGER"
        ) { _ in integer(42) },
        topLevel(
            "app-version-as-integer", type: 3, expected: .reject, finding: .appVersionMismatch,
            "application_version as an INTEGER: no version text to compare"
        ) { _ in integer(246) },
        topLevel(
            "creation-date-as-utf8string", type: 12, expected: .accept, finding: .valueUnexpectedType,
            "receipt_creation_date as a UTF8String of the same date (Apple writes an IA5String)"
        ) {
            utf8(ReceiptDate.format(epochSeconds: $0.creationSeconds))
        },
        topLevel(
            "creation-date-as-integer", type: 12, expected: .reject, finding: .creationDateMissing,
            "receipt_creation_date as an INTEGER of epoch seconds: no date where one is required"
        ) { integer($0.creationSeconds) },
        topLevel(
            "original-app-version-as-octets", type: 19, expected: .accept, finding: .valueUnexpectedType,
            "original_application_version as an OCTET STRING"
        ) { _ in octets(Array("1.0".utf8)) },
        record(
            "quantity-as-utf8string", type: 1701, expected: .accept, finding: .valueUnexpectedType,
            "the first record's quantity as the UTF8String \"1\" (Apple writes an INTEGER)"
        ) { _ in utf8("1") },
        record(
            "quantity-as-octet-string", type: 1701, expected: .accept, finding: .valueUnexpectedType,
            "the first record's quantity as an OCTET STRING"
        ) { _ in octets([0x01]) },
        record(
            "quantity-as-set", type: 1701, expected: .accept, finding: .valueUnexpectedType,
            "the first record's quantity as an empty SET"
        ) { _ in emptySet },
        record(
            "product-id-as-integer", type: 1702, expected: .accept, finding: .valueUnexpectedType,
            "the first record's product_id as an INTEGER"
        ) { _ in integer(7) },
        record(
            "transaction-id-as-integer", type: 1703, expected: .accept, finding: .valueUnexpectedType,
            "the first record's transaction_id as an INTEGER of the same digits"
        ) { _ in integer(1_000_000_000_000_042) },
        record(
            "purchase-date-as-integer", type: 1704, expected: .accept, finding: .valueUnexpectedType,
            "the first record's purchase_date as an INTEGER of epoch seconds"
        ) { integer($0.creationSeconds - 86_400) },
        record(
            "expires-date-as-integer", type: 1708, expected: .accept, finding: .valueUnexpectedType,
            "the first record's expires_date as an INTEGER of epoch seconds"
        ) { integer($0.creationSeconds + 86_400) },
        record(
            "expires-date-as-utf8string", type: 1708, expected: .accept, finding: .valueUnexpectedType,
            "the first record's expires_date as a UTF8String of a date (Apple writes an IA5String)"
        ) {
            utf8(ReceiptDate.format(epochSeconds: $0.creationSeconds + 86_400))
        },
        record(
            "cancellation-date-as-boolean", type: 1712, expected: .accept, finding: .valueUnexpectedType,
            "the first record's cancellation_date as a BOOLEAN true"
        ) { _ in booleanTrue },
        record(
            "trial-flag-as-boolean", type: 1713, expected: .accept, finding: .valueUnexpectedType,
            "the first record's is_trial_period as a BOOLEAN (Apple writes an INTEGER 0 or 1)"
        ) { _ in booleanTrue },
        record(
            "web-order-line-item-as-utf8string", type: 1711, expected: .accept, finding: .valueUnexpectedType,
            "the first record's web_order_line_item_id as a UTF8String"
        ) { _ in utf8("2000000000000") },
        // Apple tells validators to ignore the types it does not document: a malformed value in one is a warning
        // (valid) unless --strict; the same value in a documented type is an error.
        record(
            "undocumented-type-invalid-utf8", type: 1709, expected: .accept, finding: .valueInvalidUtf8,
            "the first record's undocumented type 1709 as a UTF8String that is not UTF-8 (ignorable: Apple documents no such field)"
        ) {
            _ in encoded { $0.appendPrimitive(.utf8String, content: [0xC3, 0x28]) }
        },
        topLevel(
            "undocumented-type-invalid-date", type: 8, expected: .accept, finding: .valueInvalidDate,
            "the undocumented top-level date type 8 holding \"yesterday\" (ignorable: Apple documents no such field)"
        ) {
            _ in ia5("yesterday")
        },
    ]
}
