import ReceiptJSON

/// What a verifyReceipt response says, unsigned, of the app beside the signed receipt rcpt reads from it
/// (`latest_receipt`): Apple's own decoding, `receipt.bundle_id`, `receipt.app_item_id` and `receipt.receipt_type`.
/// Apple decodes the receipt that was sent, of the same app and environment as the latest one; a response whose
/// decoding names another app was put together around a genuine receipt, and a reader of the decoding (a backend
/// that takes the response from its client) reads another app's purchases.
package struct VerifyReceiptDecoding: Sendable, Hashable {
    /// One member of the decoding, the receipt attribute it states, its text and where it stands in the response.
    package struct Claim: Sendable, Hashable {
        package var member: String
        package var field: ReceiptField
        package var text: String
        package var offset: Int
    }

    package var claims: [Claim]

    /// The members of `document`'s top-level `receipt` object that name the app; nil when it has none.
    init?(_ document: JSONDocument) {
        guard let receipt = document.member("receipt", of: document.root), document.nodes[receipt].kind == .object
        else { return nil }
        let named: [(String, ReceiptField)] = [
            ("bundle_id", .bundleID), ("app_item_id", .appItemID), ("receipt_type", .receiptType),
        ]
        claims = named.compactMap { member, field in
            guard let node = document.member(member, of: receipt) else { return nil }
            let text: String
            switch document.nodes[node].kind {
            case .string: text = document.string(node) ?? ""
            case .number: text = document.text(node)
            default: return nil
            }
            let offset = document.nodes[node].keyRange.map { $0.lowerBound - 1 } ?? document.nodes[node].start
            return Claim(member: member, field: field, text: text, offset: offset)
        }
        guard !claims.isEmpty else { return nil }
    }

    /// The same claims with their offsets `distance` further on (into the text the response was found in); an
    /// offset past `Int.max` is dropped with its claim.
    func shifted(by distance: Int) -> VerifyReceiptDecoding {
        var shifted = self
        shifted.claims = claims.compactMap { claim in
            let (offset, overflow) = claim.offset.addingReportingOverflow(distance)
            guard !overflow else { return nil }
            var moved = claim
            moved.offset = offset
            return moved
        }
        return shifted
    }
}
