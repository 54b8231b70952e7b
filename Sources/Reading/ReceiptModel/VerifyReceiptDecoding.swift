import ReceiptJSON

/// What a verifyReceipt response says, unsigned, beside the signed receipt rcpt reads from it (`latest_receipt`):
/// Apple's own decoding (`receipt.bundle_id`, `app_item_id`, `receipt_type`), the environment it answered from and
/// its status. Apple decodes the receipt that was sent, of the same app and environment as the latest one, and
/// answers with a receipt only when it accepted one; a response whose unsigned parts say otherwise was put together
/// around a genuine receipt, and a reader of them (a backend that takes the response from its client) is misled.
/// Every copy of a member counts, names compared without regard to case: Go's and .NET's readers take a
/// `Receipt` or a `Bundle_Id` for the member, and readers differ on which duplicate wins.
package struct VerifyReceiptDecoding: Sendable, Hashable {
    /// One member, the receipt attribute it states, what that attribute must then hold, and where it stands.
    package struct Claim: Sendable, Hashable {
        package var member: String
        package var field: ReceiptField
        /// The member's text (a string's, or a number as written; the first characters of a value of another type).
        package var text: String
        /// The signed attribute's text it states (`ProductionSandbox` for the environment `Sandbox`); nil for a value
        /// of another JSON type, which states none.
        package var signed: String?
        package var offset: Int
    }

    /// The response's status, when it is not one Apple answers with a receipt: 0, or 21006 (valid, its subscription
    /// expired).
    package struct Refusal: Sendable, Hashable {
        package var status: String
        package var offset: Int
    }

    package var claims: [Claim] = []
    package var refusal: Refusal?

    /// The members of `document` that speak of the receipt; nil when it has none.
    init?(_ document: JSONDocument) {
        let named: [String: ReceiptField] = [
            "bundle_id": .bundleID, "app_item_id": .appItemID, "receipt_type": .receiptType,
        ]
        for (node, key) in Self.members(of: document.root, in: document) {
            switch key {
            case "receipt":
                // An array of receipts too: a reader that takes `receipt[0]`, or compares loosely, reads it.
                let spelled = document.key(node) ?? key
                let objects =
                    document.nodes[node].kind == .array
                    ? document.children(of: node).enumerated().map { ($1, "\(spelled)[\($0)]") }
                    : [(node, spelled)]
                for (object, path) in objects where document.nodes[object].kind == .object {
                    claims += Self.receiptClaims(of: object, at: path, in: document, named: named)
                }
            case "environment":
                // Apple answers from the environment the receipt is of: `Sandbox` for a `ProductionSandbox` receipt.
                guard let text = Self.text(node, in: document) else { continue }
                let signed = ["production": "Production", "sandbox": "ProductionSandbox"][text.lowercased()]
                guard let signed else { continue }
                claims.append(
                    Claim(
                        member: "environment", field: .receiptType, text: text, signed: signed,
                        offset: Self.offset(node, in: document)))
            case "status":
                guard let text = Self.text(node, in: document), text != "0", text != "21006", refusal == nil else {
                    continue
                }
                refusal = Refusal(status: text, offset: Self.offset(node, in: document))
            default:
                continue
            }
        }
        guard !claims.isEmpty || refusal != nil else { return nil }
    }

    /// The claims of one `receipt` object, at `path` as written (`Receipt`, `receipt[1]`): its `bundle_id`,
    /// `app_item_id` and `receipt_type` in any case. A value of another JSON type than a string or a number
    /// (`["com.example.app"]`, which JavaScript's `==` takes for the string) is a claim no attribute agrees with,
    /// shown by its first characters (a red team's trial: it went unchecked).
    static func receiptClaims(of node: Int, at path: String, in document: JSONDocument, named: [String: ReceiptField])
        -> [Claim]
    {
        Self.members(of: node, in: document).compactMap { member, name in
            guard let field = named[name], document.nodes[member].kind != .null else { return nil }
            let text = Self.text(member, in: document)
            // Named as written (`Receipt.Bundle_Id`), so the reader finds the copy that disagrees.
            return Claim(
                member: "\(path).\(document.key(member) ?? name)", field: field,
                text: text ?? Self.opening(member, in: document), signed: text,
                offset: Self.offset(member, in: document))
        }
    }

    /// The first characters of a value as written, for a message: a hostile value can be megabytes long.
    static func opening(_ node: Int, in document: JSONDocument) -> String {
        let range = document.nodes[node].start..<document.nodes[node].end
        let shown = 40
        let head = String(decoding: document.bytes[range].prefix(shown), as: UTF8.self)
        return range.count > shown ? head + "…" : head
    }

    /// Every member of the object `node`, with its name case folded.
    static func members(of node: Int, in document: JSONDocument) -> [(node: Int, key: String)] {
        document.children(of: node).compactMap { child in
            document.key(child).map { (child, JSONDocument.caseFolded($0)) }
        }
    }

    /// A string's text, or a number as written; nil for anything else.
    static func text(_ node: Int, in document: JSONDocument) -> String? {
        switch document.nodes[node].kind {
        case .string: return document.string(node)
        case .number: return document.text(node)
        default: return nil
        }
    }

    /// Where the member's name starts.
    static func offset(_ node: Int, in document: JSONDocument) -> Int {
        document.nodes[node].keyRange.map { $0.lowerBound - 1 } ?? document.nodes[node].start
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
        shifted.refusal = refusal.flatMap { refusal in
            let (offset, overflow) = refusal.offset.addingReportingOverflow(distance)
            return overflow ? nil : Refusal(status: refusal.status, offset: offset)
        }
        return shifted
    }
}
