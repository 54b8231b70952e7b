import ReceiptJSON

/// Apple's verifyReceipt response read for people, labelled for what it is: Apple's unsigned decoding of a receipt
/// (nothing in it is signed; the receipt it carries is what rcpt verifies). The status with its meaning, the app,
/// and the purchases Apple listed: `latest_receipt_info` newest first, then `pending_renewal_info`.
package struct VerifyReceiptResponseSummary: Sendable, Hashable {
    package var lines: [String]

    package init(_ document: JSONDocument) {
        let root = document.root
        func object(_ name: String, in parent: Int) -> Int? {
            document.member(name, of: parent).flatMap { document.nodes[$0].kind == .object ? $0 : nil }
        }
        let json = VerifyReceiptJSON(document: document)
        func text(_ name: String, in parent: Int) -> String? { json.text(name, in: parent) }
        /// A date as Apple wrote it beside `_ms`: the milliseconds in UTC (else the text Apple wrote).
        func date(_ name: String, in parent: Int) -> String? {
            json.milliseconds(name, in: parent).map(MillisecondUTC.text) ?? text(name, in: parent)
        }
        var lines: [String] = []
        let status = text("status", in: root) ?? "missing"
        lines.append("status       \(status)" + (Int(status).flatMap(Self.statusMeaning).map { " (\($0))" } ?? ""))
        if let environment = text("environment", in: root) { lines.append("environment  \(environment)") }
        if let receipt = object("receipt", in: root) {
            let app = [
                text("bundle_id", in: receipt), text("application_version", in: receipt).map { "version \($0)" },
                date("receipt_creation_date", in: receipt).map { "created \($0)" },
            ].compactMap { $0 }
            lines.append("receipt      " + app.joined(separator: ", "))
            let records = document.member("in_app", of: receipt).map { document.children(of: $0).count } ?? 0
            lines.append("in_app       \(records) record(s)")
        }
        if let latest = document.member("latest_receipt_info", of: root), document.nodes[latest].kind == .array {
            let entries = document.children(of: latest).filter { document.nodes[$0].kind == .object }
            let ordered = entries.enumerated().sorted { lhs, rhs in
                let a = text("purchase_date_ms", in: lhs.element).flatMap { Int64($0) } ?? Int64.min
                let b = text("purchase_date_ms", in: rhs.element).flatMap { Int64($0) } ?? Int64.min
                return a != b ? a > b : lhs.offset < rhs.offset
            }.map(\.element)
            lines.append("latest_receipt_info, \(entries.count) transaction(s), newest first")
            for entry in ordered {
                var words = [
                    text("product_id", in: entry) ?? "(no product_id)",
                    text("transaction_id", in: entry).map { "transaction \($0)" } ?? "",
                ]
                if let purchased = date("purchase_date", in: entry) { words.append("purchased \(purchased)") }
                if let expires = date("expires_date", in: entry) { words.append("expires \(expires)") }
                if let cancelled = date("cancellation_date", in: entry) { words.append("CANCELLED \(cancelled)") }
                if text("is_trial_period", in: entry) == "true" { words.append("trial") }
                lines.append("  " + words.filter { !$0.isEmpty }.joined(separator: ", "))
            }
        }
        if let pending = document.member("pending_renewal_info", of: root), document.nodes[pending].kind == .array {
            lines.append("pending_renewal_info")
            for entry in document.children(of: pending) where document.nodes[entry].kind == .object {
                var words = [
                    text("auto_renew_product_id", in: entry) ?? text("product_id", in: entry) ?? "(no product)"
                ]
                if let status = text("auto_renew_status", in: entry) {
                    words.append("auto-renew \(status == "1" ? "ON" : "OFF") (\(status))")
                }
                if let intent = text("expiration_intent", in: entry) {
                    words.append(
                        "expired: "
                            + (Int64(intent).flatMap { AppleEnumeration.name(of: "expirationIntent", value: $0) }
                                .map { "\($0) (\(intent))" } ?? intent))
                }
                if text("is_in_billing_retry_period", in: entry) == "1" { words.append("in billing retry") }
                if let grace = date("grace_period_expires_date", in: entry) {
                    words.append("grace period until \(grace)")
                }
                lines.append("  " + words.joined(separator: ", "))
            }
        }
        self.lines = lines
    }

    /// What Apple's documented status codes mean.
    static func statusMeaning(_ status: Int) -> String? {
        switch status {
        case 0: return "the receipt is valid"
        case 21000: return "the request was not an HTTP POST"
        case 21002: return "the receipt data was malformed"
        case 21003: return "the receipt could not be authenticated"
        case 21004: return "the shared secret does not match"
        case 21005: return "the receipt server was unavailable"
        case 21006: return "valid, but the subscription has expired"
        case 21007: return "a sandbox receipt sent to the production environment"
        case 21008: return "a production receipt sent to the sandbox environment"
        case 21009: return "internal data access error"
        case 21010: return "the user account cannot be found or has been deleted"
        case 21100...21199: return "internal data access error"
        default: return nil
        }
    }
}
